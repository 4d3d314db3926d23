/**
 * Interpreter workers, booted ahead of need. Nothing is loaded until the
 * first python3 of the engine: that one waits for a cold boot, and from then
 * on the pool keeps `size` booted interpreters ready, refilling in the
 * background as processes take them. An interpreter (a Pyodide instance in a
 * realm of its own) runs one process: nothing leaks from one python3 to the
 * next. When the process exited and the pool wants an interpreter, its worker
 * thread is recycled: it boots a new interpreter in a new realm, which skips
 * a thread's start and compiles nothing (V8 keeps the scripts' compiled code
 * per thread); otherwise the worker ends. Shared by all sandboxes of the
 * engine, reference counted like the wasm pool.
 */
import { Worker } from 'node:worker_threads';
import { ChannelView } from '../../channel/layout.js';
import { engineEntry } from '../../proc/node/entryPath.js';
import { loadRuntime, type PythonRuntime } from '../resources.js';
import type {
  PythonModuleMessage,
  PythonRecycleMessage,
  PythonRunMessage,
  PythonSetupMessage,
  PythonWorkerData,
  PythonWorkerMessage,
} from './messages.js';

/** A booted (or booting) interpreter, in its worker, with its channel and interrupt word. */
export interface Interpreter {
  readonly worker: Worker;
  readonly channel: SharedArrayBuffer;
  readonly interrupt: Int32Array;
  /** Resolves when booted; rejects if the boot failed or the worker died. */
  readonly ready: Promise<void>;
  /** Boot time in ms once ready. */
  bootMs: number;
  /** Called if the worker dies while running a process. */
  onCrash: ((message: string) => void) | undefined;
  /** Called when the worker says its process is done (after EXIT). */
  onDone: (() => void) | undefined;
}

/** A worker thread and the interpreter it holds now (one after another when recycled). */
interface Slot {
  readonly worker: Worker;
  current: Interpreter;
  settle: { ok(): void; fail(e: Error): void } | undefined;
  /** The current interpreter's process said done (its realm ran out of work). */
  done: boolean;
  /** Interpreters booted in this worker so far. */
  boots: number;
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
}

