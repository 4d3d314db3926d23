/**
 * What the MCP server keeps on the host, under ~/.sandglass: the bearer
 * token, in a file only its user can read (mode 0600 in a 0700 directory),
 * so agent configurations can read it (`$(cat ~/.sandglass/mcp-token)`) and
 * stay valid across restarts; and the timeline files agents export.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** $SANDGLASS_MCP_TOKEN_FILE, else ~/.sandglass/mcp-token. */
export function defaultTokenFile(): string {
  return process.env.SANDGLASS_MCP_TOKEN_FILE ?? join(homedir(), '.sandglass', 'mcp-token');
}

/** $SANDGLASS_EXPORT_DIR, else ~/.sandglass/exports: where timeline_export writes. */
export function defaultExportDir(): string {
  return process.env.SANDGLASS_EXPORT_DIR ?? join(homedir(), '.sandglass', 'exports');
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{32,256}$/;

/**
 * The token in `file`, or a new one written there. An existing file that
 * others can read, or that holds something else, is replaced: a token seen
 * by other users is no secret.
 */
export async function loadOrCreateToken(file: string = defaultTokenFile()): Promise<string> {
  try {
    const info = await stat(file);
    const text = (await readFile(file, 'utf8')).trim();
    if ((info.mode & 0o077) === 0 && TOKEN_SHAPE.test(text)) return text;
  } catch {
    // Missing or unreadable: make a new one.
  }
  const token = randomBytes(32).toString('base64url');
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, `${token}\n`, { mode: 0o600 });
  // writeFile keeps the mode of a file that already existed.
  await chmod(file, 0o600);
  return token;
}
