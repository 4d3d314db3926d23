/**
 * Pipes: a bounded byte buffer (64 KiB) with back-pressure. Reads return
 * what is buffered, EOF once every writer has closed; writes take what fits
 * and fail with EPIPE once every reader has closed (the kernel then sends
 * SIGPIPE to the writer).
 *
 * A blocking write bigger than the room left parks the rest (`park`): the
 * bytes stay where the writer has them (its channel's data area, valid
 * while it is blocked on the call) and readers take them from there after
 * the buffered ones. The write returns once its bytes are all read or the
 * rest fits the buffer, as a Linux pipe write returns once all is in the
 * pipe. So a 1 MiB write and a 1 MiB read cross a pipe in one round trip
 * each, with no copy through the buffer, however small the buffer is.
 */
import { Errno, fail } from '../base/errno.js';
import { Notifier } from '../base/notifier.js';
import { FT, OpenFile, type Readiness } from '../fd/openFile.js';

export const PIPE_CAPACITY = 64 * 1024;

/** The part of a blocked write that did not fit the buffer. */
export interface ParkedWrite {
  readonly data: Uint8Array;
  /** Bytes of `data` taken so far. */
  off: number;
  /** False once the writing process is gone: its bytes are no longer readable. */
  readonly live: () => boolean;
}

export class Pipe {
  private chunks: Uint8Array[] = [];
  /** Blocked writes' rests, oldest first; readable after the buffer. */
  private parked: ParkedWrite[] = [];
  /** Buffered bytes (not counting parked ones). */
  size = 0;
  /** Bytes waiting in parked writes. */
  parkedBytes = 0;
  readers = 0;
  writers = 0;
  readonly changed = new Notifier();

  constructor(readonly capacity = PIPE_CAPACITY) {}

  /** Bytes a reader could take now. */
  get available(): number {
    return this.size + this.parkedBytes;
  }

  /** Move up to `dst.length` readable bytes into `dst` (buffered, then parked); returns the count. */
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
    while (got < dst.length && this.parked.length > 0) {
      const w = this.parked[0] as ParkedWrite;
      if (!w.live()) {
        this.unpark(w);
        continue;
      }
      const k = Math.min(w.data.length - w.off, dst.length - got);
      dst.set(w.data.subarray(w.off, w.off + k), got);
      got += k;
      w.off += k;
      this.parkedBytes -= k;
      if (w.off === w.data.length) this.parked.shift();
    }
    this.changed.notify();
    return got;
  }

  /** Copy what fits of `data` into the buffer; nothing while writes are parked (they go first). */
  put(data: Uint8Array): number {
    if (this.parked.length > 0) return 0;
    const k = Math.min(data.length, this.capacity - this.size);
    if (k > 0) {
      this.chunks.push(data.slice(0, k));
      this.size += k;
      this.changed.notify();
    }
    return k;
  }

  /** Leave `data` (which must stay valid until `settle` says done or `unpark`) for readers. */
  park(data: Uint8Array, live: () => boolean): ParkedWrite {
    const w: ParkedWrite = { data, off: 0, live };
    this.parked.push(w);
    this.parkedBytes += data.length;
    this.changed.notify();
    return w;
  }

  /**
   * Whether parked write `w` is complete: all of it was read, or it is
   * first in line and its rest fits the buffer now (it is copied there).
   */
  settle(w: ParkedWrite): boolean {
    if (w.off === w.data.length) return true;
    const rest = w.data.length - w.off;
    if (this.parked[0] !== w || rest > this.capacity - this.size) return false;
    this.parked.shift();
    this.parkedBytes -= rest;
    this.chunks.push(w.data.slice(w.off));
    this.size += rest;
    w.off = w.data.length;
    return true;
  }

  /** Withdraw what is left of `w` (its writer gave up); the bytes already read stay read. */
  unpark(w: ParkedWrite): void {
    const i = this.parked.indexOf(w);
    if (i < 0) return;
    this.parked.splice(i, 1);
    this.parkedBytes -= w.data.length - w.off;
    this.changed.notify();
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
    if (this.pipe.available > 0) {
      const n = this.pipe.takeInto(dst);
      // Only parked bytes of writers that have gone were left: read again.
      if (n > 0 || dst.length === 0) return n;
    }
    if (this.pipe.writers === 0 || dst.length === 0) return 0;
    return null;
  }

  override readiness(): Readiness {
    const p = this.pipe;
    return {
      readable: p.available > 0 || p.writers === 0,
      writable: false,
      hup: p.writers === 0,
      nbytes: p.available,
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
    const room = p.parkedBytes > 0 ? 0 : p.capacity - p.size;
    return {
      readable: false,
      writable: p.readers === 0 || room > 0,
      hup: p.readers === 0,
      nbytes: room,
    };
  }

  override release(): void {
    this.pipe.writers--;
    this.pipe.changed.notify();
  }
}

export function createPipe(capacity = PIPE_CAPACITY): [PipeReader, PipeWriter] {
  const p = new Pipe(capacity);
  return [new PipeReader(p), new PipeWriter(p)];
}
