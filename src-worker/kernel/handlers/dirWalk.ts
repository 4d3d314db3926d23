/**
 * Directory walks without a round trip per directory. A directory's open
 * answers with its listing and, within a byte budget the glue asks for,
 * the listings of the directories a depth-first walk in readdir order opens
 * next: the opened directory's subtree, then its later siblings and their
 * subtrees. The glue keeps them (`DirTree`) and, while the namespace version
 * stays the same, serves those opens itself; it tells the kernel with
 * ADOPT_DIRS before its next request, so the descriptor table is the same
 * as if every open had been a call of its own.
 *
 * Reply (OPEN with args[6] = max entries, args[7] = budget): data holds the
 * opened directory's READDIR entries (rets[2] bytes), then `rets[4]`
 * records: rel length u32, rel path bytes, ino f64, entries length u32,
 * READDIR entries from cookie 0. Rel paths are relative to the opened path
 * with `rets[3]` (0 or 1) trailing components removed; -1 = no records.
 */
import type { Reply } from '../../channel/server.js';
import { ROOT_FD } from '../../base/syscalls.js';
import { ListDirFile } from '../../fd/listFile.js';
import type { DirListEntry, OpenFile } from '../../fd/openFile.js';
import { childEntries, DirFile, dotEntries } from '../../fd/vfsFile.js';
import type { Process } from '../../proc/process.js';
import type { BytePath, DirEntry, Vfs } from '../../vfs/index.js';
import { Errno, fail } from '../../base/errno.js';
import { direntsSize, putDirents } from './files.js';

const R_OK = 4;
const X_OK = 1;
/** Record header bytes besides the rel path: its length, the ino, the entries' length. */
const RECORD_HEAD = 16;

/** A directory still to be recorded, with the parent it is listed in. */
interface Pending {
  readonly ino: number;
  readonly parent: number;
  readonly rel: BytePath;
}

/** The OPEN reply for a directory that asked for its listing (see the file comment). */
export function listingReply(
  vfs: Vfs,
  p: Process,
  fd: number,
  dir: OpenFile,
  dirfd: number,
  path: BytePath,
  maxEntries: number,
  budget: number,
  out: Uint8Array | undefined,
): Reply {
  const entries = dir.readdir(0);
  const complete = entries.length <= maxEntries;
  const count = Math.min(entries.length, maxEntries);
  const size = direntsSize(entries, count);
  const dst = out && size <= out.length ? out : new Uint8Array(size);
  const dv = new DataView(dst.buffer, dst.byteOffset, dst.byteLength);
  const end = putDirents(entries, 0, count, dst, dv, 0);
  if (!complete || budget <= 0 || dirfd !== ROOT_FD || dst !== out) {
    return { errno: 0, rets: [fd, complete ? 1 : 0, end, -1, 0], data: dst.subarray(0, end) };
  }
  const walk = recordWalk(
    vfs,
    p,
    dir.dirIno(),
    path,
    dst,
    dv,
    end,
    Math.min(dst.length, end + budget),
  );
  return {
    errno: 0,
    rets: [fd, 1, end, walk.up, walk.records],
    data: dst.subarray(0, walk.end),
  };
}

/** Split a root-relative path into plain names; undefined if it has `..`. */
function plainNames(path: BytePath): string[] | undefined {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') return undefined;
    out.push(part);
  }
  return out;
}

