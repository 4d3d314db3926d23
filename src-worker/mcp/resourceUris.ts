/**
 * The URIs of the sandboxes' files as MCP resources:
 * `sandbox://<sandbox_id>/<absolute path>`, each path segment
 * percent-encoded (`sandbox://sb1/home/user/notes%20v2.md`). The template
 * clients fill in is `sandbox://{sandbox_id}/{+path}` (RFC 6570: `+` keeps
 * the path's slashes). The MIME type of a file comes from its extension.
 */
import { extname } from 'node:path';
import { ResourceNotFoundError } from '@modelcontextprotocol/server';
import { normalizePath } from '../api/paths.js';
import { USER_HOME } from '../vfs/layout.js';

export const SCHEME = 'sandbox';
export const URI_TEMPLATE = `${SCHEME}://{sandbox_id}/{+path}`;

/** Folders of a sandbox that resources/list walks (the rest, /bin and /etc, is the system's). */
export const LISTED_ROOTS: readonly string[] = [USER_HOME, '/tmp'];

/** Whether a path is one resources/list walks. */
export function isListedPath(path: string): boolean {
  return LISTED_ROOTS.some((root) => path.startsWith(`${root}/`));
}

/** The resource URI of a file. */
export function resourceUri(sandboxId: string, path: string): string {
  const segments = path.split('/').filter((s) => s !== '');
  return `${SCHEME}://${encodeURIComponent(sandboxId)}/${segments.map(encodeURIComponent).join('/')}`;
}

/**
 * The sandbox and absolute path a resource URI names. What is not one names
 * no resource here: the SDK's not-found error (-32602 with the URI in data).
 */
export function parseResourceUri(uri: string): { sandboxId: string; path: string } {
  const m = /^sandbox:\/\/([^/?#]+)(\/[^?#]*)?$/i.exec(uri);
  const refuse = (why: string): never => {
    throw new ResourceNotFoundError(
      uri,
      `Resource not found: ${JSON.stringify(uri)} is ${why} (resources here are ${URI_TEMPLATE})`,
    );
  };
  if (!m) return refuse('not a sandbox:// URI');
  try {
    const sandboxId = decodeURIComponent(m[1] ?? '');
    const segments = (m[2] ?? '/').split('/').map(decodeURIComponent);
    if (segments.some((s) => s.includes('/') || s.includes('\0')))
      return refuse('not a file path (a segment holds an encoded slash or NUL)');
    return { sandboxId, path: normalizePath(`/${segments.filter((s) => s !== '').join('/')}`) };
  } catch {
    return refuse('badly percent-encoded');
  }
}

const MIME_TYPES: Readonly<Record<string, string>> = {
  '.txt': 'text/plain',
  '.log': 'text/plain',
  '.md': 'text/markdown',
  '.csv': 'text/csv',
  '.tsv': 'text/tab-separated-values',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.ts': 'text/x-typescript',
  '.py': 'text/x-python',
  '.sh': 'text/x-shellscript',
  '.c': 'text/x-c',
  '.h': 'text/x-c',
  '.rs': 'text/x-rust',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.toml': 'application/toml',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
  '.tar': 'application/x-tar',
  '.wasm': 'application/wasm',
  '.sgtl': 'application/octet-stream',
};

/** The MIME type a file's name suggests, if its extension is a known one. */
export function mimeTypeOf(path: string): string | undefined {
  return MIME_TYPES[extname(path).toLowerCase()];
}
