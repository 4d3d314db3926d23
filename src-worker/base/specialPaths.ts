/**
 * Paths the kernel serves itself rather than from the VFS tree (/proc,
 * /dev/fd): the kernel's path handlers and the guest's walk cache both
 * leave them alone.
 */

/** Fast check before computing an absolute path: could this name /proc or /dev/fd? */
export function maybeSpecial(path: string): boolean {
  return path.includes('proc') || path.includes('dev');
}
