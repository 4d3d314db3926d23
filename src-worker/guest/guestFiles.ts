/**
 * The guest side of a process's file calls that is not tied to an ABI: one
 * per process, in its worker, over its channel. It keeps the directory
 * listings that came with their open (`DirListings`), the listings a walk
 * opens next (`DirTree`) and the last stat's extended fields (`StatMemo`),
 * and answers from them when the kernel's answer could not differ. The WASI
 * glue (`wasi/preview1`, `wasi/sandglass`) calls it; a guest with another
 * ABI (Pyodide) can too. Results follow the channel's convention: errno as a
 * number, 0 for success.
 */
import { Sys, OPEN_FLAGS, ROOT_FD, STAT_SLOTS } from '../base/syscalls.js';
import type { ChannelClient } from '../channel/client.js';
import { DirListings } from './dirListings.js';
import { DirTree, walkKey } from './dirTree.js';
import { StatMemo } from './statMemo.js';

/** Entries a directory open fetches at once (a complete listing is kept for readdir). */
const DIR_PREFETCH = 4096;

/** What OPEN needs besides the path (flags in the kernel's OPEN numbering, `OPEN_FLAGS`). */
export interface OpenRequest {
  readonly dirfd: number;
  readonly follow: number;
  readonly oflags: number;
  readonly fdflags: number;
  readonly read: boolean;
  readonly write: boolean;
}

export class GuestFiles {
  readonly dirs = new DirListings();
  readonly tree: DirTree;
  readonly stats: StatMemo;

  /** Regular files this process opened: their close can ride on the next call. */
  private readonly quiet = new Set<number>();
  /** The fd whose last read reached its end, and the call count and data version then (see `atEnd`). */
  private endFd = -1;
  private endCall = -1;
  private endData = 0;
  /** The stat that came with the last open of a regular file, and the call count then (see `fstat`). */
  private openedFd = -1;
  private openedCall = -1;
  private openedStat: Float64Array | undefined;

  constructor(readonly sys: ChannelClient) {
    this.tree = new DirTree(sys, this.dirs);
    this.stats = new StatMemo(sys);
  }

  /** OPEN `path`: the new fd (>= 0) or -errno. A plain directory open of a held listing needs no call. */
  open(req: OpenRequest, path: Uint8Array): number {
    const { sys } = this;
    const dir = (req.oflags & OPEN_FLAGS.DIRECTORY) !== 0;
    const plain =
      dir && req.dirfd === ROOT_FD && req.oflags === OPEN_FLAGS.DIRECTORY && req.fdflags === 0;
    const key = plain ? walkKey(path) : undefined;
    const held = key !== undefined ? this.tree.open(key) : undefined;
    if (held !== undefined) return held;
    const e = sys.call(
      Sys.OPEN,
      [
        req.dirfd,
        req.follow,
        req.oflags,
        req.fdflags,
        req.read ? 1 : 0,
        req.write ? 1 : 0,
        dir ? DIR_PREFETCH : 0,
        plain ? this.tree.budgetFor(key) : 0,
        dir ? 0 : 1,
      ],
      path,
    );
    if (e) return -e;
    const opened = sys.rets[0] as number;
    this.dirs.forget(opened);
    this.quiet.delete(opened);
    if (dir && sys.rets[1] === 1) {
      this.dirs.store(opened, sys.data.subarray(0, sys.rets[2] as number));
      if (key !== undefined) this.tree.absorb(key, sys.rets, sys.data);
    } else if (sys.rets[5] === 1) {
      this.quiet.add(opened);
      if (sys.data.length === STAT_SLOTS * 8) {
        // `sys.data` is this call's own copy (offset 0): aligned for a view.
        this.openedStat = new Float64Array(sys.data.buffer, sys.data.byteOffset, STAT_SLOTS);
        this.openedFd = opened;
        this.openedCall = sys.calls;
      }
    }
    return opened;
  }

  /**
   * CLOSE `fd`; a directory the glue opened or holds a listing of, and a
   * regular file, close without a call of their own.
   */
  close(fd: number): number {
    const { sys } = this;
    if (fd === this.endFd) this.endFd = -1;
    if (fd === this.openedFd) this.openedFd = -1;
    if (this.quiet.delete(fd)) {
      sys.deferClose(fd);
      return 0;
    }
    // A directory the kernel has not heard of yet closes here and now.
    if (sys.cancelOpen(fd)) {
      this.dirs.forget(fd);
      return 0;
    }
    // A directory we opened (its listing is here) closes with the next call.
    if (this.dirs.forget(fd)) {
      sys.deferClose(fd);
      return 0;
    }
    return sys.call(Sys.CLOSE, [fd]);
  }

  /**
   * READDIR of `fd` from `cookie`: the entries (kernel READDIR format, at
   * least `maxBytes` worth when there are that many) or an errno. The bytes
   * are valid until the next call.
   */
  readdir(fd: number, cookie: number, maxBytes: number): Uint8Array | number {
    const held = this.dirs.from(fd, cookie);
    if (held) return held;
    const maxEntries = Math.min(Math.floor(maxBytes / 24) + 1, 65536);
    const e = this.sys.call(Sys.READDIR, [fd, cookie, maxEntries]);
    return e ? e : this.sys.data;
  }

  /** `fd` now names another file (dup2, renumber, pipe, dup): drop what was held for it. */
  replaced(fd: number): void {
    this.dirs.forget(fd);
    this.quiet.delete(fd);
    if (fd === this.endFd) this.endFd = -1;
    if (fd === this.openedFd) this.openedFd = -1;
  }

  /** A READ of regular file `fd` reached its end (the kernel's rets[0]). */
  sawEnd(fd: number): void {
    this.endFd = fd;
    this.endCall = this.sys.calls;
    this.endData = this.sys.dataVersion();
  }

  /**
   * Whether a read of `fd` now would return 0 for certain, once after a
   * read of it reached the end: no call since, or no file contents or
   * offsets changed up to the last reply (W_DATA). Whatever this process
   * learnt since came through a call, stamped then, so answering 0 here is
   * what the kernel would have answered at that reply. Once only: a
   * program polling a file for growth asks the kernel the next time.
   */
  atEnd(fd: number): boolean {
    if (fd !== this.endFd) return false;
    this.endFd = -1;
    return this.endCall === this.sys.calls || this.endData === this.sys.dataVersion();
  }

  /**
   * FSTAT of `fd` from the open that made it, if that open was the last
   * call (the stat slots, `STAT_SLOTS`); once.
   */
  fstat(fd: number): Float64Array | undefined {
    if (fd !== this.openedFd) return undefined;
    this.openedFd = -1;
    return this.openedCall === this.sys.calls ? this.openedStat : undefined;
  }

  /** PATH_STAT of (dirfd, path); on success the reply is in `sys.rets` and remembered for `statExt`. */
  stat(dirfd: number, path: Uint8Array, follow: number): number {
    const e = this.sys.call(Sys.PATH_STAT, [dirfd, follow], path);
    if (!e) this.stats.remember(dirfd, path, follow);
    return e;
  }
}
