/**
 * Runs a wasm process on a pooled worker thread: creates its syscall
 * channel, posts the start message, and frees the worker and channel when
 * the process ends (terminating the thread if it was killed).
 */
import { ChannelServer, type SyscallHandler } from '../../channel/server.js';
import { ChannelView } from '../../channel/layout.js';
import type { WasmImage } from '../../programs/exec.js';
import type { ProcessRunner } from '../process.js';
import type { Lease, WorkerPool } from './workerPool.js';

export class WasmRunner implements ProcessRunner {
  private readonly server: ChannelServer;
  private readonly lease: Lease;
  private done = false;

  constructor(
    pool: WorkerPool,
    image: WasmImage,
    env: Uint8Array[],
    handler: SyscallHandler,
    onCrash: (message: string) => void,
    stamp?: (words: Int32Array) => void,
  ) {
    const view = ChannelView.create();
    this.server = new ChannelServer(view, handler, stamp);
    this.server.start();
    this.lease = pool.run({
      type: 'start',
      sab: view.sab,
      module: image.module,
      argv: image.argv,
      env,
      role: image.role,
      name: image.name,
    });
    this.lease.onCrash = (m) => {
      if (!this.done) onCrash(m);
    };
    this.pool = pool;
  }

  private readonly pool: WorkerPool;

  raiseSignal(sig: number): void {
    this.server.raiseSignal(sig);
  }

  terminate(): void {
    if (this.done) return;
    this.done = true;
    this.server.dispose();
    this.pool.kill(this.lease);
  }

  finish(): void {
    if (this.done) return;
    this.done = true;
    // Let the EXIT reply reach the worker before the channel goes away.
    setImmediate(() => {
      this.server.dispose();
      this.pool.release(this.lease);
    });
  }
}