/** Index of `name` in a sorted listing, or -1. */
function indexOf(listing: readonly DirEntry[], name: string): number {
  let lo = 0;
  let hi = listing.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const n = (listing[mid] as DirEntry).name;
    if (n === name) return mid;
    if (n < name) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

function recordWalk(
  vfs: Vfs,
  p: Process,
  ino: number,
  path: BytePath,
  dst: Uint8Array,
  dv: DataView,
  start: number,
  limit: number,
): { up: number; records: number; end: number } {
  const cred = p.cred;
  const names = plainNames(path);
  if (!names) return { up: -1, records: 0, end: start };
  // Stack of directories to record, next on top: the opened directory's
  // children first, then (when its path ends in a real name of a listable
  // parent) the siblings after it.
  const stack: Pending[] = [];
  let up = 0;
  let prefix = '';
  const last = names[names.length - 1];
  if (last !== undefined) {
    const parent = siblingsAfter(vfs, p, names, last, ino);
    if (parent) {
      up = 1;
      prefix = last + '/';
      for (let i = parent.listing.length - 1; i > parent.index; i--) {
        const e = parent.listing[i] as DirEntry;
        if (e.kind === 'dir') stack.push({ ino: e.ino, parent: parent.ino, rel: e.name });
      }
    }
  }
  pushChildren(vfs, cred, ino, prefix, stack);
  let at = start;
  let records = 0;
  for (;;) {
    const d = stack.pop();
    if (!d) break;
    let kids: readonly DirListEntry[];
    try {
      kids = childEntries(vfs, d.ino, cred);
    } catch {
      continue; // not listable: its open goes to the kernel, which says why
    }
    const dots = dotEntries(d.ino, d.parent);
    const body = direntsSize(dots, 2) + direntsSize(kids, kids.length);
    if (at + RECORD_HEAD + d.rel.length + body > limit) break;
    dv.setUint32(at, d.rel.length, true);
    at += 4;
    for (let i = 0; i < d.rel.length; i++) dst[at + i] = d.rel.charCodeAt(i);
    at += d.rel.length;
    dv.setFloat64(at, d.ino, true);
    dv.setUint32(at + 8, body, true);
    at = putDirents(dots, 0, 2, dst, dv, at + 12);
    at = putDirents(kids, 2, kids.length, dst, dv, at);
    records++;
    pushChildren(vfs, cred, d.ino, d.rel + '/', stack);
  }
  return { up, records, end: at };
}

/** The opened directory's parent listing and its place there, if siblings may follow it. */
function siblingsAfter(
  vfs: Vfs,
  p: Process,
  names: string[],
  last: string,
  ino: number,
): { ino: number; listing: readonly DirEntry[]; index: number } | undefined {
  try {
    const parent = vfs.resolve(names.slice(0, -1).join('/') || '/', {
      cwd: p.fds.root().dirIno(),
      cred: p.cred,
      follow: true,
    });
    if (!vfs.accessIno(parent, X_OK, p.cred)) return undefined;
    const listing = vfs.readdirIno(parent, p.cred);
    const index = indexOf(listing, last);
    // Reached through a symlink: its siblings are not the directory's.
    if (index < 0 || (listing[index] as DirEntry).ino !== ino) return undefined;
    return { ino: parent, listing, index };
  } catch {
    return undefined;
  }
}

/** Push `dir`'s subdirectories (last first, so they pop in order) if it may be searched. */
function pushChildren(
  vfs: Vfs,
  cred: Process['cred'],
  dir: number,
  prefix: string,
  stack: Pending[],
): void {
  if (!vfs.accessIno(dir, X_OK, cred) || !vfs.accessIno(dir, R_OK, cred)) return;
  const listing = vfs.readdirIno(dir, cred);
  for (let i = listing.length - 1; i >= 0; i--) {
    const e = listing[i] as DirEntry;
    if (e.kind === 'dir') stack.push({ ino: e.ino, parent: dir, rel: prefix + e.name });
  }
}

/**
 * ADOPT_DIRS: install the directories the glue opened from held listings
 * (args: count, then fd and ino pairs) at the descriptors it gave them.
 */
export function adoptDirs(vfs: Vfs, p: Process, args: readonly number[]): void {
  const n = args[0] ?? 0;
  for (let i = 0; i < n; i++) {
    const fd = args[1 + 2 * i] ?? -1;
    const ino = args[2 + 2 * i] ?? -1;
    if (!p.fds.isFree(fd)) fail(Errno.EBADF, `adopted fd ${fd} is taken`);
    // Removed since the glue opened it: what is left of an unlinked directory.
    const file = vfs.exists(ino) ? new DirFile(vfs, ino, p.cred) : new ListDirFile([]);
    p.fds.set(fd, file);
  }
}
