/** Resolves and types files of the built renderer, refusing anything outside its folder. */
import { realpath, readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.ttf': 'font/ttf',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.map': 'application/json',
};

export function contentType(path: string): string {
  return TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/** Returns the file for a URL path, or null when missing or outside `root`. */
export async function loadStatic(
  root: string,
  urlPath: string,
): Promise<{ path: string; body: Buffer } | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const rootReal = await realpath(resolve(root)).catch(() => null);
  if (rootReal === null) return null;
  const candidate = resolve(join(rootReal, decoded));
  const real = await realpath(candidate).catch(() => null);
  if (real === null || (real !== rootReal && !real.startsWith(rootReal + sep))) return null;
  const info = await stat(real).catch(() => null);
  if (info === null || !info.isFile()) return null;
  return { path: real, body: await readFile(real) };
}
