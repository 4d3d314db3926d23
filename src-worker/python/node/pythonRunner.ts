/**
 * Runs a python3 process: takes an interpreter from the pool, serves its
 * syscall channel for the kernel process, and hands it the job (argv, env,
 * cwd as text). Signals the program catches (SIGINT) go to Pyodide's
 * interrupt word, which raises KeyboardInterrupt; ending it terminates the
 * worker. Like WasmRunner, it only starts, signals and ends the process.
 */
import { ChannelServer, type SyscallHandler } from '../../channel/server.js';
import { ChannelView } from '../../channel/layout.js';
import type { ProcessRunner } from '../../proc/process.js';
import type { Interpreter, PythonPool } from './pythonPool.js';

export interface PythonJob {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
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

  terminate(): void {
    if (this.done) return;
    this.done = true;
    this.server.dispose();
    this.pool.end(this.it);
  }

  finish(): void {
    if (this.done) return;
    this.done = true;
    // Let the EXIT reply reach the worker before it goes away.
    setImmediate(() => {
      this.server.dispose();
      this.pool.end(this.it);
    });
  }
}
