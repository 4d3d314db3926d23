/**
 * The interpreter's syscalls: typed wrappers over the process's channel,
 * spoken exactly as a wasm program's glue speaks them (see
 * `kernel/handlers/`). A failed call throws through `fail(errno)`, which the
 * file system layer sets to Emscripten's `FS.ErrnoError` (its errno numbers
 * are WASI's, the kernel's own).
 */
import { ChannelClient } from '../../channel/client.js';
import { Sys } from '../../base/syscalls.js';
import { utf8Decode } from './prelude.js';

/** dirfd meaning "the process cwd". */
const AT_FDCWD = -1;
/** Kernel OPEN oflags. */
export const O = { CREAT: 1, DIRECTORY: 2, EXCL: 4, TRUNC: 8 } as const;
/** Kernel fd flags. */
export const FD_APPEND = 1;
/** Largest single transfer per call (the kernel's MAX_READ). */
export const MAX_IO = 1024 * 1024;

export interface KStat {
  dev: number;
  ino: number;
  filetype: number;
  nlink: number;
  size: number;
  atime: number;
  mtime: number;
  ctime: number;
  mode: number;
  uid: number;
  gid: number;
}

/** UTF-8 bytes of a path (the realm's own TextEncoder, installed by the prelude). */
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

function join(...parts: Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export class KernelCalls {
  readonly ch: ChannelClient;
  fail: (errno: number) => never = (errno) => {
    throw new Error(`errno ${errno}`);
  };

  constructor(sab: SharedArrayBuffer) {
    this.ch = new ChannelClient(sab);
  }

  /** A call that must succeed (else `fail`). */
  private ok(op: Sys, args: readonly number[] = [], payload?: Uint8Array): ChannelClient {
    const e = this.ch.call(op, args, payload);
    if (e !== 0) this.fail(e);
    return this.ch;
  }

  /** A call whose errno the caller inspects. */
  try(op: Sys, args: readonly number[] = [], payload?: Uint8Array): number {
    return this.ch.call(op, args, payload);
  }

  private stat(r: Float64Array): KStat {
    return {
      dev: r[0] as number,
      ino: r[1] as number,
      filetype: r[2] as number,
      nlink: r[3] as number,
      size: r[4] as number,
      atime: r[5] as number,
      mtime: r[6] as number,
      ctime: r[7] as number,
      mode: r[8] as number,
      uid: r[9] as number,
      gid: r[10] as number,
    };
  }

  lstat(path: string, follow = false): KStat {
    return this.stat(this.ok(Sys.PATH_STAT, [AT_FDCWD, follow ? 1 : 0], enc(path)).rets);
  }

  fstat(fd: number): KStat {
    return this.stat(this.ok(Sys.FSTAT, [fd]).rets);
  }

  open(path: string, oflags: number, read: boolean, write: boolean, fdflags = 0): number {
    const c = this.ok(
      Sys.OPEN,
      [AT_FDCWD, 1, oflags, fdflags, read ? 1 : 0, write ? 1 : 0, 0, 0],
      enc(path),
    );
    return c.rets[0] as number;
  }

  close(fd: number): void {
    this.ok(Sys.CLOSE, [fd]);
  }

  /** Read up to `dst.length` bytes at `pos` (-1: at the file offset, blocking). */
  readInto(fd: number, dst: Uint8Array, pos: number): number {
    const len = Math.min(dst.length, MAX_IO);
    const c = pos < 0 ? this.ok(Sys.READ, [fd, len]) : this.ok(Sys.PREAD, [fd, len, pos]);
    dst.set(c.data);
    return c.data.length;
  }

  /** Write `src` at `pos` (-1: at the file offset, blocking); returns bytes written. */
  write(fd: number, src: Uint8Array, pos: number): number {
    let done = 0;
    while (done < src.length) {
      const part = src.subarray(done, done + MAX_IO);
      const c =
        pos < 0 ? this.ok(Sys.WRITE, [fd], part) : this.ok(Sys.PWRITE, [fd, pos + done], part);
      const n = c.rets[0] as number;
      if (n <= 0) break;
      done += n;
    }
    return done;
  }

  /** lseek(2) on the kernel descriptor; the new offset. */
  seek(fd: number, offset: number, whence: number): number {
    return this.ok(Sys.SEEK, [fd, offset, whence]).rets[0] as number;
  }

  ftruncate(fd: number, size: number): void {
    this.ok(Sys.FTRUNCATE, [fd, size]);
  }

  mkdir(path: string): void {
    this.ok(Sys.MKDIR, [AT_FDCWD], enc(path));
  }

  unlink(path: string): void {
    this.ok(Sys.UNLINK, [AT_FDCWD], enc(path));
  }

  rmdir(path: string): void {
    this.ok(Sys.RMDIR, [AT_FDCWD], enc(path));
  }

  rename(from: string, to: string): void {
    const a = enc(from);
    this.ok(Sys.RENAME, [AT_FDCWD, a.length, AT_FDCWD], join(a, enc(to)));
  }

  symlink(target: string, path: string): void {
    const a = enc(target);
    this.ok(Sys.SYMLINK, [AT_FDCWD, a.length], join(a, enc(path)));
  }

  readlink(path: string): string {
    return utf8Decode(this.ok(Sys.READLINK, [AT_FDCWD], enc(path)).data);
  }

  chmod(path: string, mode: number): void {
    this.ok(Sys.CHMOD, [1, mode], enc(path));
  }

  utimes(path: string, atimeMs: number, mtimeMs: number): void {
    this.ok(Sys.PATH_UTIMES, [AT_FDCWD, 1, atimeMs, mtimeMs], enc(path));
  }

  /** link(2) (`follow`: a symlink `from` links its target); 0 or the errno. */
  link(from: string, to: string, follow: boolean): number {
    const a = enc(from);
    return this.try(Sys.LINK, [AT_FDCWD, follow ? 1 : 0, a.length, AT_FDCWD], join(a, enc(to)));
  }

  /** The times of `path` itself, a symlink not followed (ms; -1: now); 0 or the errno. */
  lutimes(path: string, atimeMs: number, mtimeMs: number): number {
    return this.try(Sys.PATH_UTIMES, [AT_FDCWD, 0, atimeMs, mtimeMs], enc(path));
  }

  /** Names in directory `path` (without . and ..). */
  listdir(path: string): string[] {
    const fd = this.open(path, O.DIRECTORY, true, false);
    const names: string[] = [];
    try {
      let cookie = 0;
      for (;;) {
        const c = this.ok(Sys.READDIR, [fd, cookie, 4096]);
        const d = c.data;
        if (d.length === 0) break;
        const dv = new DataView(d.buffer, d.byteOffset, d.byteLength);
        let off = 0;
        while (off + 24 <= d.length) {
          cookie = dv.getUint32(off, true);
          const n = dv.getUint32(off + 16, true);
          const name = utf8Decode(d.subarray(off + 24, off + 24 + n));
          if (name !== '.' && name !== '..') names.push(name);
          off += 24 + n;
        }
      }
    } finally {
      this.ch.call(Sys.CLOSE, [fd]);
    }
    return names;
  }

  chdir(path: string): void {
    this.ok(Sys.CHDIR, [], enc(path));
  }

  isatty(fd: number): boolean {
    return this.ch.call(Sys.ISATTY, [fd]) === 0 && this.ch.rets[0] === 1;
  }

  winsize(fd: number): [number, number] | undefined {
    if (this.ch.call(Sys.TTY_WINSIZE, [fd]) !== 0) return undefined;
    return [this.ch.rets[0] as number, this.ch.rets[1] as number];
  }

  /** The process's umask (unchanged). */
  umask(): number {
    this.ok(Sys.UMASK, [-1]);
    return this.ch.rets[0] as number;
  }

  /** Sets the disposition of `sig`; returns the previous one (-1 when refused). */
  sigaction(sig: number, disp: number): number {
    if (this.ch.call(Sys.SIGACTION, [sig, disp]) !== 0) return -1;
    return this.ch.rets[0] as number;
  }

  getpid(): [number, number] {
    this.ok(Sys.GETPID);
    return [this.ch.rets[0] as number, this.ch.rets[1] as number];
  }

  exit(code: number, kind: number, memBytes: number, text: string): void {
    this.ch.call(Sys.EXIT, [code, kind, memBytes], enc(text));
  }

  /** The namespace version stamped on the last reply. */
  epoch(): number {
    return this.ch.epoch();
  }
}
