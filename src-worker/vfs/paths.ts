/**
 * Path validation and splitting: the limits (PATH_MAX 4096 bytes including
 * the terminator, NAME_MAX 255) are checked before any walking, so a hostile
 * 1 MB path fails after one length test.
 */
import { Errno, fail } from '../base/errno.js';
import { isBytePath } from '../base/bytes.js';
import type { BytePath } from './types.js';

export const PATH_MAX = 4096;
export const NAME_MAX = 255;
/** Symlinks followed in one resolution before ELOOP (Linux's limit). */
export const MAX_SYMLINKS = 40;

/** Throw for paths no resolution may accept. */
export function checkPath(path: BytePath): void {
  if (typeof path !== 'string') fail(Errno.EINVAL, 'path is not a string');
  if (path.length === 0) fail(Errno.ENOENT, 'empty path');
  if (path.length >= PATH_MAX) fail(Errno.ENAMETOOLONG);
  if (!isBytePath(path)) fail(Errno.EINVAL, 'path is not a byte string');
  if (path.includes('\0')) fail(Errno.EINVAL, 'path contains NUL');
}

/** Non-empty components in order (`.` kept; the resolver skips it). */
export function splitPath(path: BytePath): string[] {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part.length === 0) continue;
    if (part.length > NAME_MAX) fail(Errno.ENAMETOOLONG);
    out.push(part);
  }
  return out;
}

/** Join a directory path and a name without doubling the slash at the root. */
export function joinPath(dir: BytePath, name: BytePath): BytePath {
  return dir === '/' ? '/' + name : dir + '/' + name;
}