let live = 0;
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
  private ready: Interpreter[] = [];
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
  private readonly all = new Set<Interpreter>();
  private readonly slots = new Map<Interpreter, Slot>();
  /** Workers whose process exited, waiting for its done to be recycled (they count as refills). */
  private readonly recycling = new Set<Slot>();
  /** Refills due for interpreters whose process runs (see `run`). */
  private readonly refills = new Map<Interpreter, NodeJS.Timeout>();
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

  private fill(): void {
    while (
      !this.disposed &&
      this.used &&
      this.ready.length + this.recycling.size < this.options.size
    ) {
      this.ready.push(this.spawn());
    }
  }

  /** Interpreters an exited process's worker may be recycled into (more during a burst). */
  private keep(): number {
    return this.options.size + (Date.now() < this.burstUntil ? BURST_EXTRA : 0);
  }

  /**
   * A process was handed an interpreter still booting (`waited`), or took the
   * last booted one during a burst. The refill boots at once, beside the
   * waiting process's boot (it cannot start before that anyway), and for a
   * while exited processes' workers are recycled into BURST_EXTRA more
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
    while (this.ready.length > this.options.size) {
      const booting = this.ready.findIndex((x) => x.bootMs === 0);
      const [it] = this.ready.splice(booting >= 0 ? booting : this.ready.length - 1, 1);
      if (!it) break;
      this.forget(it);
      void it.worker.terminate();
    }
  }

  private spawn(): Interpreter {
    const interrupt = new SharedArrayBuffer(4);
    const data: PythonWorkerData = { interrupt };
    const entry = engineEntry(new URL('./pythonWorker.ts', import.meta.url), 'pythonWorker');
    // The thread starts (Node's bootstrap, on the other core) while this one loads the runtime's
    // files for the engine's first interpreter; they are sent to it as they are ready.
    const worker = new Worker(entry.url, {
      workerData: { ...data, ...(entry.workerData ?? {}) },
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
    worker.unref();
    const slot = this.interpreter(worker, interrupt, undefined);
    const onGone = (message: string): void => {
      if (slot.gone) return;
      slot.gone = true;
      live--;
      const it = slot.current;
      this.forget(it);
      this.ready = this.ready.filter((x) => x !== it);
      slot.settle?.fail(new Error(message));
      it.onCrash?.(message);
    };
    rt.module.then(
      (module) => {
        const m: PythonModuleMessage = { type: 'module', module };
        if (!slot.gone) worker.postMessage(m);
      },
      (e: unknown) => onGone(`python: cannot compile pyodide.asm.wasm: ${String(e)}`),
    );
    worker.on('error', (e: Error) => onGone(`python worker error: ${e.message}`));
    worker.on('exit', () => onGone('python worker exited'));
    worker.on('message', (m: PythonWorkerMessage) => {
      if (m.type === 'ready') {
        slot.current.bootMs = m.bootMs;
        this.booted = true;
        this.codeCache ??= m.codeCache;
        this.helpers ??= m.helpers;
        slot.settle?.ok();
      } else if (m.type === 'failed') {
        slot.settle?.fail(new Error(`python failed to start: ${m.message}`));
        void worker.terminate();
      } else if (m.type === 'done') {
        slot.done = true;
        slot.current.onDone?.();
      }
    });
    return slot.current;
  }

  /** A new interpreter booting in `worker` (its first, or the next one of a recycled slot). */
  private interpreter(worker: Worker, interrupt: SharedArrayBuffer, slot: Slot | undefined): Slot {
    let settle: Slot['settle'];
    const ready = new Promise<void>((ok, fail) => (settle = { ok, fail }));
    ready.catch(() => {});
    const it: Interpreter = {
      worker,
      channel: ChannelView.create().sab,
      interrupt: new Int32Array(interrupt),
      ready,
      bootMs: 0,
      onCrash: undefined,
      onDone: undefined,
    };
    const s: Slot = slot ?? { worker, current: it, settle, done: false, boots: 0, gone: false };
    s.current = it;
    s.settle = settle;
    s.done = false;
    s.boots++;
    this.all.add(it);
    this.slots.set(it, s);
    return s;
  }

  private forget(it: Interpreter): void {
    this.all.delete(it);
    this.slots.delete(it);
  }

  /** An interpreter for a new process: a booted one if any, else one booting now. */
  take(): Interpreter {
    if (this.disposed) throw new Error('python pool disposed');
    this.used = true;
    const i = this.ready.findIndex((x) => x.bootMs > 0);
    const it =
      i >= 0 ? (this.ready.splice(i, 1)[0] as Interpreter) : (this.ready.shift() ?? this.spawn());
    if (!this.ready.some((x) => x.bootMs > 0)) this.burst(i < 0);
    return it;
  }

  /**
   * Start the process on `it` (its channel must be served by then). The pool
   * refills when the process ends, or once it has run for REFILL_AFTER_MS: a
   * boot started at once would compete with the process's start (and with a
   * first, cold boot) for the cores and the engine thread that serves its
   * syscalls.
   */
  run(it: Interpreter, job: string): void {
    const m: PythonRunMessage = { type: 'run', job, channel: it.channel };
    it.worker.postMessage(m);
    const timer = setTimeout(() => this.refill(it), REFILL_AFTER_MS);
    timer.unref();
    this.refills.set(it, timer);
  }

  private refill(it: Interpreter): void {
    clearTimeout(this.refills.get(it));
    this.refills.delete(it);
    this.fill();
  }

  /**
   * End an interpreter: its process was killed (`exited` false: the worker
   * ends with it) or exited. An exited one's worker is recycled into the
   * refill once it says done, if the pool wants an interpreter then.
   */
  end(it: Interpreter, exited = false): void {
    it.onCrash = undefined;
    it.onDone = undefined;
    const slot = this.slots.get(it);
    this.forget(it);
    if (!exited || this.options.recycle === false || !slot || slot.gone || slot.current !== it) {
      void it.worker.terminate();
      setImmediate(() => this.refill(it));
      return;
    }
    clearTimeout(this.refills.get(it));
    this.refills.delete(it);
    this.recycling.add(slot);
    const decide = (): void => {
      it.onDone = undefined;
      if (!this.recycling.delete(slot)) return;
      if (
        slot.done &&
        !slot.gone &&
        !this.disposed &&
        slot.boots < BOOTS_PER_WORKER &&
        this.ready.length < this.keep()
      )
        this.recycle(slot);
      else void it.worker.terminate();
      this.fill();
    };
    if (slot.done) {
      setImmediate(decide);
      return;
    }
    const waited = setTimeout(decide, DONE_WAIT_MS);
    waited.unref();
    it.onDone = (): void => {
      clearTimeout(waited);
      decide();
    };
  }

  /** Boot the next interpreter in `slot`'s worker, in a new realm, as a refill. */
  private recycle(slot: Slot): void {
    recycled++;
    const interrupt = new SharedArrayBuffer(4);
    const it = this.interpreter(slot.worker, interrupt, slot).current;
    this.ready.push(it);
    const m: PythonRecycleMessage = { type: 'recycle', interrupt };
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
      const waited = await Promise.allSettled(this.ready.map((x) => x.ready));
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
    for (const it of this.all) void it.worker.terminate();
    for (const slot of this.recycling) void slot.worker.terminate();
    this.recycling.clear();
    this.ready = [];
  }

  static async drained(timeoutMs = 5000): Promise<boolean> {
    const end = Date.now() + timeoutMs;
    while (live > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
    return live === 0;
  }
}
