/** Open regular files and directories of the VFS. */
import { Errno, fail } from '../base/errno.js';
import { pathToBytes, type Cred, type DirEntry, type Stat, type Vfs } from '../vfs/index.js';
import { FT, filetypeOf, OpenFile, typeBits, type DirListEntry, type KStat } from './openFile.js';

export function toKStat(s: Stat): KStat {
  return {
    dev: s.dev,
    ino: s.ino,
    filetype: filetypeOf(s.kind),
    nlink: s.nlink,
    size: s.size,
    atime: s.atime,
    mtime: s.mtime,
    ctime: s.ctime,
    mode: typeBits(s.kind) | s.mode,
    uid: s.uid,
    gid: s.gid,
  };
}

/** An inode-backed description: a stale ino (after restore) reads as EBADF. */
abstract class InodeFile extends OpenFile {
  constructor(
    protected readonly vfs: Vfs,
    readonly ino: number,
    protected readonly cred: Cred,
  ) {
    super();
    vfs.retain(ino);
  }

  protected live(): void {
    if (!this.vfs.exists(this.ino)) fail(Errno.EBADF);
  }

  override stat(): KStat {
    this.live();
    return toKStat(this.vfs.statIno(this.ino));
  }

  override utimes(atime: number | null | undefined, mtime: number | null | undefined): void {
    this.live();
    this.vfs.utimesIno(this.ino, atime, mtime, this.cred);
  }

  override chmod(mode: number): void {
    this.live();
    this.vfs.chmodIno(this.ino, mode, this.cred);
  }

  override release(): void {
    this.vfs.release(this.ino);
  }
}

export class VfsFile extends InodeFile {
  readonly filetype = FT.file;
  private offset = 0;

  constructor(
    vfs: Vfs,
    ino: number,
    cred: Cred,
    readonly readable: boolean,
    readonly writable: boolean,
  ) {
    super(vfs, ino, cred);
  }

  override readInto(dst: Uint8Array): number {
    if (!this.readable) fail(Errno.EBADF);
    this.live();
    const n = this.vfs.readInto(this.ino, this.offset, dst);
    this.offset += n;
    return n;
  }

  override write(data: Uint8Array): number {
    if (!this.writable) fail(Errno.EBADF);
    this.live();
    if (this.append) {
      const n = this.vfs.write(this.ino, 0, data, { append: true });
      this.offset = this.vfs.statIno(this.ino).size;
      return n;
    }
    const n = this.vfs.write(this.ino, this.offset, data);
    this.offset += n;
    return n;
  }

  override pread(len: number, off: number): Uint8Array {
    if (!this.readable) fail(Errno.EBADF);
    if (off < 0) fail(Errno.EINVAL);
    this.live();
    return this.vfs.read(this.ino, off, len);
  }

  override pwrite(data: Uint8Array, off: number): number {
    if (!this.writable) fail(Errno.EBADF);
    if (off < 0) fail(Errno.EINVAL);
    this.live();
    return this.vfs.write(this.ino, off, data);
  }

  override seek(off: number, whence: number): number {
    this.live();
    let base: number;
    if (whence === 0) base = 0;
    else if (whence === 1) base = this.offset;
    else if (whence === 2) base = this.vfs.statIno(this.ino).size;
    else return fail(Errno.EINVAL);
    const pos = base + off;
    if (pos < 0 || !Number.isSafeInteger(pos)) fail(Errno.EINVAL);
    this.offset = pos;
    return pos;
  }

  override truncate(size: number): void {
    if (!this.writable) fail(Errno.EBADF);
    if (size < 0 || !Number.isSafeInteger(size)) fail(Errno.EINVAL);
    this.live();
    this.vfs.truncate(this.ino, size);
  }

  override readiness(): { readable: boolean; writable: boolean; hup: boolean; nbytes: number } {
    const size = this.vfs.exists(this.ino) ? this.vfs.statIno(this.ino).size : 0;
    return { readable: true, writable: true, hup: false, nbytes: Math.max(0, size - this.offset) };
  }
}

/** Kernel-form entries per VFS listing (which is cached and frozen until its directory changes). */
const kernelListings = new WeakMap<readonly DirEntry[], readonly DirListEntry[]>();

/**
 * A directory's children in kernel form, sorted (no `.`/`..`); EACCES
 * without read permission. Cached for as long as the directory is unchanged.
 */
export function childEntries(vfs: Vfs, ino: number, cred: Cred): readonly DirListEntry[] {
  const listing = vfs.readdirIno(ino, cred);
  let out = kernelListings.get(listing);
  if (!out) {
    out = listing.map((e) => ({
      name: pathToBytes(e.name),
      ino: e.ino,
      filetype: filetypeOf(e.kind),
    }));
    kernelListings.set(listing, out);
  }
  return out;
}

/** Names of the two entries every listing starts with (shared, never written). */
const DOT = new Uint8Array([46]);
const DOTDOT = new Uint8Array([46, 46]);

/** The `.` and `..` entries a listing of directory `ino` starts with. */
export function dotEntries(ino: number, parent: number): DirListEntry[] {
  return [
    { name: DOT, ino, filetype: FT.dir },
    { name: DOTDOT, ino: parent, filetype: FT.dir },
  ];
}

export class DirFile extends InodeFile {
  readonly filetype = FT.dir;
  private listing: DirListEntry[] | undefined;

  override dirIno(): number {
    this.live();
    return this.ino;
  }

  override read(): Uint8Array {
    return fail(Errno.EISDIR);
  }

  override write(): number {
    return fail(Errno.EBADF);
  }

  override seek(): number {
    return fail(Errno.EISDIR);
  }

  /** Entries from `cookie` on: "." and ".." first, then the sorted listing (snapshotted at cookie 0). */
  override readdir(cookie: number): DirListEntry[] {
    this.live();
    if (cookie === 0 || !this.listing) {
      const parentIno = this.vfs.parentOf(this.ino) ?? this.ino;
      this.listing = [
        ...dotEntries(this.ino, parentIno),
        ...childEntries(this.vfs, this.ino, this.cred),
      ];
    }
    return this.listing.slice(cookie);
  }
}
