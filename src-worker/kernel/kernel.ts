/**
 * The kernel of one sandbox: process table, exec, exit, signals and
 * syscall dispatch, over a VFS it does not own the code of. All state lives
 * here on the engine's main thread; processes run in workers and reach it
 * through their channels. Handlers per syscall family live in `handlers/`.
 */
import type { Reply } from '../channel/server.js';
import { SinkFile } from '../dev/devices.js';
import type { OpenFile } from '../fd/openFile.js';
import { W_DATA, W_EPOCH, W_FDMASK } from '../channel/layout.js';
import { DirFile } from '../fd/vfsFile.js';
import { Job } from '../proc/job.js';
import { Process, type ExitInfo } from '../proc/process.js';
import {
  allFactories,
  factoryFor,
  type ProcessRunner,
  type RunnerFactories,
  type RunnerFactory,
} from '../proc/runner.js';
import { resolveImage } from '../programs/exec.js';
import type { Image } from '../programs/image.js';
import { ProgramRegistry } from '../programs/registry.js';
import { defaultAction, DISP_CATCH, DISP_IGNORE, SIG, signalName } from '../signal/signals.js';
import type { Tty } from '../tty/tty.js';
import {
  pathToBytes,
  USER_GID,
  USER_HOME,
  USER_UID,
  type BytePath,
  type Cred,
  type Vfs,
} from '../vfs/index.js';
import { Errno, fail, KernelError } from '../base/errno.js';
import { EXIT_KIND } from '../base/syscalls.js';
import { handlers } from './handlers/index.js';
import {
  DEFAULT_KERNEL_LIMITS,
  maxPagesFor,
  STATUS_KILLED,
  STATUS_TIMEOUT,
  STATUS_TRAP,
  WASM_PAGE,
  type KernelLimits,
} from '../base/limits.js';
import type { Session } from './session.js';
import { NetworkGateway } from '../net/gateway.js';

export interface SpawnSpec {
  readonly path: BytePath;
  readonly argv: readonly Uint8Array[];
  readonly env: readonly Uint8Array[];
  /** Default: the parent's cwd, or the user's home. */
  readonly cwd?: BytePath;
  /** Child fd -> open file description (shared). */
  readonly fds: ReadonlyArray<readonly [number, OpenFile]>;
  /** 0 = new group led by the child, -1 = parent's group, > 0 = join. */
  readonly pgid?: number;
  readonly parent?: Process;
  readonly foreground?: boolean;
  /**
   * Pass `env` as given: no `PWD` is added or replaced (`env -i`), except
   * for a shell, which sets `PWD` itself at startup as bash does, and for
   * Python, whose runner takes its cwd from `PWD`.
   */
  readonly exactEnv?: boolean;
  /** SIGINT and SIGQUIT in the child (a shell's background job ignores them). */
  readonly intQuit?: IntQuit;
  readonly cred?: Cred;
  readonly tty?: Tty;
  readonly session?: Session;
  /**
   * A wall-time limit for this process and everything it starts (a new job;
   * 0 = starts outside any job, as session and terminal shells do). Left
   * out, the process joins its parent's job, or gets a job with the
   * sandbox's limit when it has none.
   */
  readonly wallTimeMs?: number;
}

/** SIGINT and SIGQUIT of a new program: kept as they are, ignored, or at their default. */
export type IntQuit = 'inherit' | 'ignore' | 'default';

/** What `Kernel.exec` runs in place of a process's program. */
export interface ExecSpec {
  readonly path: BytePath;
  readonly argv: readonly Uint8Array[];
  readonly env: readonly Uint8Array[];
  /** The new fd table: fd -> open file description (shared). */
  readonly fds: ReadonlyArray<readonly [number, OpenFile]>;
  readonly exactEnv?: boolean;
  readonly intQuit?: IntQuit;
}

export type KernelEvent =
  | { readonly type: 'process-started'; readonly pid: number; readonly argv: readonly string[] }
  /** The process replaced its program (exec); its pid stays. */
  | { readonly type: 'process-exec'; readonly pid: number; readonly argv: readonly string[] }
  | {
      readonly type: 'process-exited';
      readonly pid: number;
      readonly code: number | undefined;
      readonly signal: number | undefined;
    }
  /** A process started or stopped waiting for a person to answer a network request. */
  | { readonly type: 'approval-wait'; readonly pid: number; readonly waiting: boolean };

/**
 * The sandbox's network as the net syscalls reach it: the gateway (its
 * policy and onRequest) and which step a process belongs to, for the audit.
 */
