/**
 * Host folders an agent may import into a sandbox it creates. A person
 * allows them (`sandglass mcp --allow-import DIR[:ro]`, or one `DIR[:ro]`
 * per line in ~/.sandglass/mcp-imports for the workbench's /mcp); the agent
 * names a host path and gets a copy of it only when that path, with every
 * symlink resolved, lies inside an allowed folder. Anything else is refused
 * with the reason, before the sandbox is made.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { EngineError } from '../api/errors.js';

export interface AllowedImport {
  /** The folder, absolute and with its symlinks resolved. */
  readonly root: string;
  /** Imports from it are sealed read-only in the sandbox, whatever the agent asks. */
  readonly readOnly: boolean;
}

/** `DIR` or `DIR:ro` (`:rw` is accepted and means the default). The folder must exist. */
export function parseAllowedImport(spec: string): AllowedImport {
  const m = /^(.*?)(?::(ro|rw))?$/.exec(spec.trim());
  const dir = m?.[1] ?? '';
  if (dir === '')
    throw new Error(`--allow-import: expected DIR or DIR:ro, got ${JSON.stringify(spec)}`);
  let root: string;
  try {
    root = realpathSync(resolve(dir));
  } catch (e) {
    throw new Error(`--allow-import ${dir}: ${(e as Error).message}`, { cause: e });
  }
  if (!statSync(root).isDirectory()) throw new Error(`--allow-import ${dir}: not a directory`);
  return { root, readOnly: m?.[2] === 'ro' };
}

/** $SANDGLASS_MCP_IMPORTS_FILE, else ~/.sandglass/mcp-imports. */
export function defaultImportsFile(): string {
  return process.env.SANDGLASS_MCP_IMPORTS_FILE ?? join(homedir(), '.sandglass', 'mcp-imports');
}

/**
 * The folders listed in `file` (one `DIR[:ro]` a line, `#` comments), read
 * at each call so a change applies to the next sandbox. A missing file
 * allows nothing; a line naming no folder is skipped.
 */
export function readAllowedImports(file: string = defaultImportsFile()): AllowedImport[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const allowed: AllowedImport[] = [];
  for (const line of text.split('\n')) {
    const spec = line.trim();
    if (spec === '' || spec.startsWith('#')) continue;
    try {
      allowed.push(parseAllowedImport(spec));
    } catch {
      // A folder that went away allows nothing.
    }
  }
  return allowed;
}

/** A host folder cleared for import: its real path and whether it must be sealed. */
export interface ClearedImport {
  readonly hostPath: string;
  readonly readOnly: boolean;
}

/**
 * Clears `hostPath` for import or throws EACCES naming the allowed folders.
 * The path must be absolute; it is resolved (`..`, every symlink) before the
 * check, and the import then copies the resolved path, so a symlink inside
 * an allowed folder cannot lead out of it. Inside the copy, symlinks stay
 * symlinks resolved against the sandbox's root, never the host's.
 */
export function clearImport(
  allowed: readonly AllowedImport[],
  hostPath: string,
  wantReadOnly: boolean,
): ClearedImport {
  if (allowed.length === 0)
    throw new EngineError(
      'EACCES',
      'host imports are off: a person must allow folders (sandglass mcp --allow-import DIR[:ro], ' +
        'or ~/.sandglass/mcp-imports for the workbench)',
    );
  if (!isAbsolute(hostPath) || hostPath.includes('\0'))
    throw new EngineError(
      'EINVAL',
      `host_path must be an absolute host path, got ${JSON.stringify(hostPath)}`,
    );
  let real: string;
  try {
    real = realpathSync(hostPath);
  } catch (e) {
    const code = (e as { code?: string }).code ?? 'ENOENT';
    throw new EngineError(
      code,
      `host_path ${hostPath}: ${code === 'ENOENT' ? 'no such folder' : code}`,
    );
  }
  const within = allowed.find((a) => {
    const rel = relative(a.root, real);
    return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith('..' + sep));
  });
  if (!within)
    throw new EngineError(
      'EACCES',
      `host_path ${hostPath}${real !== hostPath ? ` (really ${real})` : ''} is outside the folders a ` +
        `person allowed: ${allowed.map((a) => a.root + (a.readOnly ? ':ro' : '')).join(', ')}`,
    );
  if (!statSync(real).isDirectory())
    throw new EngineError('ENOTDIR', `host_path ${hostPath}: not a directory`);
  return { hostPath: real, readOnly: within.readOnly || wantReadOnly };
}
