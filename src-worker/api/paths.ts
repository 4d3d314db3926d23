/** Path normalisation for API parameters: absolute, no `.`/`..`, no empty parts. */
import { EngineError } from './errors.js';

export function normalizePath(input: string): string {
  if (!input.startsWith('/'))
    throw new EngineError('EINVAL', `path must be absolute: ${JSON.stringify(input)}`);
  if (input.includes('\0')) throw new EngineError('EINVAL', 'path contains a NUL byte');
  const parts: string[] = [];
  for (const part of input.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return '/' + parts.join('/');
}

export function parentOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export function joinPath(dir: string, name: string): string {
  return dir === '/' ? `/${name}` : `${dir}/${name}`;
}
