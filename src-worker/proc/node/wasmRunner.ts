/**
 * Runs wasm processes on pooled worker threads. `WasmRunner` serves the
 * worker's syscall channel for a process, hands the worker its start job,
 * and frees both when the process ends (terminating the thread if it was
 * killed).
 * `WasmRunnerFactory` is the kernel's factory for `wasm` images.
 */
import { Errno } from '../../base/errno.js';
import { Sys } from '../../base/syscalls.js';
import { ChannelServer, type SyscallHandler } from '../../channel/server.js';
import type { WasmImage } from '../../programs/image.js';
import type { ProcessRunner, RunnerFactory } from '../runner.js';
import { channelFor, startWasm } from './workerChannels.js';
import { WorkerPool, type Lease } from './workerPool.js';

/** How long a retired program may take to unwind to its EXIT before its worker is ended. */
const RETIRE_GRACE_MS = 5000;

export class WasmRunner implements ProcessRunner {
  private readonly server: ChannelServer;
  private readonly lease: Lease;
  private done = false;
  private retired: NodeJS.Timeout | undefined;

  constructor(
    private readonly pool: WorkerPool,
    image: WasmImage,
    env: Uint8Array[],
    handler: SyscallHandler,
    onCrash: (message: string) => void,
    stamp?: (words: Int32Array) => void,
  ) {
    let server: ChannelServer | undefined;
    this.lease = pool.run((worker) => {
      const view = channelFor(worker);
      server = new ChannelServer(
        view,
        (op, args, payload, out) =>
          this.retired ? this.afterRetire(op) : handler(op, args, payload, out),
        stamp,
      );
      server.start();
      startWasm(worker, { ...image, env });
    });
    if (!server) throw new Error('worker pool did not build the job');
    this.server = server;
    this.lease.onCrash = (m) => {
      if (this.retired) this.terminate();
      else if (!this.done) onCrash(m);
    };
  }

  retire(): void {
    if (this.done || this.retired) return;
    // The kernel's answer to EXEC still goes out (the glue then unwinds the
    // program with ProcExit); its EXIT hands the worker back to the pool.
    this.retired = setTimeout(() => this.terminate(), RETIRE_GRACE_MS);
    this.retired.unref();
  }

  /** A retired program's calls: its EXIT frees the worker; anything else is refused. */
  private afterRetire(op: number): { errno: number } {
    if (op !== Sys.EXIT) return { errno: Errno.EINTR };
    this.finish();
    return { errno: 0 };
  }

  raiseSignal(sig: number): void {
    this.server.raiseSignal(sig);
  }

  memoryBytes(): number {
    return this.server.guestMemoryBytes();
  }

  terminate(): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.retired);
    this.server.dispose();
    this.pool.kill(this.lease);
  }

  /**
   * The program's EXIT arrived. The worker does not wait for a reply (it
   * waits for its next job at once, see wasmJob.ts), so it is idle now.
   */
  finish(): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.retired);
    this.server.dispose();
    this.pool.release(this.lease);
  }
}

/** Starts wasm processes on a worker pool: the engine-wide shared one unless given another. */
export class WasmRunnerFactory implements RunnerFactory<WasmImage> {
  private readonly pool: WorkerPool;
  private readonly shared: boolean;
  private disposed = false;

  constructor(pool?: WorkerPool) {
    this.shared = pool === undefined;
    this.pool = pool ?? WorkerPool.acquireShared();
  }

  start(
    image: WasmImage,
    env: Uint8Array[],
    handler: SyscallHandler,
    onCrash: (message: string) => void,
    stamp?: (words: Int32Array) => void,
  ): ProcessRunner {
    return new WasmRunner(this.pool, image, env, handler, onCrash, stamp);
  }

  whenWarm(): Promise<void> {
    return this.pool.whenWarm();
  }

  /** Drops its reference to the shared pool; a pool passed in stays the caller's. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.shared) this.pool.unref();
  }
}
