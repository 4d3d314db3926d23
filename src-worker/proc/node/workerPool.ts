/**
 * A small pool of process worker threads, sized for two cores: a couple of
 * warm idle workers, more created on demand, extra idle ones trimmed after a
 * while. A worker that ran a killed program is terminated, never reused.
 * Jobs are messages with a `type` the worker's entry understands (wasm
 * `start` by default). The default pool is shared by all live sandboxes
 * (reference counted) so sandbox creation stays cheap; the last `unref()`
 * terminates every worker.
 */
import { Worker } from 'node:worker_threads';
import { workerEntry, type WorkerEntry } from './entryPath.js';
import type { WorkerJob } from './messages.js';
import { sendJob } from './workerChannels.js';

export interface PoolOptions {
  /** Idle workers kept ready. */
  readonly warm: number;
  /** Idle workers beyond `warm` are ended after this long. */
  readonly idleMs: number;
  /**
   * Start a worker whenever a lease leaves fewer than `warm` idle (default
   * true). A one-shot CLI run sets false: after the first warm one, workers
   * start when a spawn needs one and stay for reuse, so a script that spawns
   * nothing pays for one thread, not two.
   */
  readonly refill?: boolean;
  /**
   * The script each worker runs (default: `workerEntry.ts`, which runs wasm
   * `start` jobs). A pool for another kind of guest passes its own entry; it
   * must post `{ type: 'ready' }` once booted and `{ type: 'fatal', message }`
   * for a job it cannot run.
   */
  readonly entry?: () => WorkerEntry;
  /** A worker booted before the pool existed, taken as its first (see `PrestartedWorker`). */
  readonly prestarted?: PrestartedWorker;
}

/**
 * A process worker started ahead of its pool: bin/sandglass.mjs boots one
 * from the default entry while it checks the build and loads the CLI (a
 * thread's bootstrap is the longest step of a cold `run`). It listens for
 * the worker's first messages until the pool takes it over.
 */
export interface PrestartedWorker {
  readonly worker: Worker;
  /** Its `ready` message came before the pool took it. */
  readonly booted: boolean;
  /** It failed or exited before the pool took it. */
  readonly gone: boolean;
}

/** A worker running one job; `onCrash` fires if the thread dies unexpectedly. */
export interface Lease {
  readonly worker: Worker;
  onCrash: ((message: string) => void) | undefined;
}

let live = 0;

export class WorkerPool {
  private idle: Worker[] = [];
  private leases = new Map<Worker, Lease>();
  private refs = 0;
  private disposed = false;
  private trimTimer: NodeJS.Timeout | undefined;
  private readonly booted = new WeakSet<Worker>();
  private bootWaiters: (() => void)[] = [];
  private prestarted: PrestartedWorker | undefined;

  constructor(readonly options: PoolOptions = { warm: 2, idleMs: 10_000 }) {
    this.prestarted = options.prestarted;
  }

  /** Number of live worker threads across all pools (for leak checks). */
  static liveWorkers(): number {
    return live;
  }

  private static shared: WorkerPool | undefined;

  /**
   * The engine-wide pool; pair with `unref()`. `options` apply when this call
   * creates it (a one-shot CLI run wants one warm worker, not two).
   */
  static acquireShared(options?: PoolOptions): WorkerPool {
    if (!WorkerPool.shared || WorkerPool.shared.disposed)
      WorkerPool.shared = new WorkerPool(options);
    else if (options?.prestarted) void options.prestarted.worker.terminate();
    WorkerPool.shared.refs++;
    WorkerPool.shared.prewarm();
    return WorkerPool.shared;
  }

  unref(): void {
    if (--this.refs <= 0) this.dispose();
  }

  prewarm(): void {
    while (!this.disposed && this.idle.length < this.options.warm) this.idle.push(this.create());
  }

  private create(): Worker {
    const pre = this.prestarted;
    this.prestarted = undefined;
    if (pre?.gone === false) return this.watch(pre.worker, pre.booted);
    const entry = (this.options.entry ?? workerEntry)();
    const w = new Worker(entry.url, {
      ...(entry.workerData ? { workerData: entry.workerData } : {}),
      ...(entry.execArgv ? { execArgv: entry.execArgv } : {}),
    });
    return this.watch(w, false);
  }

