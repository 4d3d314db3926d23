/**
 * The Sandbox API: one sandbox = one VFS + one kernel. Spawn programs, run
 * shell commands in sessions, open terminals, read and write files, import
 * host directories, snapshot/restore/fork, stats and change events. Public
 * paths are ordinary JS strings (UTF-8 encoded to the VFS's byte paths).
 */
import { fileURLToPath } from 'node:url';
import type { RunResult, SandboxStats } from '../contract/api.js';
import { NullDevice } from '../dev/devices.js';
import { MemFile } from '../fd/memFile.js';
import type { OpenFile } from '../fd/openFile.js';
import { Errno, KernelError } from '../base/errno.js';
import { Kernel, USER_CRED, type KernelEvent } from '../kernel/kernel.js';
import type { KernelLimits } from '../base/limits.js';
import {
  encodeSessionRequest,
  Session,
  SessionEndedError,
  type SessionCommand,
} from '../kernel/session.js';
import { defaultRunners } from './defaultRunners.js';
import type { Job } from '../proc/job.js';
import type { Process } from '../proc/process.js';
import type { RunnerFactoriesMaker } from '../proc/runner.js';
import { SIG } from '../signal/signals.js';
import {
  pathToUtf8,
  USER_HOME,
  utf8ToPath,
  Vfs,
  type DirEntry,
  type NodeKind,
  type SnapshotId,
  type Stat,
  type VfsEvent,
  type VfsLimits,
} from '../vfs/index.js';
import {
  exportTree,
  importHostDir,
  type ExportResult,
  type ImportOptions,
  type ImportResult,
} from '../vfs/node/index.js';
import { HostStdin } from './hostStreams.js';
import { NetworkGateway, type GatewayOptions } from '../net/gateway.js';
import type { NetworkPolicy } from '../net/policy.js';
import { openTerminal, type Terminal } from './terminal.js';

export interface SandboxOptions {
  readonly limits?: Partial<KernelLimits>;
  readonly vfsLimits?: Partial<VfsLimits>;
  /** Extra environment for every process. */
  readonly env?: Readonly<Record<string, string>>;
  /** Directory with manifest.json and programs. Default: resources/wasm of the repo/app. */
  readonly programsDir?: string;
  readonly hostname?: string;
  /** The program run for sessions (default /bin/sh --sandglass-api). */
  readonly sessionShell?: { readonly path: string; readonly argv: readonly string[] };
  /** Shell for terminals (default /bin/sh -i). */
  readonly terminalShell?: { readonly path: string; readonly argv: readonly string[] };
  /** Runner factories for each kernel (this sandbox's and its forks'); default: wasm on the shared worker pool. */
  readonly runners?: RunnerFactoriesMaker;
  /** The network: policy, gateway options, audit. Default: everything denied. */
  readonly network?: SandboxNetwork;
}

/**
 * How a sandbox reaches the network (docs/network.md): its policy (with
 * onRequest, the approver), the gateway's limits and test seams, the audit
 * sink, and which step a process belongs to.
 */
export interface SandboxNetwork extends Omit<GatewayOptions, 'policy' | 'sandboxId'> {
  readonly policy?: NetworkPolicy;
  /** Names the sandbox in onRequest and the audit. */
  readonly sandboxId?: string;
  readonly stepOf?: (pid: number) => string | null;
}

export type Output = (data: Uint8Array) => void;

/**
 * A command line of a shell session started or ended, as the shell
 * reported it through syscalls (never from output bytes). `session` is the
 * session's name: `default` and named API sessions, a terminal's session
 * name. `state` is the shell's state blob after the command (opaque,
 * versioned: docs/abi.md "Shell state").
 */
export type CommandEvent =
  | { type: 'start'; session: string; command: string; startedAt: number }
  | {
      type: 'end';
      session: string;
      command: string;
      status: number;
      startedAt: number;
      durationMs: number;
      state: Uint8Array;
      /** The shell's working directory after the command (UTF-8), when known. */
      cwd?: string;
    };

