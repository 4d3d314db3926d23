/**
 * Character devices the kernel serves for `chardev` nodes: null, zero,
 * full, random/urandom, and output sinks (API-captured stdout/stderr). `tty`,
 * `stdin`, `stdout`, `stderr` and `/dev/fd/N` are resolved by the kernel to
 * the process's own descriptors (see kernel/open.ts).
 */
import { randomFillSync } from 'node:crypto';
import { Errno, fail } from '../base/errno.js';
import { FT, OpenFile } from '../fd/openFile.js';

export class NullDevice extends OpenFile {
  readonly filetype = FT.chardev;
  override read(_len: number): Uint8Array {
    return new Uint8Array(0);
  }
  override write(data: Uint8Array): number {
    return data.length;
  }
  override pread(_len: number, _off: number): Uint8Array {
    return new Uint8Array(0);
  }
  override pwrite(data: Uint8Array): number {
    return data.length;
  }
  override seek(): number {
    return 0;
  }
}

export class ZeroDevice extends NullDevice {
  override read(len: number): Uint8Array {
    return new Uint8Array(len);
  }
  override pread(len: number): Uint8Array {
    return new Uint8Array(len);
  }
}

/** /dev/full: reads zeros, every write fails with ENOSPC (tests of a full disk). */
export class FullDevice extends ZeroDevice {
  override write(_data: Uint8Array): number {
    return fail(Errno.ENOSPC);
  }
  override pwrite(_data: Uint8Array): number {
    return fail(Errno.ENOSPC);
  }
}

export class RandomDevice extends NullDevice {
  override read(len: number): Uint8Array {
    const out = new Uint8Array(len);
    randomFillSync(out);
    return out;
  }
  override pread(len: number): Uint8Array {
    return this.read(len);
  }
}

/**
 * A write-only sink that hands bytes to the host (API stdout/stderr,
 * session captures). `limit` caps the bytes accepted; beyond it `onLimit`
 * decides (the kernel kills the writer) and the write fails with EFBIG.
 */
export class SinkFile extends OpenFile {
  // Reported like a pipe: programs must not take captured output for a
  // terminal (ls would switch to columns, tools to colour).
  readonly filetype = FT.unknown;
  written = 0;
  closed = false;

  constructor(
    private readonly onData: (data: Uint8Array) => void,
    private readonly limit = Infinity,
    private readonly onLimit?: () => void,
  ) {
    super();
  }

  override write(data: Uint8Array): number {
    if (this.closed) return data.length;
    if (this.written + data.length > this.limit) {
      const room = Math.max(0, this.limit - this.written);
      if (room > 0) this.onData(data.slice(0, room));
      this.written = this.limit;
      this.onLimit?.();
      return fail(Errno.EFBIG);
    }
    this.written += data.length;
    this.onData(data.slice());
    return data.length;
  }

  override read(): Uint8Array {
    return fail(Errno.EBADF);
  }
}

export function deviceFile(name: string): OpenFile | undefined {
  switch (name) {
    case 'null':
      return new NullDevice();
    case 'zero':
      return new ZeroDevice();
    case 'full':
      return new FullDevice();
    case 'random':
    case 'urandom':
      return new RandomDevice();
    default:
      return undefined;
  }
}
