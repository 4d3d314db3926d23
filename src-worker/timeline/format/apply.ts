/**
 * Builds trees of a loaded timeline file in a VFS: the origin replaces the
 * tree (kernel-served device nodes stay), and each step's changes apply to
 * its base step's snapshot. Entries were validated before (read.ts).
 */
import { Errno, KernelError } from '../../base/errno.js';
import { utf8ToPath, type BytePath, type Vfs } from '../../vfs/index.js';
import type { TreeEntry } from './schema.js';

function exists(vfs: Vfs, path: BytePath): ReturnType<Vfs['lstat']> | null {
  try {
    return vfs.lstat(path);
  } catch (err) {
    if (err instanceof KernelError && (err.errno === Errno.ENOENT || err.errno === Errno.ENOTDIR))
      return null;
    throw err;
  }
}

/** rm -rf of one path (absent is fine). */
function removeTree(vfs: Vfs, path: BytePath): void {
  const st = exists(vfs, path);
  if (!st) return;
  if (st.kind === 'dir') {
    for (const e of vfs.readdir(path)) removeTree(vfs, `${path}/${e.name}`);
    vfs.rmdir(path);
  } else vfs.unlink(path);
}

function parentOf(path: BytePath): BytePath {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

const depth = (p: string): number => p.split('/').length;

/** Deletes `deleted` (deepest first), then sets `set` (parents first). */
export function applyTree(
  vfs: Vfs,
  deleted: readonly string[],
  set: readonly TreeEntry[],
  blob: (hash: string) => Uint8Array,
): void {
  for (const p of [...deleted].sort((a, b) => depth(b) - depth(a))) removeTree(vfs, utf8ToPath(p));
  const dirs: TreeEntry[] = [];
  for (const e of set) {
    const path = utf8ToPath(e.path);
    const st = exists(vfs, path);
    if (st && (st.kind !== e.kind || e.kind === 'symlink')) removeTree(vfs, path);
    vfs.mkdirp(parentOf(path));
    if (e.kind === 'dir') {
      if (!st || st.kind !== 'dir') vfs.mkdir(path, e.mode);
      dirs.push(e);
    } else if (e.kind === 'file') {
      vfs.writeFile(path, blob(e.blob ?? ''), { mode: e.mode });
    } else {
      vfs.symlink(utf8ToPath(e.target ?? ''), path);
      continue;
    }
    vfs.chmod(path, e.mode);
    vfs.chown(path, e.uid, e.gid);
    if (e.kind === 'file') vfs.utimes(path, undefined, e.mtime);
  }
  // Directory times last: adding their children moved them.
  for (const e of dirs.reverse()) vfs.utimes(utf8ToPath(e.path), undefined, e.mtime);
}

/** Makes the tree exactly `origin`, keeping device nodes and the directories holding them. */
export function replaceTree(
  vfs: Vfs,
  origin: readonly TreeEntry[],
  blob: (hash: string) => Uint8Array,
): void {
  const wanted = new Set(origin.map((e) => utf8ToPath(e.path)));
  const stale: string[] = [];
  for (const c of vfs.diffContents(null)) {
    if (c.kind === 'chardev' || c.kind === 'fifo' || wanted.has(c.path)) continue;
    stale.push(c.path);
  }
  for (const p of stale.sort((a, b) => depth(b) - depth(a))) {
    const st = exists(vfs, p);
    if (!st) continue;
    if (st.kind === 'dir') {
      // Keep a directory that still holds device nodes.
      if (vfs.readdir(p).length === 0) vfs.rmdir(p);
    } else vfs.unlink(p);
  }
  applyTree(vfs, [], origin, blob);
}