export interface KernelNetwork {
  readonly gateway: NetworkGateway;
  readonly stepOf?: (pid: number) => string | null;
}

export interface KernelOptions {
  readonly vfs: Vfs;
  /** Directory with manifest.json and the .wasm programs; undefined = none. */
  readonly programsDir?: string;
  readonly limits?: Partial<KernelLimits>;
  /**
   * How each image kind runs (`proc/runner.ts`): `{ wasm: ... }` today. The
   * kernel owns them and disposes them with itself; exec of an image whose
   * kind has no factory fails with ENOEXEC.
   */
  readonly runners: RunnerFactories;
}

export const USER_CRED: Cred = Object.freeze({ uid: USER_UID, gid: USER_GID });

const dec = new TextDecoder();
const enc = new TextEncoder();

export class Kernel {
  vfs: Vfs;
  readonly registry: ProgramRegistry;
  /** Current limits; `setLimits` replaces them for processes started afterwards (and output sinks made afterwards). */
  limits: KernelLimits;
  readonly procs = new Map<number, Process>();
  readonly sessions = new Map<Process, Session>();
  readonly bootTime = performance.now();
  /** Seeks served: with the VFS's data version, the W_DATA stamp (a seek can move a shared offset back). */
  seeks = 0;
  private readonly runners: RunnerFactories;
  private nextPid = 2;
  private starting = 0;
  private listeners = new Set<(e: KernelEvent) => void>();
  private disposed = false;
  /** Sums the processes' memory reports while any process lives. */
  private memoryWatch: NodeJS.Timeout | undefined;
  /**
   * Set by whoever owns the sandbox's policy; until then every request is
   * denied (default deny, no onRequest). The default is made on first use:
   * a Sandbox sets its own before any program runs.
   */
  private networkSet: KernelNetwork | undefined;
  get network(): KernelNetwork {
    this.networkSet ??= { gateway: new NetworkGateway({ sandboxId: 'sandbox' }) };
    return this.networkSet;
  }
  set network(network: KernelNetwork) {
    this.networkSet = network;
  }

  constructor(opts: KernelOptions) {
    this.vfs = opts.vfs;
    this.registry = new ProgramRegistry(opts.programsDir);
    this.limits = DEFAULT_KERNEL_LIMITS;
    this.setLimits(opts.limits ?? {});
    this.runners = opts.runners;
  }

  /**
   * Write the registry's program stubs into /bin and /usr/bin (mode 0755).
   * Every sandbox pays this (~240 files) before its first command, in code
   * V8 has not compiled yet: each directory is looked up once, each text
   * encoded once and its bytes shared by the files holding it.
   */
  installPrograms(): void {
    const texts = new Map<string, Uint8Array>();
    const files: [string, Uint8Array][] = [];
    for (const [path, text] of this.registry.stubs()) {
      let data = texts.get(text);
      if (!data) texts.set(text, (data = enc.encode(text)));
      files.push([path, data]);
    }
    // One lookup per directory; stubs of one program share their bytes.
    this.vfs.installFiles(files, 0o755);
  }

