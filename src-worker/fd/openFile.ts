/**
 * An open file description: what an fd points at. Regular files, dirs,
 * pipes, the tty, devices, /proc files and session captures each implement
 * only what they support; everything else answers EBADF (or ESPIPE for
 * seeking), like wasi-common's `WasiFile`. Reads/writes return `null` when
 * they would block; the kernel then waits on `changed` and retries.
 */
import { Errno, fail } from '../base/errno.js';
import type { Notifier } from '../base/notifier.js';
import type { NodeKind } from '../vfs/index.js';

/** WASI filetype numbers. */
export const FT = { unknown: 0, chardev: 2, dir: 3, file: 4, symlink: 7 } as const;

export interface KStat {
  readonly dev: number;
  readonly ino: number;
  readonly filetype: number;
  readonly nlink: number;
  readonly size: number;
  readonly atime: number;
  readonly mtime: number;
  readonly ctime: number;
  readonly mode: number;
  readonly uid: number;
  readonly gid: number;
}

/** POSIX S_IFMT type bits. */
export function typeBits(kind: NodeKind): number {
  switch (kind) {
    case 'file':
      return 0o100000;
    case 'dir':
      return 0o040000;
    case 'symlink':
      return 0o120000;
    case 'chardev':
      return 0o020000;
    case 'fifo':
      return 0o010000;
  }
}

export function filetypeOf(kind: NodeKind): number {
  switch (kind) {
    case 'file':
      return FT.file;
    case 'dir':
      return FT.dir;
    case 'symlink':
      return FT.symlink;
    case 'chardev':
      return FT.chardev;
    case 'fifo':
      return FT.unknown;
  }
}

export interface Readiness {
  readonly readable: boolean;
  readonly writable: boolean;
  readonly hup: boolean;
  readonly nbytes: number;
}

export interface DirListEntry {
  readonly name: Uint8Array;
  readonly ino: number;
  readonly filetype: number;
}

export abstract class OpenFile {
  /** Number of fd slots (in any process) pointing here. */
  refs = 0;
  append = false;
  nonblock = false;
  /** Fires when readiness may have changed (pipes, tty). */
  readonly changed: Notifier | undefined = undefined;

  abstract readonly filetype: number;

  read(_len: number): Uint8Array | null {
    return fail(Errno.EBADF);
  }
  /**
   * Read into `dst` (up to its length); null = would block. The kernel
   * reads through this: files that can fill `dst` directly override it
   * (VFS files, pipes), the rest hand `read`'s bytes over.
   */
  readInto(dst: Uint8Array): number | null {
    const r = this.read(dst.length);
    if (r === null) return null;
    dst.set(r);
    return r.length;
  }
  write(_data: Uint8Array): number | null {
    return fail(Errno.EBADF);
  }
  pread(_len: number, _off: number): Uint8Array {
    return fail(Errno.ESPIPE);
  }
  pwrite(_data: Uint8Array, _off: number): number {
    return fail(Errno.ESPIPE);
  }
  seek(_off: number, _whence: number): number {
    return fail(Errno.ESPIPE);
  }
  stat(): KStat {
    return {
      dev: 0,
      ino: 0,
      filetype: this.filetype,
      nlink: 1,
      size: 0,
      atime: 0,
      mtime: 0,
      ctime: 0,
      mode: 0o020666,
      uid: 0,
      gid: 0,
    };
  }
  readdir(_cookie: number): DirListEntry[] {
    return fail(Errno.ENOTDIR);
  }
  truncate(_size: number): void {
    fail(Errno.EINVAL);
  }
  utimes(_atime: number | null | undefined, _mtime: number | null | undefined): void {
    fail(Errno.EBADF);
  }
  chmod(_mode: number): void {
    fail(Errno.EBADF);
  }
  /** Directory ino for *at() resolution; EBADF/ENOTDIR otherwise. */
  dirIno(): number {
    return fail(Errno.ENOTDIR);
  }
  readiness(): Readiness {
    return { readable: true, writable: true, hup: false, nbytes: 0 };
  }
  /** Called when the last fd referring to this description closes. */
  release(): void {}
}

/** Concatenate byte arrays. */
export function concat(parts: readonly Uint8Array[], total?: number): Uint8Array {
  const n = total ?? parts.reduce((s, p) => s + p.length, 0);
  const out = new Uint8Array(n);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}
