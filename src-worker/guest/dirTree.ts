/**
 * Listings of directories a walk will open next, which came with an earlier
 * directory's open (see kernel/handlers/dirWalk.ts). While the namespace
 * version stamped on the latest reply is the one they came with, opening
 * one of them needs no round trip: the glue numbers the descriptor as the
 * kernel would, serves its fd_readdir from the listing, and tells the kernel
 * with its next request (`ChannelClient.deferOpen`). A walk such as `find`
 * then costs a few round trips in all instead of one per directory.
 *
 * Only plain opens are served: O_DIRECTORY alone, no fd flags, against the
 * root preopen, by a path of plain names that cannot name /proc or /dev
 * (the kernel serves those itself).
 */
import type { ChannelClient } from '../channel/client.js';
import { maybeSpecial } from '../base/specialPaths.js';
import type { DirListings } from './dirListings.js';

/** Bytes of listings asked for with the first walk step, doubled while they get used. */
const MIN_BUDGET = 8 * 1024;
const MAX_BUDGET = 512 * 1024;
/** Held listings beyond this many bytes are dropped (a walk eats them as it goes). */
const MAX_HELD = 4 * 1024 * 1024;
/** Longest run of opens that ask for nothing after a prefetch went unused. */
const MAX_BACKOFF = 64;

interface Held {
  readonly ino: number;
  readonly data: Uint8Array;
}

/** True if `path` is already names joined by single slashes (no `.`, `..`, empty names). */
function isPlain(path: Uint8Array): boolean {
  let start = 0;
  for (let i = 0; i <= path.length; i++) {
    if (i < path.length && path[i] !== 0x2f) continue;
    const n = i - start;
    if (n === 0) return false;
    if (path[start] === 0x2e && (n === 1 || (n === 2 && path[start + 1] === 0x2e))) return false;
    start = i + 1;
  }
  return true;
}

function byteString(bytes: Uint8Array): string {
  return String.fromCharCode.apply(null, bytes as unknown as number[]);
}

/** Path bytes to a cache key (names joined by `/`), or undefined if the path is not plain. */
export function walkKey(path: Uint8Array): string | undefined {
  let key: string;
  if (isPlain(path)) {
    key = byteString(path);
  } else {
    const names: string[] = [];
    for (const name of byteString(path).split('/')) {
      if (name === '..') return undefined;
      if (name !== '' && name !== '.') names.push(name);
    }
    key = names.join('/');
  }
  // The kernel serves /proc and /dev paths itself (see handlers/paths.ts).
  return maybeSpecial(key) ? undefined : key;
}

export class DirTree {
  private readonly held = new Map<string, Held>();
  private heldBytes = 0;
  private epoch = 0;
  private dirOpens = 0;
  private budget = 0;
  private hits = 0;
  private backoff = 0;
  private skip = 0;

  constructor(
    private readonly sys: ChannelClient,
    private readonly dirs: DirListings,
  ) {}

  /** Open the held directory `key` (see walkKey): the descriptor it got, or undefined (ask the kernel). */
  open(key: string): number | undefined {
    if (this.held.size === 0) return undefined;
    if (this.sys.epoch() !== this.epoch) {
      this.drop();
      return undefined;
    }
    const h = this.held.get(key);
    if (!h) return undefined;
    const fd = this.sys.lowestFreeFd();
    if (fd < 0) return undefined;
    this.held.delete(key);
    this.heldBytes -= h.data.length;
    this.sys.deferOpen(fd, h.ino);
    this.dirs.store(fd, h.data);
    this.hits++;
    return fd;
  }

  /**
   * Bytes of further listings to ask for with a directory open the kernel
   * makes. Nothing on a process's first one (most list one directory);
   * then a budget that doubles while listings get used and backs off
   * when they do not (a walk that changes the tree, like `rm -r`, makes
   * them stale before use).
   */
  budgetFor(key: string | undefined): number {
    if (this.dirOpens++ === 0 || key === undefined) return 0;
    if (this.budget > 0 && this.hits === 0) {
      this.backoff = Math.min(MAX_BACKOFF, Math.max(1, this.backoff * 2));
      this.skip = this.backoff;
      this.budget = 0;
    }
    if (this.skip > 0) {
      this.skip--;
      return 0;
    }
    if (this.hits > 0) this.backoff = 0;
    this.budget = this.hits > 0 ? Math.min(MAX_BUDGET, this.budget * 2) : MIN_BUDGET;
    this.hits = 0;
    return this.budget;
  }

  /** Keep the listings that came with a kernel open of `key` (reply: OPEN's rets and data). */
  absorb(key: string, rets: Float64Array, data: Uint8Array): void {
    const up = rets[3] as number;
    const count = rets[4] as number;
    if (up < 0 || count <= 0) return;
    const epoch = this.sys.epoch();
    if (epoch !== this.epoch || this.heldBytes > MAX_HELD) this.drop();
    this.epoch = epoch;
    const names = key === '' ? [] : key.split('/');
    const base = names.slice(0, names.length - up).join('/');
    const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
    let at = rets[2] as number;
    for (let i = 0; i < count && at + 16 <= data.length; i++) {
      const relLen = dv.getUint32(at, true);
      const rel = byteString(data.subarray(at + 4, at + 4 + relLen));
      at += 4 + relLen;
      const ino = dv.getFloat64(at, true);
      const len = dv.getUint32(at + 8, true);
      at += 12;
      const entries = data.subarray(at, at + len);
      at += len;
      const k = base === '' ? rel : `${base}/${rel}`;
      const old = this.held.get(k);
      if (old) this.heldBytes -= old.data.length;
      this.held.set(k, { ino, data: entries });
      this.heldBytes += entries.length;
    }
  }

  private drop(): void {
    this.held.clear();
    this.heldBytes = 0;
  }
}
