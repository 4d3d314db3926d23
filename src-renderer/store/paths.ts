/** Path helpers for sandbox paths (always absolute, `/`-separated). */
export function parentOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

export function baseName(path: string): string {
  return path === '/' ? '/' : path.slice(path.lastIndexOf('/') + 1);
}

export function joinPath(dir: string, name: string): string {
  return dir === '/' ? `/${name}` : `${dir}/${name}`;
}

export function isInside(path: string, dir: string): boolean {
  return dir === '/' ? path.startsWith('/') : path === dir || path.startsWith(dir + '/');
}

/** A valid single path component typed by a user. */
export function validName(name: string): string | null {
  if (name === '' || name === '.' || name === '..') return 'name must not be empty, "." or ".."';
  if (name.includes('/')) return 'name must not contain "/"';
  if (name.includes('\0')) return 'name must not contain NUL';
  return null;
}
