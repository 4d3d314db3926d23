/**
 * Path resolution over an inode table: `.`/`..` (never above the root),
 * symlinks (ELOOP after 40), search permission on every directory walked,
 * trailing slashes, and the PATH_MAX/NAME_MAX limits checked before any
 * work. Pure functions of the table they are given.
 */
import { Errno, fail } from '../base/errno.js';
import { ROOT_INO, permits, type Inode } from './inode.js';
import { MAX_SYMLINKS, checkPath, splitPath } from './paths.js';
import { hamtGet } from './hamt.js';
import type { BytePath, Cred, Ino } from './types.js';

/** Where nodes come from (the current table of a VFS). */
export interface NodeSource {
  node(ino: Ino): Inode | undefined;
}

export function getNode(src: NodeSource, ino: Ino): Inode {
  const n = typeof ino === 'number' ? src.node(ino) : undefined;
  if (!n) fail(Errno.ENOENT, `inode ${String(ino)}`);
  return n;
}

export function rootOf(src: NodeSource): Inode {
  return getNode(src, ROOT_INO);
}

export /** Result of a walk that stops before the final component. */
interface Walked {
  /** Directory holding the final component. */
  dir: Inode;
  /** Final component (`.` when the path had none, e.g. `/`). */
  name: BytePath;
  /** The node the final component names, if any (a symlink is not followed). */
  node: Inode | undefined;
  trailingSlash: boolean;
  /** Symlinks followed so far. */
  links: number;
}

export function parentOf(src: NodeSource, dir: Inode): Inode {
  if (dir.ino === ROOT_INO) return dir;
  const link = dir.links[0];
  if (!link) fail(Errno.ENOENT, 'directory was removed');
  return getNode(src, link.parent);
}

export function child(src: NodeSource, dir: Inode, name: BytePath): Inode | undefined {
  if (!dir.entries || dir.nlink === 0) return undefined;
  const ino = hamtGet(dir.entries, name);
  return ino === undefined ? undefined : src.node(ino);
}

/**
 * Walk `path` from `base`. With `wantParent` it stops at the final component
 * (not following it) and returns its directory and name; otherwise it
 * resolves everything and returns the node in both `dir` and `node`.
 */
export function walk(
  src: NodeSource,
  path: BytePath,
  base: Inode,
  cred: Cred,
  follow: boolean,
  wantParent: boolean,
  linksIn: number,
): Walked {
  checkPath(path);
  const trailingSlash = path.length > 1 && path.charCodeAt(path.length - 1) === 47;
  const stack = splitPath(path).reverse();
  let cur = path.charCodeAt(0) === 47 ? rootOf(src) : base;
  let links = linksIn;
  while (stack.length > 0) {
    const name = stack.pop() as string;
    const isLast = stack.length === 0;
    if (cur.kind !== 'dir') fail(Errno.ENOTDIR);
    if (!permits(cur, cred, 1)) fail(Errno.EACCES);
    if (isLast && wantParent) {
      const node = name === '.' ? cur : name === '..' ? parentOf(src, cur) : child(src, cur, name);
      return { dir: cur, name, node, trailingSlash, links };
    }
    if (name === '.') continue;
    if (name === '..') {
      cur = parentOf(src, cur);
      continue;
    }
    const next = child(src, cur, name);
    if (!next) fail(Errno.ENOENT);
    if (next.kind === 'symlink' && (!isLast || follow || trailingSlash)) {
      if (++links > MAX_SYMLINKS) fail(Errno.ELOOP);
      const target = next.target;
      const parts = splitPath(target);
      for (let i = parts.length - 1; i >= 0; i--) stack.push(parts[i] as string);
      if (target.charCodeAt(0) === 47) cur = rootOf(src);
      continue;
    }
    cur = next;
  }
  if (trailingSlash && cur.kind !== 'dir') fail(Errno.ENOTDIR);
  return { dir: cur, name: '.', node: cur, trailingSlash, links };
}

/** Parent-mode walk that then follows a final symlink (when asked or forced by a trailing slash). */
export function walkFollow(
  src: NodeSource,
  path: BytePath,
  base: Inode,
  cred: Cred,
  follow: boolean,
): Walked {
  let w = walk(src, path, base, cred, false, true, 0);
  while (w.node && w.node.kind === 'symlink' && (follow || w.trailingSlash)) {
    if (w.links + 1 > MAX_SYMLINKS) fail(Errno.ELOOP);
    const slash = w.trailingSlash;
    w = walk(src, w.node.target, w.dir, cred, false, true, w.links + 1);
    w.trailingSlash = w.trailingSlash || slash;
  }
  if (w.node && w.trailingSlash && w.node.kind !== 'dir') fail(Errno.ENOTDIR);
  return w;
}