export interface SpawnOptions {
  /** Variables added to (or, with `replaceEnv`, replacing) the sandbox environment. */
  readonly env?: Readonly<Record<string, string>>;
  /** When true the process gets exactly `env`, nothing of the sandbox's own. */
  readonly replaceEnv?: boolean;
  readonly cwd?: string;
  /** Bytes or text to feed, 'pipe' for a writable stdin stream, default /dev/null. */
  readonly stdin?: string | Uint8Array | 'pipe';
  readonly stdout?: Output;
  readonly stderr?: Output;
  /** Wall-time limit for this process in ms (default: the sandbox limit). */
  readonly timeoutMs?: number;
}

export interface SpawnedProcess {
  readonly pid: number;
  /** Exit status as a shell reports it (128 + signal when killed by one). */
  wait(): Promise<{ status: number; signal?: number }>;
  kill(sig?: number): void;
  /** Present when spawned with stdin: 'pipe'. */
  readonly stdin?: { write(data: string | Uint8Array): Promise<boolean>; close(): void };
}

export interface RunOptions {
  readonly stdin?: string | Uint8Array;
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  readonly timeoutMs?: number;
  readonly onStdout?: Output;
  readonly onStderr?: Output;
  /** Aborting kills the command (exit 137; its client was stopped or cancelled the call) or drops it while it waits its turn. */
  readonly signal?: AbortSignal;
}

export type { RunResult, SandboxStats };

export interface SandboxSession {
  readonly name: string;
  run(command: string, opts?: RunOptions): Promise<RunResult>;
  close(): void;
}

export type SandboxEvent =
  | {
      readonly type: 'file';
      readonly change: VfsEvent['type'];
      readonly path: string;
      readonly oldPath?: string;
      readonly kind?: NodeKind;
    }
  | KernelEvent;

export interface PublicStat {
  readonly kind: NodeKind;
  readonly mode: number;
  readonly size: number;
  readonly uid: number;
  readonly gid: number;
  readonly nlink: number;
  readonly ino: number;
  readonly atimeMs: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
}

const enc = new TextEncoder();
const dec = new TextDecoder();

/** Longest `restoreSessionStates` waits for busy shells. */
export const RESTORE_WAIT_MS = 5000;

/**
 * Default programs directory: $SANDGLASS_WASM_DIR when set (a developer's
 * private build), else <repo or app root>/resources/wasm.
 */
export function defaultProgramsDir(): string {
  const override = typeof process === 'undefined' ? undefined : process.env.SANDGLASS_WASM_DIR;
  if (override) return override;
  return fileURLToPath(new URL('../../resources/wasm', import.meta.url));
}

function baseEnv(extra?: Readonly<Record<string, string>>): Record<string, string> {
  return {
    HOME: USER_HOME,
    PATH: '/usr/local/bin:/usr/bin:/bin',
    USER: 'user',
    LOGNAME: 'user',
    SHELL: '/bin/sh',
    LANG: 'C.UTF-8',
    ...extra,
  };
}

function envList(
  base: Readonly<Record<string, string>>,
  extra?: Readonly<Record<string, string>>,
): Uint8Array[] {
  const all = { ...base, ...extra };
  return Object.entries(all).map(([k, v]) => enc.encode(`${k}=${v}`));
}

function publicStat(s: Stat): PublicStat {
  return {
    kind: s.kind,
    mode: s.mode,
    size: s.size,
    uid: s.uid,
    gid: s.gid,
    nlink: s.nlink,
    ino: s.ino,
    atimeMs: s.atime,
    mtimeMs: s.mtime,
    ctimeMs: s.ctime,
  };
}

/** Map a KernelError to an Error with a POSIX-style code, for API callers. */
function apiError(e: unknown, what: string): Error {
  if (e instanceof KernelError) {
    const err = new Error(`${what}: ${e.message}`) as Error & { code: string; errno: number };
    err.code = Errno[e.errno] ?? 'EIO';
    err.errno = e.errno;
    return err;
  }
  return e instanceof Error ? e : new Error(String(e));
}

