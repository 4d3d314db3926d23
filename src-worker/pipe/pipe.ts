/**
 * Pipes: a bounded byte buffer (64 KiB) with back-pressure. Reads return
 * what is buffered, EOF once every writer has closed; writes take what fits
 * (a writer blocks while the buffer is full) and fail with EPIPE once every
 * reader has closed (the kernel then sends SIGPIPE to the writer).
 */
import { Errno, fail } from '../base/errno.js';
import { Notifier } from '../base/notifier.js';
import { FT, OpenFile, type Readiness } from '../fd/openFile.js';

export const PIPE_CAPACITY = 64 * 1024;

export class Pipe {
  private chunks: Uint8Array[] = [];
  size = 0;
  readers = 0;
  writers = 0;
  readonly changed = new Notifier();

  constructor(readonly capacity = PIPE_CAPACITY) {}

  /** Move up to `dst.length` buffered bytes into `dst`; returns the count. */
  takeInto(dst: Uint8Array): number {
    let got = 0;
    while (got < dst.length && this.chunks.length > 0) {
      const c = this.chunks[0] as Uint8Array;
      const k = Math.min(c.length, dst.length - got);
      dst.set(c.subarray(0, k), got);
      got += k;
      if (k === c.length) this.chunks.shift();
      else this.chunks[0] = c.subarray(k);
    }
    this.size -= got;
    this.changed.notify();
    return got;
  }

  put(data: Uint8Array): number {
    const k = Math.min(data.length, this.capacity - this.size);
    if (k > 0) {
      this.chunks.push(data.slice(0, k));
      this.size += k;
      this.changed.notify();
    }
    return k;
  }
}

export class PipeReader extends OpenFile {
  readonly filetype = FT.unknown;
  override readonly changed: Notifier;

  constructor(readonly pipe: Pipe) {
    super();
    pipe.readers++;
    this.changed = pipe.changed;
  }

  override readInto(dst: Uint8Array): number | null {
    if (this.pipe.size > 0) return this.pipe.takeInto(dst);
    if (this.pipe.writers === 0 || dst.length === 0) return 0;
    return null;
  }

  override readiness(): Readiness {
    const p = this.pipe;
    return {
      readable: p.size > 0 || p.writers === 0,
      writable: false,
      hup: p.writers === 0,
      nbytes: p.size,
    };
  }

  override release(): void {
    this.pipe.readers--;
    this.pipe.changed.notify();
  }
}

export class PipeWriter extends OpenFile {
  readonly filetype = FT.unknown;
  override readonly changed: Notifier;

  constructor(readonly pipe: Pipe) {
    super();
    pipe.writers++;
    this.changed = pipe.changed;
  }

  override write(data: Uint8Array): number | null {
    const p = this.pipe;
    if (p.readers === 0) return fail(Errno.EPIPE);
    if (data.length === 0) return 0;
    const n = p.put(data);
    return n === 0 ? null : n;
  }

  override readiness(): Readiness {
    const p = this.pipe;
    return {
      readable: false,
      writable: p.readers === 0 || p.size < p.capacity,
      hup: p.readers === 0,
      nbytes: p.capacity - p.size,
    };
  }

  override release(): void {
    this.pipe.writers--;
    this.pipe.changed.notify();
  }
}

export function createPipe(): [PipeReader, PipeWriter] {
  const p = new Pipe();
  return [new PipeReader(p), new PipeWriter(p)];
}
