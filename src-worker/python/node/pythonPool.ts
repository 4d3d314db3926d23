/**
 * Interpreter workers, booted ahead of need. Nothing is loaded until the
 * first python3 of the engine: that one waits for a cold boot, and from then
 * on the pool keeps `size` booted interpreters ready, refilling in the
 * background as processes take them. An interpreter (a Pyodide instance in a
 * realm of its own) runs one process: nothing leaks from one python3 to the
 * next. When the process exited and the pool wants an interpreter, its worker
 * thread is recycled: it boots a new interpreter in a new realm, which skips
 * a thread's start and compiles nothing (V8 keeps the scripts' compiled code
 * per thread); otherwise the worker ends. A process that finds no booted
 * interpreter waits for the first one to finish booting, whichever worker
 * boots it (a recycled worker's boot is 2-3x faster than a new thread's
 * first). Shared by all sandboxes of the engine, reference counted like the
 * wasm pool.
 */
import { Worker } from 'node:worker_threads';
import { engineEntry } from '../../proc/node/entryPath.js';
import { loadRuntime, type PythonRuntime } from '../resources.js';
import type {
  PythonModuleMessage,
  PythonRecycleMessage,
  PythonRunMessage,
  PythonSetupMessage,
  PythonWorkerMessage,
} from './messages.js';

/** A python3 process as the pool runs it: primitives and shared buffers only (they cross into the realm). */
export interface PythonProcess {
  /** The job (argv, env, cwd, memory limit) as JSON text. */
  readonly job: string;
  /** The process's syscall channel (its server is running). */
  readonly channel: SharedArrayBuffer;
  /** Int32 word 0: a signal number to raise in the interpreter (Pyodide's interrupt buffer). */
  readonly interrupt: SharedArrayBuffer;
  /** The interpreter could not boot, or its worker died while it ran the process. */
  readonly onCrash: (message: string) => void;
}

/** A process's claim on an interpreter: given the first one booted, then run on it. */
export interface Lease {
  readonly process: PythonProcess;
  /**
   * Which boot of its worker thread the process's interpreter was: 1 for a
   * new thread's first, more for a recycled worker's; 0 until given one.
   */
  readonly boot: number;
  /** The process found no booted interpreter and waited for a boot. */
  readonly waited: boolean;
}

interface LeaseState extends Lease {
  boot: number;
  waited: boolean;
  /** The worker whose interpreter was given to the process. */
  slot: Slot | undefined;
  ended: boolean;
}

/** A worker thread and the interpreter it boots or holds now (one after another when recycled). */
interface Slot {
  readonly worker: Worker;
  /** Interpreters booted in this worker so far, the one booting included. */
  boots: number;
  /** The current interpreter's boot time in ms; 0 while it boots. */
  bootMs: number;
  /** Settles when the current interpreter has booted (or failed to). */
  booted: Promise<void>;
  settle: { ok(): void; fail(e: Error): void };
  /** The process the current interpreter was given to. */
  lease: LeaseState | undefined;
  /** Its process said done (the realm ran out of work). */
  done: boolean;
  onDone: (() => void) | undefined;
  gone: boolean;
}

export interface PythonPoolOptions {
  /** Booted interpreters kept ready once Python has been used. */
  readonly size: number;
  readonly dir?: string;
  /** Boot the next interpreter in an exited process's worker (default true; false: a new worker each). */
  readonly recycle?: boolean;
  /** Keep one more interpreter booting while processes find the pool drained (default true; see `burst`). */
  readonly burst?: boolean;
  /** A process that runs this long gets its pool refilled before it ends (default REFILL_AFTER_MS). */
  readonly refillAfterMs?: number;
}

let live = 0;
let started = 0;
let recycled = 0;

/** A process that runs this long gets its pool refilled before it ends. */
const REFILL_AFTER_MS = 500;
/** Interpreters one worker boots before it is replaced (bounds whatever a thread may accumulate). */
const BOOTS_PER_WORKER = 64;
/** How long an ended process's worker may take to say done before it is ended instead of recycled. */
const DONE_WAIT_MS = 2000;
/**
 * Python processes come in bursts (a script's loop, an agent's tool calls):
 * once one had to wait for a boot, the pool keeps this many interpreters more
 * than its size (booting on the other core) until no process has found it
 * empty for BURST_MS; then the extra ones are ended.
 */
const BURST_EXTRA = 1;
const BURST_MS = 3000;