export class Sandbox {
  private readonly kernel: Kernel;
  private env: Record<string, string>;
  private readonly sessionsByName = new Map<string, SandboxSession>();
  private defaultSession: SandboxSession | undefined;
  private unsubscribeVfs: () => void;
  private listeners = new Set<(e: SandboxEvent) => void>();
  private destroyed = false;
  private sessionCounter = 0;
  /** Command lines running in sessions now (by run), for stats. */
  private readonly running = new Map<object, string>();
  /** Every live shell session (API sessions and terminals) by name. */
  private readonly shellSessions = new Map<string, Session>();
  private readonly commandListeners = new Set<(ev: CommandEvent) => void>();
  private terminalCounter = 0;
  /** Restored states for sessions not running then, by name (used once). */
  private deferredStates = new Map<string, Uint8Array>();
  private network: SandboxNetwork;

  private constructor(
    private readonly options: SandboxOptions,
    vfs: Vfs,
    installPrograms: boolean,
  ) {
    this.kernel = new Kernel({
      vfs,
      programsDir: options.programsDir ?? defaultProgramsDir(),
      ...(options.limits ? { limits: options.limits } : {}),
      runners: (options.runners ?? defaultRunners)(),
    });
    if (installPrograms) this.kernel.installPrograms();
    this.env = baseEnv(options.env);
    this.unsubscribeVfs = this.watch(vfs);
    this.kernel.onEvent((e) => this.emit(e));
    this.network = options.network ?? {};
    this.applyNetwork(this.network);
  }

  private applyNetwork(net: SandboxNetwork): void {
    const gateway = new NetworkGateway({
      ...net,
      sandboxId: net.sandboxId ?? 'sandbox',
      ...(net.policy ? { policy: net.policy } : {}),
    });
    this.kernel.network = { gateway, ...(net.stepOf ? { stepOf: net.stepOf } : {}) };
  }

  /** The network settings in force (forks start with the same). */
  get networkSettings(): SandboxNetwork {
    return this.network;
  }

  /**
   * Change the network settings. A new policy (its entries are validated:
   * a bad one throws PolicyError naming it) applies to every later request
   * and redirect hop; the byte budget of the sandbox carries on.
   */
  setNetwork(net: Partial<SandboxNetwork>): void {
    this.live();
    const next = { ...this.network, ...net };
    const onlyPolicy = Object.keys(net).every((k) => k === 'policy');
    if (onlyPolicy) this.kernel.network.gateway.setPolicy(next.policy ?? {});
    else this.applyNetwork(next);
    this.network = next;
  }

  static async create(options: SandboxOptions = {}): Promise<Sandbox> {
    const vfs = Vfs.createDefault({
      ...(options.vfsLimits ? { limits: options.vfsLimits } : {}),
      ...(options.hostname ? { hostname: options.hostname } : {}),
    });
    return new Sandbox(options, vfs, true);
  }

  private watch(vfs: Vfs): () => void {
    return vfs.subscribe((e) => {
      const ev: SandboxEvent = {
        type: 'file',
        change: e.type,
        path: pathToUtf8(e.path),
        ...(e.oldPath !== undefined ? { oldPath: pathToUtf8(e.oldPath) } : {}),
        ...(e.kind !== undefined ? { kind: e.kind } : {}),
      };
      this.emit(ev);
    });
  }

  private emit(e: SandboxEvent): void {
    for (const l of this.listeners) l(e);
  }