  onEvent(listener: (e: KernelEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(e: KernelEvent): void {
    for (const l of this.listeners) l(e);
  }

  setLimits(limits: Partial<KernelLimits>): void {
    const next = { ...this.limits, ...limits };
    for (const [k, v] of Object.entries(next)) {
      if (typeof v !== 'number' || !(v >= 0))
        throw new RangeError(`limit ${k} must be a number >= 0`);
    }
    if (next.memoryBytes < WASM_PAGE)
      throw new RangeError('limit memoryBytes must be at least 64 KiB');
    if (next.maxProcesses < 1) throw new RangeError('limit maxProcesses must be at least 1');
    this.limits = next;
  }

  /** Resolves when every runner factory is warm (e.g. the worker pool has booted its workers). */
  async warm(): Promise<void> {
    await Promise.all(allFactories(this.runners).map((f) => f.whenWarm?.()));
  }

  liveProcesses(): Process[] {
    return [...this.procs.values()].filter((p) => p.alive);
  }

  /** Start a process. Rejects with KernelError (ENOENT, EACCES, ENOEXEC, EAGAIN, ...). */
  async spawn(spec: SpawnSpec): Promise<Process> {
    if (this.disposed) fail(Errno.EIO, 'sandbox destroyed');
    if (this.liveProcesses().length + this.starting >= this.limits.maxProcesses) {
      fail(Errno.EAGAIN, `process limit of ${this.limits.maxProcesses} reached`);
    }
    // Past the limit, the largest process is ended now rather than at the
    // watch's next tick, so a spawn does not fail for memory about to be freed.
    if (this.memoryInUse() > this.limits.sandboxMemoryBytes) this.enforceSandboxMemory();
    if (this.memoryInUse() >= this.limits.sandboxMemoryBytes)
      fail(
        Errno.ENOMEM,
        `sandbox memory limit of ${mib(this.limits.sandboxMemoryBytes)} MiB reached`,
      );
    this.starting++;
    let image: Image;
    let factory: RunnerFactory<Image>;
    const parent = spec.parent;
    const cred = spec.cred ?? parent?.cred ?? USER_CRED;
    let cwd = spec.cwd ?? parent?.cwd ?? USER_HOME;
    try {
      if (spec.cwd !== undefined) {
        const base = parent?.cwd ?? '/';
        const st = this.vfs.stat(spec.cwd, { cwd: base, cred });
        if (st.kind !== 'dir') fail(Errno.ENOTDIR, 'cwd');
        cwd = this.vfs.realpath(spec.cwd, { cwd: base, cred });
      }
      [image, factory] = await this.loadImage(spec.path, spec.argv, cwd, cred);
    } finally {
      this.starting--;
    }
    if (this.disposed) fail(Errno.EIO, 'sandbox destroyed');
    // The image lookup awaited: the parent may have been ended meanwhile (a
    // kill, its job's deadline), and a child started now would outlive it unbounded.
    if (parent && !parent.alive) fail(Errno.ESRCH, 'the parent process has ended');
    if ((parent?.commandJob ?? parent?.job)?.expired) fail(Errno.ESRCH, 'time limit exceeded');
    const pid = this.nextPid++;
    let pgid = spec.pgid ?? -1;
    if (pgid === 0) pgid = pid;
    else if (pgid === -1) pgid = parent?.pgid ?? pid;
    const env = envFor(image, spec.env, cwd, spec.exactEnv);
    const p = new Process(pid, parent?.pid ?? 0, pgid, cwd, image.argv, env, cred, image.name);
    p.tty = spec.tty ?? parent?.tty;
    if (parent) {
      // exec semantics: umask and ignored signals are inherited, caught ones reset to default.
      p.umask = parent.umask;
      parent.dispositions.forEach((d, sig) => {
        if (d === DISP_IGNORE) p.dispositions[sig] = DISP_IGNORE;
      });
    }
    setIntQuit(p, spec.intQuit);
    p.memoryLimit = this.limits.memoryBytes;
    this.joinJob(p, spec);
    for (const [fd, file] of spec.fds) p.fds.set(fd, file);
    // The root preopen lives beside the fd table, so inherited fds may take slot 3.
    p.fds.setRoot(new DirFile(this.vfs, this.vfs.resolve('/'), cred));
    if (spec.foreground && p.tty) p.tty.fgPgrp = pgid;
    if (spec.session) {
      this.sessions.set(p, spec.session);
      spec.session.process = p;
    }
    this.procs.set(pid, p);
    p.state = 'running';
    p.runner = this.startRunner(p, image, factory);
    this.watchMemory();
    this.emit({ type: 'process-started', pid, argv: image.argv.map((a) => dec.decode(a)) });
    return p;
  }

  /** The image `path` names and the factory that runs it (ENOEXEC when no factory runs its kind). */
  private async loadImage(
    path: BytePath,
    argv: readonly Uint8Array[],
    cwd: BytePath,
    cred: Cred,
  ): Promise<[Image, RunnerFactory<Image>]> {
    const image = await resolveImage(
      { vfs: this.vfs, registry: this.registry, maxPages: maxPagesFor(this.limits.memoryBytes) },
      path,
      [...argv],
      cwd,
      cred,
    );
    const factory = factoryFor(this.runners, image);
    if (!factory) fail(Errno.ENOEXEC, `no runner for '${image.kind}' programs`);
    return [image, factory];
  }

  /**
   * execve: `p` runs another program. Its pid, parent, group, job, cwd,
   * umask, timers and ignored signals stay; caught signals go back to their
   * default; the fd table becomes `spec.fds`. The old runner is retired (or
   * ended) without ending the process, so its parent's `wait` sees the new
   * program's exit.
   * A session's shell cannot exec (the session is its program): ENOTSUP.
   */
  async exec(p: Process, spec: ExecSpec): Promise<void> {
    if (this.sessions.has(p)) fail(Errno.ENOTSUP);
    const [image, factory] = await this.loadImage(spec.path, spec.argv, p.cwd, p.cred);
    if (!p.alive) fail(Errno.EINTR);
    if (p.runner?.retire) p.runner.retire();
    else p.runner?.terminate();
    p.fds.replaceAll(spec.fds);
    p.dispositions.forEach((d, sig) => {
      if (d === DISP_CATCH) p.dispositions[sig] = 0;
    });
    setIntQuit(p, spec.intQuit);
    p.argv = image.argv;
    p.env = envFor(image, spec.env, p.cwd, spec.exactEnv);
    p.name = image.name;
    p.memoryLimit = this.limits.memoryBytes;
    p.runner = this.startRunner(p, image, factory);
    this.emit({ type: 'process-exec', pid: p.pid, argv: image.argv.map((a) => dec.decode(a)) });
  }

  /**
   * A job whose members are ended at `wallTimeMs` (0: no deadline), by
   * `onDeadline` if given, else with the time-limit message and status 124.
   */
  createJob(wallTimeMs: number, parent?: Job, onDeadline?: (job: Job) => void): Job {
    return new Job(wallTimeMs, parent, onDeadline ?? ((job) => this.endJob(job)));
  }

  /** Ends every live member of a job at its deadline; the message goes to the oldest. */
  endJob(job: Job): void {
    const live = job.live();
    const first = live[0];
    if (first)
      this.writeMessage(first, `sandglass: killed: time limit of ${job.wallTimeMs} ms exceeded\n`);
    for (const p of live) this.exitProcess(p, { code: STATUS_TIMEOUT });
  }

  private joinJob(p: Process, spec: SpawnSpec): void {
    const inherited = spec.parent ? (spec.parent.commandJob ?? spec.parent.job) : undefined;
    if (spec.wallTimeMs === 0) return;
    const wall = spec.wallTimeMs ?? (inherited ? 0 : this.limits.wallTimeMs);
    p.job = wall > 0 ? this.createJob(wall, inherited) : inherited;
    p.job?.add(p);
  }

  /** Memory the live processes hold together, as they last reported it. */
  memoryInUse(): number {
    let total = 0;
    for (const p of this.procs.values()) if (p.alive) total += p.runner?.memoryBytes() ?? 0;
    return total;
  }

  private watchMemory(): void {
    if (this.memoryWatch || this.disposed) return;
    // Reports arrive without a syscall (a process may allocate in a tight
    // loop), so the sum is checked on a clock, not on calls.
    this.memoryWatch = setInterval(() => this.enforceSandboxMemory(), 50);
    this.memoryWatch.unref();
  }

  /** Past the sandbox's memory limit, the largest process is ended until the rest fits. */
  enforceSandboxMemory(): void {
    const live = this.liveProcesses();
    if (live.length === 0) {
      clearInterval(this.memoryWatch);
      this.memoryWatch = undefined;
      return;
    }
    // A runner whose memory cannot be capped when it starts is held to its own limit here.
    for (const p of live) {
      if (p.alive && p.memoryLimit > 0 && memoryOf(p) > p.memoryLimit) {
        this.writeMessage(
          p,
          `sandglass: killed: memory limit of ${mib(p.memoryLimit)} MiB exceeded\n`,
        );
        this.exitProcess(p, { code: STATUS_KILLED });
      }
    }
    const limit = this.limits.sandboxMemoryBytes;
    let total = this.memoryInUse();
    while (total > limit) {
      let largest: Process | undefined;
      for (const p of live)
        if (p.alive && (!largest || memoryOf(p) > memoryOf(largest))) largest = p;
      if (!largest) return;
      total -= memoryOf(largest);
      this.writeMessage(
        largest,
        `sandglass: killed: sandbox memory limit of ${mib(limit)} MiB exceeded by all processes together\n`,
      );
      this.exitProcess(largest, { code: STATUS_KILLED });
    }
  }

  /** Start `p`'s runner: syscalls go to `handle`, a crash ends it with status 134. */
  private startRunner(p: Process, image: Image, factory: RunnerFactory<Image>): ProcessRunner {
    return factory.start(
      image,
      [...p.env],
      (op, args, payload, out) => this.handle(p, op, args, payload, out),
      (message) => {
        this.writeMessage(p, `sandglass: ${p.name}: ${message}\n`);
        this.exitProcess(p, { code: STATUS_TRAP });
      },
      (words) => {
        words[W_EPOCH] = this.vfs.namespaceVersion | 0;
        words[W_FDMASK] = p.fds.lowMask;
        words[W_DATA] = (this.vfs.dataVersion + this.seeks) | 0;
      },
    );
  }

  /** Dispatch one syscall of `p`. */
  handle(
    p: Process,
    op: number,
    args: number[],
    payload: Uint8Array,
    out?: Uint8Array,
  ): Reply | Promise<Reply> {
    if (!p.alive) return { errno: Errno.EINTR };
    if (p.stopped) {
      // A stopped process makes no progress: answer its syscall after SIGCONT.
      return new Promise<Reply>((resolve) =>
        p.deferred.push(() => resolve(this.handle(p, op, args, payload, out))),
      );
    }
    const h = handlers[op];
    if (!h) return { errno: Errno.ENOSYS };
    try {
      const r = h(this, p, args, payload, out);
      if (r instanceof Promise) return r.catch((e: unknown) => this.errorReply(p, e));
      return r;
    } catch (e) {
      return this.errorReply(p, e);
    }
  }

  private errorReply(p: Process, e: unknown): Reply {
    if (e instanceof KernelError) {
      if (e.notice !== undefined) this.writeMessage(p, `sandglass: ${e.notice}\n`);
      return { errno: e.errno };
    }
    // A host bug or ABI misuse: end the process with a clear message.
    const msg = e instanceof Error ? e.message : String(e);
    this.writeMessage(p, `sandglass: internal error in syscall: ${msg}\n`);
    this.exitProcess(p, { code: STATUS_TRAP });
    return { errno: Errno.EIO };
  }

  /** Handle the EXIT syscall: the program ended by itself. */
  programExited(p: Process, code: number, kind: number, memBytes: number, text: string): void {
    if (kind === EXIT_KIND.trap) {
      const atLimit = p.memoryLimit > 0 && memBytes + WASM_PAGE * 16 >= p.memoryLimit;
      if (atLimit) {
        this.writeMessage(
          p,
          `sandglass: killed: memory limit of ${mib(p.memoryLimit)} MiB exceeded\n`,
        );
        code = STATUS_KILLED;
      } else {
        this.writeMessage(p, `sandglass: ${p.name}: ${text}\n`);
        code = STATUS_TRAP;
      }
    } else if (kind === EXIT_KIND.refused) {
      this.writeMessage(p, text);
    }
    this.exitProcess(p, { code }, true);
  }

  /** Best-effort message on a process's stderr (never blocks). */
  writeMessage(p: Process, text: string): void {
    if (!p.fds.has(2)) return;
    try {
      p.fds.get(2).write(enc.encode(text));
    } catch {
      // stderr gone or full: nothing more to do
    }
  }

  /** End a process (by itself, a signal or a limit). Idempotent. */
  exitProcess(p: Process, how: { code?: number; signal?: number }, byItself = false): void {
    if (!p.alive) return;
    p.state = 'zombie';
    for (const t of p.timers) clearTimeout(t);
    p.timers = [];
    p.job?.remove(p);
    if (byItself) p.runner?.finish();
    else p.runner?.terminate();
    p.fds.closeAll();
    // As bash does for a job a signal killed: a full-screen program (a REPL in raw
    // mode) that could not restore the terminal leaves it as it found it.
    const before = p.ttyModeBefore;
    if (how.signal !== undefined && before && before.tty.modeSetBy === p.pid) {
      before.tty.setMode(before.mode);
      before.tty.modeSetBy = 0;
    }
    const info: ExitInfo =
      how.signal !== undefined
        ? { code: undefined, signal: how.signal, status: how.signal & 0x7f }
        : {
            code: (how.code ?? 0) & 0xff,
            signal: undefined,
            status: ((how.code ?? 0) & 0xff) << 8,
          };
    p.markExited(info);
    const session = this.sessions.get(p);
    if (session) {
      this.sessions.delete(p);
      session.shellExited(info);
    }
    // Orphans are adopted by init (pid 1 = the kernel), which reaps them.
    for (const c of this.procs.values()) {
      if (c.ppid === p.pid) {
        c.ppid = 1;
        if (!c.alive) this.reap(c);
      }
    }
    const parent = this.procs.get(p.ppid);
    if (parent && parent.alive) {
      parent.childChanged.notify();
      if (parent.dispositions[SIG.CHLD] === DISP_CATCH) this.signal(parent, SIG.CHLD);
    } else {
      this.reap(p);
    }
    this.emit({ type: 'process-exited', pid: p.pid, code: info.code, signal: info.signal });
  }

  /**
   * `p` started or stopped waiting for a person (a network approval): its
   * time limit does not run meanwhile, and listeners (the session's command
   * limit, the terminal's status) hear of it.
   */
  approvalWait(p: Process, waiting: boolean): void {
    if (waiting) p.job?.pauseDeadline();
    else p.job?.resumeDeadline();
    this.emit({ type: 'approval-wait', pid: p.pid, waiting });
  }

  reap(p: Process): void {
    p.state = 'reaped';
    this.procs.delete(p.pid);
  }

  /** Deliver a signal to one process. */
  signal(p: Process, sig: number): void {
    if (sig === 0 || !p.alive) return;
    if (sig === SIG.KILL) return this.exitProcess(p, { signal: sig });
    if (sig === SIG.STOP) return this.stop(p, sig);
    if (sig === SIG.CONT) this.resume(p);
    const disp = p.dispositions[sig];
    if (disp === DISP_IGNORE) return;
    if (disp === DISP_CATCH) {
      p.runner?.raiseSignal(sig);
      p.interrupt();
      return;
    }
    const action = defaultAction(sig);
    if (action === 'terminate') this.exitProcess(p, { signal: sig });
    else if (action === 'stop') this.stop(p, sig);
  }

  private stop(p: Process, sig: number): void {
    if (p.stopped) return;
    p.stopped = sig;
    p.stopReported = false;
    const parent = this.procs.get(p.ppid);
    if (parent && parent.alive) {
      parent.childChanged.notify();
      if (parent.dispositions[SIG.CHLD] === DISP_CATCH) this.signal(parent, SIG.CHLD);
    }
  }

  private resume(p: Process): void {
    if (!p.stopped) return;
    p.stopped = 0;
    p.stopReported = true;
    for (const run of p.deferred.splice(0)) run();
  }

  /** Deliver to every live member of a process group; ESRCH if none. */
  signalGroup(pgid: number, sig: number): void {
    const members = this.liveProcesses().filter((p) => p.pgid === pgid);
    if (members.length === 0) fail(Errno.ESRCH);
    for (const p of members) this.signal(p, sig);
  }

  /** A sink that kills its writer when the output limit is passed. */
  outputSink(onData: (d: Uint8Array) => void, owner: () => Process | undefined): SinkFile {
    const limit = this.limits.outputBytes;
    return new SinkFile(onData, limit, () => {
      const p = owner();
      if (!p || !p.alive) return;
      this.writeMessage(p, `sandglass: killed: output limit of ${limit} bytes exceeded\n`);
      this.exitProcess(p, { code: STATUS_KILLED });
    });
  }

  describeExit(info: ExitInfo): string {
    return info.signal !== undefined
      ? `killed by ${signalName(info.signal)}`
      : `exit ${info.code ?? 0}`;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    clearInterval(this.memoryWatch);
    for (const p of [...this.procs.values()]) this.exitProcess(p, { signal: SIG.KILL });
    this.procs.clear();
    for (const f of allFactories(this.runners)) f.dispose();
  }
}

/**
 * The environment a program starts with. Only wasm utilities can ask the
 * kernel for their cwd (adopt_pwd); a shell sets PWD itself like bash, and
 * Python's runner starts from PWD: they get PWD even with an exact env.
 */
function envFor(
  image: Image,
  given: readonly Uint8Array[],
  cwd: BytePath,
  exactEnv: boolean | undefined,
): Uint8Array[] {
  let env = given.slice();
  if (!exactEnv || image.kind !== 'wasm' || image.role === 'shell') {
    env = env.filter((e) => !(e[0] === 0x50 && e[1] === 0x57 && e[2] === 0x44 && e[3] === 0x3d));
    env.push(concatBytes(enc.encode('PWD='), pathToBytes(cwd)));
  }
  return env;
}

function setIntQuit(p: Process, how: IntQuit | undefined): void {
  if (how === undefined || how === 'inherit') return;
  const disp = how === 'ignore' ? DISP_IGNORE : 0;
  p.dispositions[SIG.INT] = disp;
  p.dispositions[SIG.QUIT] = disp;
}

function memoryOf(p: Process): number {
  return p.runner?.memoryBytes() ?? 0;
}

function mib(bytes: number): number {
  return Math.round(bytes / 1048576);
}

export function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