export class PythonPool {
  /** Workers whose interpreter is booted or booting and given to no process, oldest first. */
  private ready: Slot[] = [];
  /** Processes waiting for an interpreter, oldest first. */
  private waiting: LeaseState[] = [];
  private used = false;
  private refs = 0;
  private disposed = false;
  private runtime: PythonRuntime | undefined;
  /** V8's code cache of the realm's scripts, from the first interpreter that booted (if the build's was not taken). */
  private codeCache: Uint8Array[] | undefined;
  /** The tiny wasm modules the first interpreter's realm compiled at boot, for every later worker. */
  private helpers: PythonSetupMessage['helpers'] | undefined;
  /** An interpreter has booted (the engine's first boot is over). */
  private booted = false;
  private readonly slots = new Set<Slot>();
  /** Workers whose process exited, waiting for its done to be recycled (they count as refills). */
  private readonly recycling = new Set<Slot>();
  /** Refills due for processes that run (see `run`). */
  private readonly refills = new Map<LeaseState, NodeJS.Timeout>();
  /** Until when the pool keeps BURST_EXTRA more interpreters (0: no burst), and the timer that trims them. */
  private burstUntil = 0;
  private burstEnd: NodeJS.Timeout | undefined;

  constructor(readonly options: PythonPoolOptions = { size: 1 }) {}

  private static shared: PythonPool | undefined;

  /** The engine-wide pool; pair with `unref()`. Loads nothing until first used. */
  static acquireShared(): PythonPool {
    if (!PythonPool.shared || PythonPool.shared.disposed) {
      const size = Number(process.env.SANDGLASS_PYTHON_POOL ?? 1);
      PythonPool.shared = new PythonPool({
        size: Number.isFinite(size) && size >= 0 ? size : 1,
        recycle: process.env.SANDGLASS_PYTHON_RECYCLE !== '0',
        burst: process.env.SANDGLASS_PYTHON_BURST !== '0',
      });
    }
    PythonPool.shared.refs++;
    return PythonPool.shared;
  }

  /** Number of live interpreter threads (for leak checks). */
  static liveWorkers(): number {
    return live;
  }

  /** Interpreter threads started so far (tests, benchmarks). */
  static workersStarted(): number {
    return started;
  }

  /** Interpreters booted so far in a recycled worker (tests, benchmarks). */
  static recycledBoots(): number {
    return recycled;
  }

  unref(): void {
    if (--this.refs <= 0) this.dispose();
  }

  /** Boot interpreters up to `size` now (a setting may ask for it at start). */
  prefill(): void {
    this.used = true;
    this.fill();
  }

  /**
   * Start workers until the interpreters booting, booted or about to be
   * recycled cover the waiting processes and `keep` more.
   */
  private fill(keep = this.options.size): void {
    while (
      !this.disposed &&
      this.used &&
      this.ready.length + this.recycling.size < keep + this.waiting.length
    ) {
      this.spawn();
    }
  }

  /** Interpreters an exited process's worker may be recycled into (more during a burst). */
  private keep(): number {
    return this.options.size + (Date.now() < this.burstUntil ? BURST_EXTRA : 0);
  }

  /**
   * A process found no booted interpreter (`waited`), or took the last
   * booted one during a burst. The refill boots at once, beside the boot the
   * waiting process waits for (it cannot start before that anyway), and for
   * a while exited processes' workers are recycled into BURST_EXTRA more
   * interpreters than the pool's size, so back-to-back processes find one
   * booted on the other core. The first boot of the engine starts none (a
   * second boot would slow it).
   */
  private burst(waited: boolean): void {
    if (this.options.size === 0 || this.options.burst === false || !this.booted) return;
    if (!waited && Date.now() >= this.burstUntil) return;
    this.burstUntil = Date.now() + BURST_MS;
    clearTimeout(this.burstEnd);
    this.burstEnd = setTimeout(() => this.trim(), BURST_MS + 10);
    this.burstEnd.unref();
    if (waited) this.fill();
  }

  /** The burst is over: end the interpreters beyond the pool's size, those still booting first. */
  private trim(): void {
    if (Date.now() < this.burstUntil) return;
    this.burstUntil = 0;
    this.burstEnd = undefined;
    while (this.ready.length > this.options.size + this.waiting.length) {
      const booting = this.ready.findIndex((s) => s.bootMs === 0);
      const [slot] = this.ready.splice(booting >= 0 ? booting : this.ready.length - 1, 1);
      if (!slot) break;
      void slot.worker.terminate();
    }
  }