  /** Subscribe to file and process events; returns the unsubscribe function. */
  onChange(listener: (e: SandboxEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Aborted on destroy: stops background work (host imports' reads). */
  private readonly disposal = new AbortController();

  private live(): void {
    if (this.destroyed) throw new Error('sandbox destroyed');
  }

  /** The kernel (for the engine layer and tests). */
  get kernelForTests(): Kernel {
    return this.kernel;
  }

  /** The sandbox's file system (byte paths; e.g. for read-only views of snapshots via `vfs.fork(id)`). */
  get vfs(): Vfs {
    return this.kernel.vfs;
  }

  /** Replaces the extra environment for processes, sessions and terminals started from now on. */
  setEnv(env: Readonly<Record<string, string>>): void {
    this.live();
    this.env = baseEnv(env);
  }

  /** Current process limits. */
  get limits(): KernelLimits {
    return this.kernel.limits;
  }

  /**
   * Change process limits for everything started from now on (processes,
   * run() calls, captures). Running processes keep the limits they started
   * with. RangeError for invalid values.
   */
  setLimits(limits: Partial<KernelLimits>): void {
    this.live();
    this.kernel.setLimits(limits);
  }

  // ---- processes ----

  /** Resolves once warm process workers are ready (spawns then start in ~1 ms). */
  warm(): Promise<void> {
    return this.kernel.warm();
  }

  async spawn(
    path: string,
    argv: readonly string[],
    opts: SpawnOptions = {},
  ): Promise<SpawnedProcess> {
    this.live();
    let stdin: OpenFile;
    let hostStdin: HostStdin | undefined;
    if (opts.stdin === 'pipe') {
      hostStdin = new HostStdin();
      stdin = hostStdin.reader;
    } else if (opts.stdin !== undefined) {
      stdin = new MemFile(typeof opts.stdin === 'string' ? enc.encode(opts.stdin) : opts.stdin);
    } else {
      stdin = new NullDevice();
    }
    let proc: Process | undefined;
    const owner = (): Process | undefined => proc;
    const out = opts.stdout ? this.kernel.outputSink(opts.stdout, owner) : new NullDevice();
    const err = opts.stderr ? this.kernel.outputSink(opts.stderr, owner) : new NullDevice();
    try {
      proc = await this.kernel.spawn({
        path: utf8ToPath(path),
        argv: argv.map((a) => enc.encode(a)),
        env: opts.replaceEnv ? envList(opts.env ?? {}) : envList(this.env, opts.env),
        ...(opts.cwd !== undefined ? { cwd: utf8ToPath(opts.cwd) } : {}),
        fds: [
          [0, stdin],
          [1, out],
          [2, err],
        ],
        pgid: 0,
        ...(opts.timeoutMs !== undefined ? { wallTimeMs: opts.timeoutMs } : {}),
      });
    } catch (e) {
      if (stdin.refs === 0) stdin.release();
      throw apiError(e, `spawn ${path}`);
    }
    const p = proc;
    return {
      pid: p.pid,
      wait: async () => {
        const e = await p.exited();
        return e.signal !== undefined
          ? { status: 128 + e.signal, signal: e.signal }
          : { status: e.code ?? 0 };
      },
      kill: (sig = SIG.TERM) => this.kernel.signal(p, sig),
      ...(hostStdin
        ? {
            stdin: {
              write: (d: string | Uint8Array) => (hostStdin as HostStdin).write(d),
              close: () => (hostStdin as HostStdin).close(),
            },
          }
        : {}),
    };
  }

  // ---- sessions ----

  /** Run a command in the default session (a long-lived shell keeping state between commands). */
  run(command: string, opts: RunOptions = {}): Promise<RunResult> {
    // A default session whose shell has died (exit, limit kill) is replaced transparently.
    if (this.defaultSession && this.sessionEnded.get(this.defaultSession)?.()) {
      this.defaultSession.close();
      this.defaultSession = undefined;
    }
    this.defaultSession ??= this.createSession('default');
    return this.defaultSession.run(command, opts);
  }

  private readonly sessionEnded = new WeakMap<SandboxSession, () => boolean>();

  createSession(name?: string): SandboxSession {
    this.live();
    const id = name ?? `session-${++this.sessionCounter}`;
    if (this.sessionsByName.has(id)) throw new Error(`session '${id}' already exists`);
    const state = this.registerShellSession(id);
    const shell = this.options.sessionShell ?? { path: '/bin/sh', argv: ['sh', '--sandglass-api'] };
    const started = this.kernel.spawn({
      path: utf8ToPath(shell.path),
      argv: shell.argv.map((a) => enc.encode(a)),
      env: envList(this.env),
      fds: [
        [0, new NullDevice()],
        [1, new NullDevice()],
        [2, new NullDevice()],
      ],
      pgid: 0,
      session: state,
      wallTimeMs: 0,
    });
    this.forgetWhenDone(state, started);
    const session: SandboxSession = {
      name: id,
      run: (command, opts = {}) =>
        this.runIn(state, started, command, opts).catch((e: unknown) => {
          // Queued behind a command that ended the default shell: run it on a fresh one.
          if (e instanceof SessionEndedError && !e.started && this.defaultSession === session)
            return this.run(command, opts);
          throw e;
        }),
      close: () => {
        this.sessionsByName.delete(id);
        this.unregisterShellSession(state);
        if (this.defaultSession === session) this.defaultSession = undefined;
        void started.then(
          (p) => this.kernel.signal(p, SIG.KILL),
          () => undefined,
        );
      },
    };
    this.sessionsByName.set(id, session);
    this.sessionEnded.set(session, () => state.ended !== undefined);
    return session;
  }

  closeSession(name: string): void {
    this.sessionsByName.get(name)?.close();
  }

  private async runIn(
    state: Session,
    started: Promise<Process>,
    command: string,
    opts: RunOptions,
  ): Promise<RunResult> {
    this.live();
    // Stopped before it began (or retried on a fresh shell after being stopped): never start it.
    if (opts.signal?.aborted)
      throw Object.assign(new Error('the command was stopped'), { code: 'ECANCELED' });
    let shell: Process;
    try {
      shell = await started;
    } catch (e) {
      throw apiError(e, 'cannot start the session shell');
    }
    const t0 = performance.now();
    const runKey = {};
    this.running.set(runKey, command);
    const outParts: Uint8Array[] = [];
    const errParts: Uint8Array[] = [];
    let killedBy: string | undefined;
    let escalate: NodeJS.Timeout | undefined;
    const limitKill = (what: string): void => {
      if (killedBy) return;
      killedBy = what;
      // The command (not the session) is the offender: kill every process it
      // started, orphans and background jobs included, and interrupt the
      // shell; a shell that does not come back is killed too.
      this.kernel.signal(shell, SIG.INT);
      for (const p of job.live()) this.kernel.signal(p, SIG.KILL);
      escalate = setTimeout(() => this.kernel.signal(shell, SIG.KILL), 2000);
      escalate.unref();
    };
    const timeout = opts.timeoutMs ?? this.kernel.limits.wallTimeMs;
    // The deadline also covers what the command leaves running after it returns.
    const onDeadline = (j: Job): void => {
      if (commandRunning) limitKill(`time limit of ${timeout} ms exceeded`);
      else this.kernel.endJob(j);
    };
    const job = this.kernel.createJob(timeout, undefined, onDeadline);
    let commandRunning = true;
    const sink = (parts: Uint8Array[], cb: Output | undefined): OpenFile =>
      this.kernel.outputSink(
        (d) => {
          parts.push(d);
          cb?.(d);
        },
        () => {
          limitKill(`output limit of ${this.kernel.limits.outputBytes} bytes exceeded`);
          return undefined;
        },
      );
    const stdin =
      opts.stdin !== undefined
        ? new MemFile(typeof opts.stdin === 'string' ? enc.encode(opts.stdin) : opts.stdin)
        : new NullDevice();
    const request = encodeSessionRequest(
      enc.encode(command),
      opts.cwd !== undefined ? enc.encode(opts.cwd) : new Uint8Array(0),
      Object.entries(opts.env ?? {}).map(([k, v]) => enc.encode(`${k}=${v}`)),
    );
    const status = await new Promise<number>((resolve, reject) => {
      const onAbort = (): void => {
        // Running: end it like a limit does. Still queued: it never starts.
        if (state.current === cmd) return limitKill('cancelled');
        const at = state.queue.indexOf(cmd);
        if (at >= 0) state.queue.splice(at, 1);
        cmd.reject(
          Object.assign(new Error('command cancelled before it started'), { code: 'ECANCELED' }),
        );
      };
      const settle = (): void => {
        commandRunning = false;
        job.end();
        opts.signal?.removeEventListener('abort', onAbort);
        this.running.delete(runKey);
      };
      const cmd: SessionCommand = {
        command,
        request,
        stdin,
        stdout: sink(outParts, opts.onStdout),
        stderr: sink(errParts, opts.onStderr),
        job,
        resolve: (s) => {
          settle();
          resolve(s);
        },
        reject: (e) => {
          settle();
          reject(e);
        },
      };
      if (opts.signal?.aborted) return onAbort();
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      state.enqueue(cmd);
    });
    if (escalate) clearTimeout(escalate);
    let stderr = dec.decode(joinAll(errParts));
    let finalStatus = status;
    if (killedBy) {
      stderr += `sandglass: killed: ${killedBy}\n`;
      finalStatus = killedBy.startsWith('time') ? 124 : 137;
    }
    return {
      stdout: dec.decode(joinAll(outParts)),
      stderr,
      status: finalStatus,
      durationMs: performance.now() - t0,
    };
  }

  // ---- terminals ----

  /**
   * Open a terminal: a tty with an interactive shell. `session` names its
   * shell session (for `onCommand` and session states); default
   * `terminal-N`. Error if the name is taken.
   */
  async openTerminal(
    opts: { cols?: number; rows?: number; cwd?: string; session?: string } = {},
  ): Promise<Terminal> {
    this.live();
    const shell = this.options.terminalShell ?? { path: '/bin/sh', argv: ['sh', '-i'] };
    const state = this.registerShellSession(opts.session ?? `terminal-${++this.terminalCounter}`);
    const opened = openTerminal(this.kernel, {
      cols: opts.cols ?? 80,
      rows: opts.rows ?? 24,
      path: utf8ToPath(shell.path),
      argv: [...shell.argv],
      env: envList(this.env, { TERM: 'xterm-256color' }),
      ...(opts.cwd !== undefined ? { cwd: utf8ToPath(opts.cwd) } : {}),
      session: state,
    });
    this.forgetWhenDone(
      state,
      opened.then(() => state.process as Process),
    );
    return opened;
  }

  // ---- shell sessions: steps and state ----

  /**
   * Listen to command lines starting and ending in every shell session of
   * this sandbox (API default and named sessions, terminals). Returns the
   * unsubscribe function. Listeners run on the kernel's turn: keep them short.
   */
  onCommand(listener: (ev: CommandEvent) => void): () => void {
    this.commandListeners.add(listener);
    return () => this.commandListeners.delete(listener);
  }

  /** The latest state blob of each live shell session, by session name. */
  sessionStates(): ReadonlyMap<string, Uint8Array> {
    const out = new Map<string, Uint8Array>();
    for (const [name, s] of this.shellSessions) if (!s.ended && s.state) out.set(name, s.state);
    return out;
  }

  /**
   * Put live shell sessions back into saved states: a session named in
   * `states` takes that state, any other one a fresh shell's. A state named
   * for a session not running now is kept for the next session started
   * under that name (the API default session starts at the next `run`). Resolves when
   * every shell has applied its state (or ended). An idle shell applies it
   * at once and redraws its prompt; a terminal running a command has its
   * foreground job interrupted (SIGINT) first; an API session finishes its
   * command first. A shell still busy after `RESTORE_WAIT_MS` (a command
   * ignoring SIGINT) is not waited for: it takes its state when that
   * command line ends.
   */
  async restoreSessionStates(states: ReadonlyMap<string, Uint8Array>): Promise<void> {
    this.live();
    // States of sessions not running now wait for a session of that name
    // (the API default session starts at the next run()).
    this.deferredStates = new Map([...states].filter(([name]) => !this.shellSessions.has(name)));
    const applied: Promise<void>[] = [];
    for (const [name, s] of this.shellSessions) {
      // A shell that never reported a state does not speak the protocol.
      if (s.ended || !s.state) continue;
      const blob = states.get(name) ?? s.initialState;
      if (!blob) continue;
      if (!s.idle) this.interruptForeground(s);
      applied.push(s.requestState(blob));
    }
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, RESTORE_WAIT_MS);
      timer.unref();
    });
    await Promise.race([Promise.all(applied), waited]);
    clearTimeout(timer);
  }

