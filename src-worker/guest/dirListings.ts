/**
 * Directory listings that arrived with their open: path_open with
 * O_DIRECTORY asks the kernel for the first entries in the same round trip
 * (OPEN's prefetch), and fd_readdir serves them from here. A directory walk
 * (find, ls -R, du, rm -r) then costs one round trip per directory less.
 *
 * The kernel snapshots a listing when it is read from cookie 0, so these
 * bytes are exactly what READDIR would answer for the same cookies. Cookie 0
 * is served once: asking for it again is a rewinddir, which must see the
 * directory as it is now, so it goes to the kernel.
 */

/** Entries are in the kernel's READDIR format (see `putDirents`). */
interface Listing {
  readonly data: Uint8Array;
  /** Byte offset of entry i, one extra slot for the end; found when first needed. */
  offsets: number[] | undefined;
  fresh: boolean;
}

/** Where each entry of a READDIR listing starts (and where the last ends). */
function entryOffsets(data: Uint8Array): number[] {
  const offsets = [0];
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let off = 0;
  while (off + 24 <= data.length) {
    off += 24 + dv.getUint32(off + 16, true);
    offsets.push(off);
  }
  return offsets;
}

export class DirListings {
  private readonly byFd = new Map<number, Listing>();

  /** Keep a complete listing of `fd`. */
  store(fd: number, data: Uint8Array): void {
    this.byFd.set(fd, { data, offsets: undefined, fresh: true });
  }

  /** Entries from `cookie` on, or undefined when the kernel must answer. */
  from(fd: number, cookie: number): Uint8Array | undefined {
    const l = this.byFd.get(fd);
    if (!l) return undefined;
    if (cookie === 0 && !l.fresh) {
      this.byFd.delete(fd);
      return undefined;
    }
    l.fresh = false;
    if (cookie === 0) return l.data;
    const offsets = (l.offsets ??= entryOffsets(l.data));
    return l.data.subarray(offsets[Math.min(cookie, offsets.length - 1)] as number);
  }

  /** `fd` was closed or now names another file; true if it was a listed directory. */
  forget(fd: number): boolean {
    return this.byFd.delete(fd);
  }
}
