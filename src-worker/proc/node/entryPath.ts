/**
 * Where the process worker's entry lives. In a bundle it is beside the engine
 * bundle (`workerEntry.cjs` in the CLI's build, `.js` in Electron's). From TypeScript sources (tests, CLI via tsx) the
 * entry is bundled once per engine process with esbuild (a dev dependency,
 * through tsx and vite) into a temp .mjs, so each worker boots as plain JS in
 * tens of ms instead of registering tsx per thread; without esbuild it falls
 * back to a bootstrap that registers tsx in the worker.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
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

const bundled = new Map<string, URL>();

/** Bundle the TypeScript entry `source` (a file URL) once per engine process. */
function bundleSourceEntry(source: URL): URL | undefined {
  const done = bundled.get(source.href);
  if (done) return done;
  let esbuild: EsbuildLike;
  try {
    esbuild = createRequire(import.meta.url)('esbuild') as EsbuildLike;
  } catch {
    return undefined;
  }
  const dir = mkdtempSync(join(tmpdir(), 'sandglass-worker-'));
  const outfile = join(dir, 'entry.mjs');
  esbuild.buildSync({
    entryPoints: [fileURLToPath(source)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'silent',
  });
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const url = pathToFileURL(outfile);
  bundled.set(source.href, url);
  return url;
}

const builtEntries = new Map<string, URL>();

/**
 * `<name>.cjs` beside this module (the CLI's build: CommonJS, so a thread
 * boots without Node's ES module loader, ~7 ms of CPU less), else
 * `<name>.js` (the Electron build's ES module entries).
 */
function builtEntry(name: string): URL {
  let url = builtEntries.get(name);
  if (!url) {
    url = new URL(`./${name}.cjs`, import.meta.url);
    if (!existsSync(url)) url = new URL(`./${name}.js`, import.meta.url);
    builtEntries.set(name, url);
  }
  return url;
}

/**
 * A worker entry of the engine: from sources, `source` (a .ts file URL)
 * bundled; built, the entry beside the engine bundle (`builtEntry`).
 */
export function engineEntry(source: URL, builtName: string): WorkerEntry {
  if (/\.ts(\?.*)?$/.test(import.meta.url)) {
    const url = bundleSourceEntry(source);
    if (url) return { url, execArgv: [] };
    return {
      url: new URL('./workerBoot.mjs', import.meta.url),
      workerData: { entry: source.href },
    };
  }
  return { url: builtEntry(builtName), execArgv: [] };
}

export function workerEntry(): WorkerEntry {
  return engineEntry(new URL('./workerEntry.ts', import.meta.url), 'workerEntry');
}