  /**
   * SIGINT to the foreground job of a session's terminal once it has one
   * (a command line just begun may not have started its job yet): checked
   * until the shell is idle again or `RESTORE_WAIT_MS` passes.
   */
  private interruptForeground(s: Session): void {
    const until = performance.now() + RESTORE_WAIT_MS;
    let signalled = -1;
    const tick = (): void => {
      const p = s.process;
      if (!p || s.idle || s.ended || performance.now() > until) return;
      const fg = p.tty?.fgPgrp;
      if (fg === undefined) return;
      if (fg > 0 && fg !== p.pgid && fg !== signalled) {
        signalled = fg;
        try {
          this.kernel.signalGroup(fg, SIG.INT);
        } catch {
          // The job ended meanwhile.
        }
      }
      setTimeout(tick, 20).unref();
    };
    tick();
  }

  private registerShellSession(name: string): Session {
    if (this.shellSessions.has(name)) throw new Error(`session '${name}' already exists`);
    const s = new Session(name);
    s.onStep = (ev) => {
      // The shell's cwd is the kernel's: read it when a command line ends.
      const full: CommandEvent =
        ev.type === 'end' && s.process
          ? { ...ev, session: name, cwd: pathToUtf8(s.process.cwd) }
          : { ...ev, session: name };
      for (const l of this.commandListeners) {
        try {
          l(full);
        } catch {
          // A listener's bug must not reach the shell's syscall.
        }
      }
    };
    this.shellSessions.set(name, s);
    const deferred = this.deferredStates.get(name);
    if (deferred) {
      this.deferredStates.delete(name);
      void s.requestState(deferred);
    }
    return s;
  }

