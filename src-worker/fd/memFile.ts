/** A read-only in-memory file (generated /proc contents, session stdin). */
import { Errno, fail } from '../base/errno.js';
import { FT, OpenFile, type KStat } from './openFile.js';

export class MemFile extends OpenFile {
  readonly filetype = FT.file;
  private offset = 0;

  constructor(
    private readonly data: Uint8Array,
    private readonly ino = 0,
  ) {
    super();
  }

  override read(len: number): Uint8Array {
    const out = this.data.slice(this.offset, this.offset + len);
    this.offset += out.length;
    return out;
  }

  override pread(len: number, off: number): Uint8Array {
    if (off < 0) fail(Errno.EINVAL);
    return this.data.slice(off, off + len);
  }

  override write(): number {
    return fail(Errno.EBADF);
  }

  override seek(off: number, whence: number): number {
    const base =
      whence === 0 ? 0 : whence === 1 ? this.offset : whence === 2 ? this.data.length : NaN;
    const pos = base + off;
    if (!(pos >= 0)) fail(Errno.EINVAL);
    this.offset = pos;
    return pos;
  }

  override stat(): KStat {
    const now = Date.now();
    return {
      dev: 2,
      ino: this.ino,
      filetype: FT.file,
      nlink: 1,
      size: this.data.length,
      atime: now,
      mtime: now,
      ctime: now,
      mode: 0o100444,
      uid: 0,
      gid: 0,
    };
  }

  override readiness(): { readable: boolean; writable: boolean; hup: boolean; nbytes: number } {
    return { readable: true, writable: false, hup: false, nbytes: this.data.length - this.offset };
  }
}
