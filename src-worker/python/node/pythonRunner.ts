/**
 * Runs a python3 process: takes an interpreter from the pool, serves its
 * syscall channel for the kernel process, and hands it the job (argv, env,
 * cwd as text). Signals the program catches (SIGINT) go to Pyodide's
 * interrupt word, which raises KeyboardInterrupt; ending it terminates the
 * worker. Like WasmRunner, it only starts, signals and ends the process.
 * `PythonRunnerFactory` is the kernel's factory for `python` images.
 */
import { ChannelServer, type SyscallHandler } from '../../channel/server.js';
import { ChannelView } from '../../channel/layout.js';
import type { PythonImage } from '../../programs/image.js';
import type { ProcessRunner, RunnerFactory } from '../../proc/runner.js';
import { PythonPool, type Lease } from './pythonPool.js';

export interface PythonJob {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** Bytes the interpreter's heap may grow to (Python raises MemoryError past it). */
  readonly memoryLimit: number;
}

export class PythonRunner implements ProcessRunner {
  private readonly server: ChannelServer;
  /** Pyodide checks this word between bytecodes and raises the signal's handler (SIGINT: KeyboardInterrupt). */
  private readonly interrupt = new Int32Array(new SharedArrayBuffer(4));
  /** The pool's claim for this process (tests read which boot served it). */
  readonly lease: Lease;
  private done = false;

  constructor(
    private readonly pool: PythonPool,
    job: PythonJob,
    handler: SyscallHandler,
    onCrash: (message: string) => void,
    stamp?: (words: Int32Array) => void,
  ) {
    const channel = ChannelView.create().sab;
    this.server = new ChannelServer(new ChannelView(channel), handler, stamp);
    this.server.start();
    // Served by the first interpreter booted (a signal raised meanwhile waits in its word).
    this.lease = pool.start({
      job: JSON.stringify(job),
      channel,
      interrupt: this.interrupt.buffer as SharedArrayBuffer,
      onCrash: (m) => {
        if (!this.done) onCrash(m);
      },
    });
  }

  raiseSignal(sig: number): void {
    this.server.raiseSignal(sig);
    Atomics.store(this.interrupt, 0, sig);
    Atomics.notify(this.interrupt, 0);
  }

  memoryBytes(): number {
    return this.server.guestMemoryBytes();
  }

  terminate(): void {
    if (this.done) return;
    this.done = true;
    this.server.dispose();
    this.pool.end(this.lease);
  }

  finish(): void {
    if (this.done) return;
    this.done = true;
    // The pool learns at once that this worker is free for the next interpreter (a python3 that
    // starts next can wait for its boot); it recycles or ends it once the EXIT reply reached it.
    this.pool.end(this.lease, true);
    setImmediate(() => this.server.dispose());
  }
}

const dec = new TextDecoder();

/** Starts python3 processes on the engine-wide interpreter pool, taken on the first one. */
export class PythonRunnerFactory implements RunnerFactory<PythonImage> {
  private pool: PythonPool | undefined;
  private disposed = false;

  constructor(private readonly given?: PythonPool) {}

  start(
    image: PythonImage,
    env: Uint8Array[],
    handler: SyscallHandler,
    onCrash: (message: string) => void,
    stamp?: (words: Int32Array) => void,
  ): ProcessRunner {
    if (this.disposed) throw new Error('python runner factory disposed');
    this.pool ??= this.given ?? PythonPool.acquireShared();
    const vars: Record<string, string> = {};
    for (const e of env) {
      const s = dec.decode(e);
      const eq = s.indexOf('=');
      if (eq > 0) vars[s.slice(0, eq)] = s.slice(eq + 1);
    }
    // The kernel sets PWD to the process's cwd in the final environment.
    const job: PythonJob = {
      argv: image.argv.map((a) => dec.decode(a)),
      env: vars,
      cwd: vars['PWD'] ?? '/',
      memoryLimit: image.memoryBytes,
    };
    return new PythonRunner(this.pool, job, handler, onCrash, stamp);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.pool && !this.given) this.pool.unref();
  }
}