  private unregisterShellSession(s: Session): void {
    if (this.shellSessions.get(s.name) === s) this.shellSessions.delete(s.name);
  }

  /** Drop a session from the table when its shell fails to start or exits. */
  private forgetWhenDone(s: Session, started: Promise<Process>): void {
    started.then(
      (p) => void p.exited().then(() => this.unregisterShellSession(s)),
      () => this.unregisterShellSession(s),
    );
  }

  // ---- files ----

  private fsCall<T>(what: string, path: string, fn: () => T): Promise<T> {
    try {
      this.live();
      return Promise.resolve(fn());
    } catch (e) {
      return Promise.reject(apiError(e, `${what} ${path}`));
    }
  }

  /** Give a node the API just created to the sandbox user (the host acts as root). */
  private adopt(bp: string, existed: boolean): void {
    if (!existed) this.kernel.vfs.chown(bp, USER_CRED.uid, USER_CRED.gid, { follow: false });
  }

  private exists(bp: string): boolean {
    try {
      this.kernel.vfs.lstat(bp);
      return true;
    } catch {
      return false;
    }
  }

  readFile(path: string): Promise<Uint8Array> {
    return this.fsCall('readFile', path, () => this.kernel.vfs.readFile(utf8ToPath(path)));
  }

  writeFile(path: string, data: string | Uint8Array, opts: { mode?: number } = {}): Promise<void> {
    return this.fsCall('writeFile', path, () => {
      const bp = utf8ToPath(path);
      const existed = this.exists(bp);
      this.kernel.vfs.writeFile(
        bp,
        typeof data === 'string' ? enc.encode(data) : data,
        opts.mode !== undefined ? { mode: opts.mode } : {},
      );
      if (opts.mode !== undefined) this.kernel.vfs.chmod(bp, opts.mode);
      this.adopt(bp, existed);
    });
  }

