/** A process's descriptor table: small integers to shared open file descriptions. */
import { Errno, fail } from '../kernel/errno.js';
import type { OpenFile } from './openFile.js';

export interface FdEntry {
  readonly file: OpenFile;
  cloexec: boolean;
}

/** Cap on descriptors per process (EMFILE beyond). */
export const MAX_FDS = 1024;

export class FdTable {
  private slots = new Map<number, FdEntry>();

  get(fd: number): OpenFile {
    const e = this.slots.get(fd);
    if (!e) return fail(Errno.EBADF);
    return e.file;
  }

  entry(fd: number): FdEntry | undefined {
    return this.slots.get(fd);
  }

  has(fd: number): boolean {
    return this.slots.has(fd);
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
    if (old) FdTable.drop(old.file);
  }

  close(fd: number): void {
    const e = this.slots.get(fd);
    if (!e) fail(Errno.EBADF);
    this.slots.delete(fd);
    FdTable.drop(e.file);
  }

  /** Move `from` onto `to` (fd_renumber). */
  renumber(from: number, to: number): void {
    const e = this.slots.get(from);
    if (!e || !this.slots.has(to)) fail(Errno.EBADF);
    if (from === to) return;
    this.set(to, e.file, e.cloexec);
    this.close(from);
  }

  closeAll(): void {
    const all = [...this.slots.values()];
    this.slots.clear();
    for (const e of all) FdTable.drop(e.file);
  }

  entries(): [number, FdEntry][] {
    return [...this.slots.entries()];
  }

  private static drop(file: OpenFile): void {
    if (--file.refs === 0) file.release();
  }
}