  private spawn(): void {
    const entry = engineEntry(new URL('./pythonWorker.ts', import.meta.url), 'pythonWorker');
    // The thread starts (Node's bootstrap, on the other core) while this one loads the runtime's
    // files for the engine's first interpreter; they are sent to it as they are ready.
    const worker = new Worker(entry.url, {
      workerData: entry.workerData ?? {},
      ...(entry.execArgv ? { execArgv: entry.execArgv } : {}),
    });
    let rt: PythonRuntime;
    try {
      rt = this.runtime ??= loadRuntime(this.options.dir);
    } catch (e) {
      void worker.terminate();
      throw e;
    }
    const cache = this.codeCache;
    const setup: PythonSetupMessage = {
      type: 'setup',
      scripts: cache ? rt.scripts.map((s, i) => ({ ...s, cache: cache[i] })) : rt.scripts,
      wantCodeCache: !cache,
      wantHelpers: !this.helpers,
      files: rt.files,
      boot: rt.boot,
      helpers: this.helpers ?? [],
    };
    worker.postMessage(setup);
    live++;
    started++;
    worker.unref();
    const slot: Slot = {
      worker,
      boots: 0,
      bootMs: 0,
      booted: Promise.resolve(),
      settle: { ok() {}, fail() {} },
      lease: undefined,
      done: false,
      onDone: undefined,
      gone: false,
    };
    this.nextBoot(slot);
    this.slots.add(slot);
    this.ready.push(slot);
    rt.module.then(
      (module) => {
        const m: PythonModuleMessage = { type: 'module', module };
        if (!slot.gone) worker.postMessage(m);
      },
      (e: unknown) => this.lost(slot, `python: cannot compile pyodide.asm.wasm: ${String(e)}`),
    );
    worker.on('error', (e: Error) => this.lost(slot, `python worker error: ${e.message}`));
    worker.on('exit', () => this.lost(slot, 'python worker exited'));
    worker.on('message', (m: PythonWorkerMessage) => {
      if (m.type === 'ready') {
        slot.bootMs = m.bootMs;
        this.booted = true;
        this.codeCache ??= m.codeCache;
        this.helpers ??= m.helpers;
        slot.settle.ok();
        this.serve(slot);
      } else if (m.type === 'failed') {
        this.lost(slot, `python failed to start: ${m.message}`);
        void worker.terminate();
      } else if (m.type === 'done') {
        slot.done = true;
        slot.onDone?.();
      }
    });
  }

  /** `slot` starts booting its next interpreter (its first, or the next one when recycled). */
  private nextBoot(slot: Slot): void {
    slot.boots++;
    slot.bootMs = 0;
    slot.lease = undefined;
    slot.done = false;
    slot.booted = new Promise<void>((ok, fail) => (slot.settle = { ok, fail }));
    slot.booted.catch(() => {});
  }

  /** `slot`'s interpreter booted: the oldest waiting process gets it. */
  private serve(slot: Slot): void {
    // (A burst's extra interpreter may have been trimmed while it booted.)
    if (!this.ready.includes(slot)) return;
    const lease = this.waiting.shift();
    if (!lease) return;
    this.ready = this.ready.filter((s) => s !== slot);
    this.give(slot, lease);
  }

  /** Run `lease`'s process on `slot`'s booted interpreter. */
  private give(slot: Slot, lease: LeaseState): void {
    slot.lease = lease;
    lease.slot = slot;
    lease.boot = slot.boots;
    const p = lease.process;
    const m: PythonRunMessage = {
      type: 'run',
      job: p.job,
      channel: p.channel,
      interrupt: p.interrupt,
    };
    slot.worker.postMessage(m);
    const timer = setTimeout(
      () => this.refill(lease),
      this.options.refillAfterMs ?? REFILL_AFTER_MS,
    );
    timer.unref();
    this.refills.set(lease, timer);
  }

  /** `slot`'s worker is gone (or its boot failed): whatever it held or booted is lost. */
  private lost(slot: Slot, message: string): void {
    if (slot.gone) return;
    slot.gone = true;
    live--;
    this.slots.delete(slot);
    this.recycling.delete(slot);
    const wasReady = this.ready.includes(slot);
    this.ready = this.ready.filter((s) => s !== slot);
    slot.settle.fail(new Error(message));
    const lease = slot.lease;
    if (lease && !lease.ended) {
      lease.ended = true;
      lease.process.onCrash(message);
    } else if (wasReady && this.ready.length + this.recycling.size < this.waiting.length) {
      // A boot failed and nothing else boots for the oldest waiting process: it fails (a
      // broken runtime must not be retried forever).
      const waiter = this.waiting.shift();
      if (waiter) {
        waiter.ended = true;
        waiter.process.onCrash(message);
      }
    }
    this.fill(0);
  }