  readDir(path: string): Promise<{ name: string; kind: NodeKind }[]> {
    return this.fsCall('readDir', path, () =>
      this.kernel.vfs
        .readdir(utf8ToPath(path))
        .map((e: DirEntry) => ({ name: pathToUtf8(e.name), kind: e.kind })),
    );
  }

  stat(path: string, opts: { follow?: boolean } = {}): Promise<PublicStat> {
    return this.fsCall('stat', path, () => {
      const bp = utf8ToPath(path);
      return publicStat(
        opts.follow === false ? this.kernel.vfs.lstat(bp) : this.kernel.vfs.stat(bp),
      );
    });
  }

  /** The target of the symlink at `path` (EINVAL when it is not a symlink). */
  readLink(path: string): Promise<string> {
    return this.fsCall('readLink', path, () =>
      pathToUtf8(this.kernel.vfs.readlink(utf8ToPath(path))),
    );
  }

  mkdir(path: string, opts: { recursive?: boolean; mode?: number } = {}): Promise<void> {
    return this.fsCall('mkdir', path, () => {
      const bp = utf8ToPath(path);
      const existed = this.exists(bp);
      if (opts.recursive) this.kernel.vfs.mkdirp(bp, opts.mode ?? 0o755);
      else this.kernel.vfs.mkdir(bp, opts.mode ?? 0o755);
      this.adopt(bp, existed);
    });
  }

