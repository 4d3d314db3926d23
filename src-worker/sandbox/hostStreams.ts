/** Host-side ends of a process's stdin: a pipe the host writes into with back-pressure. */
import { Pipe, PipeReader } from '../pipe/pipe.js';

export class HostStdin {
  readonly pipe = new Pipe();
  /** The description the child reads from. */
  readonly reader: PipeReader;
  private closed = false;

  constructor() {
    this.reader = new PipeReader(this.pipe);
    this.pipe.writers++; // the host is a writer until close()
  }

  /** Write everything, waiting while the pipe is full; false if the reader went away. */
  async write(data: Uint8Array | string): Promise<boolean> {
    let bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
    while (bytes.length > 0) {
      if (this.closed || this.pipe.readers === 0) return false;
      const n = this.pipe.put(bytes);
      bytes = bytes.subarray(n);
      if (bytes.length > 0) await this.pipe.changed.wait();
    }
    return true;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.pipe.writers--;
    this.pipe.changed.notify();
  }
}
