/**
 * A process's descriptor table: small integers to shared open file
 * descriptions, plus the implicit root directory handle that WASI programs
 * see as their preopen, fd 3 (see `ROOT_FD`).
 */
import { Errno, fail } from '../base/errno.js';
import { ROOT_FD } from '../base/syscalls.js';
import type { OpenFile } from './openFile.js';

export interface FdEntry {
  readonly file: OpenFile;
  cloexec: boolean;
}

/** Cap on descriptors per process (EMFILE beyond). */
export const MAX_FDS = 1024;

export class FdTable {
  private slots = new Map<number, FdEntry>();
  private rootDir: OpenFile | undefined;
  /**
   * Bit n set = slot n (< 32) is taken. The glue reads it from every reply
   * to number the directories it opens without a round trip.
   */
  lowMask = 0;

  /** Give the table its implicit root directory handle (once, at process start). */
  setRoot(dir: OpenFile): void {
    dir.refs++;
    if (this.rootDir) FdTable.drop(this.rootDir);
    this.rootDir = dir;
  }

  /** The implicit root directory (what dirfd `ROOT_FD` means for path calls). */
  root(): OpenFile {
    if (!this.rootDir) return fail(Errno.EBADF);
    return this.rootDir;
  }

  get(fd: number): OpenFile {
    const e = this.entry(fd);
    if (!e) return fail(Errno.EBADF);
    return e.file;
  }

  /** The entry at `fd`; at an empty `ROOT_FD`, a fresh entry for the implicit root. */
  entry(fd: number): FdEntry | undefined {
    const e = this.slots.get(fd);
    if (e) return e;
    if (fd === ROOT_FD && this.rootDir) return { file: this.rootDir, cloexec: false };
    return undefined;
  }

  /** True if nothing occupies slot `fd` (the implicit root does not count). */
  isFree(fd: number): boolean {
    return !this.slots.has(fd);
  }

  has(fd: number): boolean {
    return this.entry(fd) !== undefined;
  }

  /** Install at the lowest free fd >= min. */
  add(file: OpenFile, min = 0, cloexec = false): number {
    let fd = min;
    while (this.slots.has(fd)) fd++;
    if (fd >= MAX_FDS) fail(Errno.EMFILE);
    this.set(fd, file, cloexec);
    return fd;
  }

  /** Install at `fd`, closing what was there. */
  set(fd: number, file: OpenFile, cloexec = false): void {
    if (!Number.isInteger(fd) || fd < 0 || fd >= MAX_FDS) fail(Errno.EBADF);
    file.refs++;
    const old = this.slots.get(fd);
    this.slots.set(fd, { file, cloexec });
    if (fd < 32) this.lowMask |= 1 << fd;
    if (old) FdTable.drop(old.file);
  }

  close(fd: number): void {
    const e = this.slots.get(fd);
    // Closing the implicit root is a harmless no-op: it stays for path calls.
    if (!e && fd === ROOT_FD && this.rootDir) return;
    if (!e) fail(Errno.EBADF);
    this.slots.delete(fd);
    if (fd < 32) this.lowMask &= ~(1 << fd);
    FdTable.drop(e.file);
  }

  /** Move `from` onto `to` (fd_renumber). */
  renumber(from: number, to: number): void {
    const e = this.entry(from);
    if (!e || !this.has(to)) fail(Errno.EBADF);
    if (from === to) return;
    this.set(to, e.file, e.cloexec);
    this.close(from);
  }

  /** exec: the table becomes exactly `fds` (the implicit root stays). */
  replaceAll(fds: ReadonlyArray<readonly [number, OpenFile]>): void {
    for (const [fd] of fds) if (!Number.isInteger(fd) || fd < 0 || fd >= MAX_FDS) fail(Errno.EBADF);
    // Take the new references before dropping the old: a pipe end kept
    // across the exec must never look closed.
    const old = [...this.slots.values()].map((e) => e.file);
    this.slots.clear();
    this.lowMask = 0;
    for (const [fd, file] of fds) this.set(fd, file);
    for (const f of old) FdTable.drop(f);
  }

  closeAll(): void {
    const all = [...this.slots.values()].map((e) => e.file);
    this.slots.clear();
    this.lowMask = 0;
    if (this.rootDir) all.push(this.rootDir);
    this.rootDir = undefined;
    for (const f of all) FdTable.drop(f);
  }

  /** Open descriptors in fd order (the implicit root shows as `ROOT_FD` when that slot is empty). */
  entries(): [number, FdEntry][] {
    const out = [...this.slots.entries()];
    const r = this.slots.has(ROOT_FD) ? undefined : this.entry(ROOT_FD);
    if (r) out.push([ROOT_FD, r]);
    return out.sort((x, y) => x[0] - y[0]);
  }

  private static drop(file: OpenFile): void {
    if (--file.refs === 0) file.release();
  }
}