  /** Counts `w` live and follows its messages and end. */
  private watch(w: Worker, booted: boolean): Worker {
    if (booted) this.booted.add(w);
    live++;
    let gone = false;
    const onGone = (message: string): void => {
      if (gone) return;
      gone = true;
      live--;
      this.idle = this.idle.filter((x) => x !== w);
      const lease = this.leases.get(w);
      this.leases.delete(w);
      lease?.onCrash?.(message);
    };
    w.on('error', (e: Error) => onGone(`worker error: ${e.message}`));
    w.on('exit', () => onGone('worker exited'));
    w.on('message', (m: { type: string; message?: string }) => {
      if (m.type === 'ready') {
        this.booted.add(w);
        for (const f of this.bootWaiters.splice(0)) f();
      } else if (m.type === 'fatal') {
        const lease = this.leases.get(w);
        lease?.onCrash?.(m.message ?? 'worker refused the job');
      }
    });
    // After the listeners (a first 'message' listener refs the worker's
    // port again): an idle worker holds nothing, a leased one holds the
    // process (`run`), and so does waiting for boots (`whenWarm`).
    w.unref();
    return w;
  }

  /** Resolves once `warm` idle workers have finished booting (benchmarks and timing tests). */
  async whenWarm(): Promise<void> {
    for (;;) {
      this.prewarm();
      if (this.disposed || this.idle.filter((w) => this.booted.has(w)).length >= this.options.warm)
        return;
      const booting = this.idle.filter((w) => !this.booted.has(w));
      for (const w of booting) w.ref();
      await new Promise<void>((r) => this.bootWaiters.push(r));
      for (const w of booting) if (!this.leases.has(w)) w.unref();
    }
  }

  /**
   * Start a job on an idle worker (or a new one): a message, or a function
   * that hands the chosen worker its job itself (see `startWasm`).
   */
  run(job: WorkerJob | ((worker: Worker) => void)): Lease {
    if (this.disposed) throw new Error('worker pool disposed');
    // Prefer a worker that has finished booting, the most recently used
    // first: its caches (modules, memory, code) are the warmest.
    let i = this.idle.length - 1;
    while (i >= 0 && !this.booted.has(this.idle[i] as Worker)) i--;
    const w = i >= 0 ? (this.idle.splice(i, 1)[0] as Worker) : (this.idle.pop() ?? this.create());
    const lease: Lease = { worker: w, onCrash: undefined };
    this.leases.set(w, lease);
    // A running job keeps the process alive: the kernel side only waits with
    // Atomics.waitAsync, which holds nothing, so a one-shot CLI could
    // otherwise end mid-command (exit 13, "unsettled top-level await").
    w.ref();
    if (typeof job === 'function') job(w);
    else sendJob(w, job);
    // Keep the warm set topped up off the spawn path.
    if (this.options.refill !== false && this.idle.length < this.options.warm)
      setImmediate(() => this.prewarm());
    return lease;
  }

  /** The job ended normally: the worker goes back to the idle set. */
  release(lease: Lease): void {
    lease.onCrash = undefined;
    if (!this.leases.delete(lease.worker)) return;
    lease.worker.unref();
    if (this.disposed) {
      void lease.worker.terminate();
      return;
    }
    this.idle.push(lease.worker);
    this.scheduleTrim();
  }

  /** The job was killed: end the thread (and its instance) for good. */
  kill(lease: Lease): void {
    lease.onCrash = undefined;
    this.leases.delete(lease.worker);
    void lease.worker.terminate();
  }

  private scheduleTrim(): void {
    if (this.trimTimer || this.idle.length <= this.options.warm) return;
    this.trimTimer = setTimeout(() => {
      this.trimTimer = undefined;
      while (this.idle.length > this.options.warm) void this.idle.shift()?.terminate();
    }, this.options.idleMs);
    this.trimTimer.unref();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.trimTimer) clearTimeout(this.trimTimer);
    void this.prestarted?.worker.terminate();
    this.prestarted = undefined;
    for (const w of this.idle) void w.terminate();
    for (const w of this.leases.keys()) void w.terminate();
    this.idle = [];
    this.leases.clear();
  }

  /** Resolves once every worker thread of every pool has exited. */
  static async drained(timeoutMs = 5000): Promise<boolean> {
    const end = Date.now() + timeoutMs;
    while (live > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
    return live === 0;
  }
}