  remove(path: string, opts: { recursive?: boolean } = {}): Promise<void> {
    return this.fsCall('remove', path, () =>
      this.removeTree(utf8ToPath(path), opts.recursive === true),
    );
  }

  private removeTree(bp: string, recursive: boolean): void {
    const st = this.kernel.vfs.lstat(bp);
    if (st.kind !== 'dir') return this.kernel.vfs.unlink(bp);
    if (recursive) {
      for (const e of this.kernel.vfs.readdir(bp))
        this.removeTree(`${bp === '/' ? '' : bp}/${e.name}`, true);
    }
    this.kernel.vfs.rmdir(bp);
  }

  rename(from: string, to: string): Promise<void> {
    return this.fsCall('rename', from, () =>
      this.kernel.vfs.rename(utf8ToPath(from), utf8ToPath(to)),
    );
  }

  /**
   * Import a host directory (see vfs/node/hostImport.ts). Files belong to
   * the sandbox's user; contents read in the background by default, and
   * the background reads stop when the sandbox is destroyed.
   */
  async importHostDir(
    hostPath: string,
    path: string,
    opts: Pick<ImportOptions, 'readOnly' | 'contents' | 'recentMs' | 'onProgress' | 'signal'> = {},
  ): Promise<ImportResult> {
    this.live();
    const signal = opts.signal
      ? AbortSignal.any([opts.signal, this.disposal.signal])
      : this.disposal.signal;
    try {
      return await importHostDir(this.kernel.vfs, hostPath, utf8ToPath(path), {
        ...opts,
        signal,
        uid: USER_CRED.uid,
        gid: USER_CRED.gid,
      });
    } catch (e) {
      throw apiError(e, `importHostDir ${hostPath}`);
    }
  }

  /** Copy a VFS subtree (or file) out to a host directory that is new or empty. */
  async exportTree(path: string, hostPath: string): Promise<ExportResult> {
    this.live();
    try {
      return await exportTree(this.kernel.vfs, utf8ToPath(path), hostPath);
    } catch (e) {
      throw apiError(e, `exportTree ${path}`);
    }
  }

  // ---- snapshots ----

  snapshot(): SnapshotId {
    this.live();
    return this.kernel.vfs.snapshot();
  }

  restore(id: SnapshotId): void {
    this.live();
    try {
      this.kernel.vfs.restore(id);
    } catch (e) {
      throw apiError(e, `restore ${id}`);
    }
  }

  /** A new sandbox sharing this one's current tree, or snapshot `at`'s (O(1)); no processes are copied. */
  async fork(at?: SnapshotId): Promise<Sandbox> {
    this.live();
    return new Sandbox({ ...this.options, network: this.network }, this.kernel.vfs.fork(at), false);
  }

  stats(): SandboxStats {
    const u = this.kernel.vfs.usage();
    const now = performance.now();
    const running = [...this.running.values()];
    return {
      files: u.nodes,
      bytes: u.bytes,
      running: running[running.length - 1] ?? null,
      processes: this.kernel.liveProcesses().map((p) => {
        const wall = (p.endedAt ?? now) - p.startedAt;
        return {
          pid: p.pid,
          ppid: p.ppid,
          name: p.name,
          argv: p.argv.map((a) => dec.decode(a)),
          wallMs: wall,
          cpuMs: Math.max(0, wall - p.blockedMs),
          memoryBytes: p.runner?.memoryBytes() ?? 0,
        };
      }),
    };
  }

  /** Terminate every process, free workers and channels. Idempotent. */
  async destroy(): Promise<void> {
    if (this.destroyed) return;
    this.destroyed = true;
    this.disposal.abort();
    for (const s of [...this.sessionsByName.values()]) s.close();
    this.unsubscribeVfs();
    this.listeners.clear();
    this.commandListeners.clear();
    this.kernel.dispose();
  }
}

function joinAll(parts: readonly Uint8Array[]): Uint8Array {
  const n = parts.reduce((s, p) => s + p.length, 0);
  const out = new Uint8Array(n);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}
