/**
 * `sandglass serve [--port N]`: the web workbench, as `npm start` starts it
 * where no Electron binary is installed — the engine in this process, the
 * built renderer (out/renderer) and the API on 127.0.0.1 behind a token.
 * Runs until SIGINT/SIGTERM.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from './options.js';

export const SERVE_USAGE = 'usage: sandglass serve [--port N]';

export interface ServeArgs {
  readonly port: number | undefined;
}

export function parseServeArgs(args: readonly string[]): ServeArgs {
  let port: number | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    const v = a === '--port' ? args[++i] : a.startsWith('--port=') ? a.slice(7) : undefined;
    if (v === undefined) throw new UsageError(`unexpected argument ${a}`);
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0 || n > 65535)
      throw new UsageError(`--port: expected a port number, got ${v}`);
    port = n;
  }
  return { port };
}

/** The repository root, from src-worker/cli (sources) or out/cli (built). */
function repoRoot(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
}

/** Starts the server; resolves once it listens (it prints its URL). */
export async function runServe(args: ServeArgs): Promise<void> {
  const root = repoRoot();
  const renderer = process.env.SANDGLASS_RENDERER_DIR ?? join(root, 'out', 'renderer');
  if (!existsSync(join(renderer, 'index.html')))
    throw new Error(`${renderer}/index.html is missing; run \`npm run setup\` first`);
  process.env.SANDGLASS_RENDERER_DIR = renderer;
  if (args.port !== undefined) process.env.SANDGLASS_PORT = String(args.port);
  // The web-mode entry starts the engine and server on import and stays up.
  await import('../server/main.js');
}