  /**
   * Start a process on an interpreter: at once on a booted one, else on the
   * first to finish booting. The pool refills when the process ends, or once
   * it has run for REFILL_AFTER_MS: a boot started at once would compete with
   * the process's start (and with a first, cold boot) for the cores and the
   * engine thread that serves its syscalls.
   */
  start(process: PythonProcess): Lease {
    if (this.disposed) throw new Error('python pool disposed');
    this.used = true;
    const lease: LeaseState = { process, boot: 0, waited: false, slot: undefined, ended: false };
    const i = this.ready.findIndex((s) => s.bootMs > 0);
    const slot = i >= 0 ? this.ready.splice(i, 1)[0] : undefined;
    if (slot) this.give(slot, lease);
    else {
      lease.waited = true;
      this.waiting.push(lease);
      // Boots for every waiting process: those under way, the workers of exited processes.
      try {
        this.fill(0);
      } catch (e) {
        this.waiting = this.waiting.filter((w) => w !== lease);
        throw e;
      }
    }
    if (!this.ready.some((s) => s.bootMs > 0)) this.burst(!slot);
    return lease;
  }

  private refill(lease: LeaseState): void {
    clearTimeout(this.refills.get(lease));
    this.refills.delete(lease);
    this.fill();
  }

  /**
   * The process ended: it was killed (`exited` false: its worker ends with
   * it) or exited. An exited one's worker is recycled into the refill once it
   * says done, if the pool wants an interpreter then. A process killed while
   * it waited for an interpreter leaves the queue.
   */
  end(given: Lease, exited = false): void {
    const lease = given as LeaseState;
    if (lease.ended) return;
    lease.ended = true;
    const slot = lease.slot;
    if (!slot) {
      this.waiting = this.waiting.filter((w) => w !== lease);
      return;
    }
    slot.lease = undefined;
    if (
      !exited ||
      this.options.recycle === false ||
      slot.gone ||
      slot.boots >= BOOTS_PER_WORKER ||
      this.disposed
    ) {
      // Once the EXIT reply has reached the worker.
      setImmediate(() => {
        void slot.worker.terminate();
        this.refill(lease);
      });
      return;
    }
    clearTimeout(this.refills.get(lease));
    this.refills.delete(lease);
    this.recycling.add(slot);
    const decide = (): void => {
      slot.onDone = undefined;
      if (!this.recycling.delete(slot)) return;
      if (
        slot.done &&
        !slot.gone &&
        !this.disposed &&
        this.ready.length < this.keep() + this.waiting.length
      ) {
        // The refill (or the boot a waiting process gets: then the pool refills when that
        // process ends or has run a while, not beside its boot).
        this.recycle(slot);
      } else {
        void slot.worker.terminate();
        this.fill();
      }
    };
    if (slot.done) {
      setImmediate(decide);
      return;
    }
    const waited = setTimeout(decide, DONE_WAIT_MS);
    waited.unref();
    slot.onDone = (): void => {
      clearTimeout(waited);
      decide();
    };
  }

  /** Boot the next interpreter in `slot`'s worker, in a new realm, as a refill. */
  private recycle(slot: Slot): void {
    recycled++;
    this.nextBoot(slot);
    this.ready.push(slot);
    const m: PythonRecycleMessage = { type: 'recycle' };
    slot.worker.postMessage(m);
  }

  /** Interpreters waiting for a process, booted or booting (tests). */
  readyCount(): number {
    return this.ready.length;
  }

  /** Resolves when `size` interpreters are booted (benchmarks, tests). */
  async whenReady(): Promise<void> {
    this.prefill();
    // An interpreter may end while booting without the pool failing (a burst's extra one is
    // trimmed, which takes longer than its boot only on a loaded machine): wait for the rest.
    for (let attempt = 0; ; attempt++) {
      // A worker being recycled becomes a ready interpreter (or is replaced) once its process says done.
      while (this.recycling.size > 0 && !this.disposed) await new Promise((r) => setTimeout(r, 5));
      this.fill();
      const waited = await Promise.allSettled(this.ready.map((s) => s.booted));
      const failed = waited.find((r) => r.status === 'rejected');
      if (!failed || this.disposed) return;
      if (attempt >= 2) throw failed.reason;
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const t of this.refills.values()) clearTimeout(t);
    this.refills.clear();
    clearTimeout(this.burstEnd);
    for (const slot of this.slots) void slot.worker.terminate();
    this.recycling.clear();
    this.ready = [];
    for (const lease of this.waiting) {
      lease.ended = true;
      lease.process.onCrash('python pool disposed');
    }
    this.waiting = [];
  }

  static async drained(timeoutMs = 5000): Promise<boolean> {
    const end = Date.now() + timeoutMs;
    while (live > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
    return live === 0;
  }
}
