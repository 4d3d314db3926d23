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
import { PythonPool, type Interpreter } from './pythonPool.js';

export interface PythonJob {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** Bytes the interpreter's heap may grow to (Python raises MemoryError past it). */
  readonly memoryLimit: number;
}

export class PythonRunner implements ProcessRunner {
  private readonly server: ChannelServer;
  private readonly it: Interpreter;
  private done = false;

  constructor(
    private readonly pool: PythonPool,
    job: PythonJob,
    handler: SyscallHandler,
    onCrash: (message: string) => void,
    stamp?: (words: Int32Array) => void,
  ) {
    this.it = pool.take();
    this.server = new ChannelServer(new ChannelView(this.it.channel), handler, stamp);
    this.server.start();
    this.it.onCrash = (m) => {
      if (!this.done) onCrash(m);
    };
    const text = JSON.stringify(job);
    this.it.ready.then(
      () => {
        if (!this.done) pool.run(this.it, text);
      },
      (e: unknown) => {
        if (!this.done) onCrash(e instanceof Error ? e.message : String(e));
      },
    );
  }

  raiseSignal(sig: number): void {
    this.server.raiseSignal(sig);
    // Pyodide checks this word between bytecodes and raises the signal's handler (SIGINT: KeyboardInterrupt).
    Atomics.store(this.it.interrupt, 0, sig);
    Atomics.notify(this.it.interrupt, 0);
  }

  memoryBytes(): number {
    return this.server.guestMemoryBytes();
  }

  terminate(): void {
    if (this.done) return;
    this.done = true;
    this.server.dispose();
    this.pool.end(this.it);
  }

  finish(): void {
    if (this.done) return;
    this.done = true;
    // Let the EXIT reply reach the worker before it goes away (or is recycled).
    setImmediate(() => {
      this.server.dispose();
      this.pool.end(this.it, true);
    });
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
