/**
 * Where the process worker's entry lives. In a bundle it is `workerEntry.js`
 * beside the engine bundle. From TypeScript sources (tests, CLI via tsx) the
 * entry is bundled once per engine process with esbuild (a dev dependency,
 * through tsx and vite) into a temp .mjs, so each worker boots as plain JS in
 * tens of ms instead of registering tsx per thread; without esbuild it falls
 * back to a bootstrap that registers tsx in the worker.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface WorkerEntry {
  readonly url: URL;
  readonly workerData?: { readonly entry: string };
  /** Node flags for the worker: none for plain JS (not the parent's loaders, e.g. tsx's). */
  readonly execArgv?: string[];
}

interface EsbuildLike {
  buildSync(opts: Record<string, unknown>): unknown;
}

let bundled: URL | undefined;

function bundleSourceEntry(here: string): URL | undefined {
  if (bundled) return bundled;
  let esbuild: EsbuildLike;
  try {
    esbuild = createRequire(here)('esbuild') as EsbuildLike;
  } catch {
    return undefined;
  }
  const dir = mkdtempSync(join(tmpdir(), 'sandglass-worker-'));
  const outfile = join(dir, 'workerEntry.mjs');
  esbuild.buildSync({
    entryPoints: [fileURLToPath(new URL('./workerEntry.ts', here))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'silent',
  });
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  bundled = pathToFileURL(outfile);
  return bundled;
}

export function workerEntry(): WorkerEntry {
  const here = import.meta.url;
  if (/\.ts(\?.*)?$/.test(here)) {
    const url = bundleSourceEntry(here);
    if (url) return { url, execArgv: [] };
    return {
      url: new URL('./workerBoot.mjs', here),
      workerData: { entry: new URL('./workerEntry.ts', here).href },
    };
  }
  return { url: new URL('./workerEntry.js', here), execArgv: [] };
}
