#!/usr/bin/env node
// Builds the command line into out/cli/ as plain ES modules (the bundler is
// rolldown, the one vite uses): main.js (bin/sandglass.mjs imports it), sdk.js
// (the TypeScript SDK, the package's export), one
// chunk per lazily loaded subcommand and the worker pool, and the process
// worker's self-contained workerEntry.js beside them (the kernel finds it
// there). npm packages stay external and load
// from node_modules. out/cli/build.json records the fingerprint of the sources
// it was built from, so bin/sandglass.mjs can tell when it is stale.
//
//   node scripts/build-cli.mjs    (setup runs it when the sources change)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fingerprint } from './fingerprint.mjs';

const defaultRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** What the compiled CLI is made from. */
export const CLI_SOURCES = [
  'src-worker',
  'sdk/typescript',
  'scripts/build-cli.mjs',
  'scripts/fingerprint.mjs',
];
export const CLI_OUT = 'out/cli';
export const CLI_STAMP = 'build.json';
/** Worker threads the engine starts, found beside the bundle by name (proc/node/entryPath.ts). */
export const WORKER_ENTRIES = {
  workerEntry: 'src-worker/proc/node/workerEntry.ts',
  pythonWorker: 'src-worker/python/node/pythonWorker.ts',
};

/**
 * npm packages compiled into the bundle rather than loaded from node_modules:
 * the engine loads them on every start, and zod alone is ~100 ES modules to
 * resolve, read and compile one by one (~80 ms of a cold `sandglass run`).
 */
export const BUNDLED_PACKAGES = ['zod', 'ipaddr.js', 'fflate'];

/** `zod/v4/core` -> `zod`, `@scope/name/x` -> `@scope/name`. */
function packageOf(id) {
  const parts = id.split('/');
  return id.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** The fingerprint of the CLI's sources now. */
export function cliSourcesFingerprint(root = defaultRoot) {
  return fingerprint(root, CLI_SOURCES);
}

/** The fingerprint out/cli was built from, or undefined when there is no build. */
export function builtCliFingerprint(root = defaultRoot) {
  try {
    return JSON.parse(fs.readFileSync(path.join(root, CLI_OUT, CLI_STAMP), 'utf8')).sources;
  } catch {
    return undefined;
  }
}

export async function buildCli(root = defaultRoot) {
  const sources = cliSourcesFingerprint(root);
  const outDir = path.join(root, CLI_OUT);
  const { build } = await import('rolldown');
  fs.rmSync(outDir, { recursive: true, force: true });
  const common = {
    cwd: root,
    platform: 'node',
    // Bare specifiers are npm packages (or node: built-ins): load them at run time,
    // except the small ones every command loads, bundled in (BUNDLED_PACKAGES).
    external: (id) =>
      !id.startsWith('.') && !path.isAbsolute(id) && !BUNDLED_PACKAGES.includes(packageOf(id)),
    logLevel: 'warn',
  };
  const output = {
    dir: outDir,
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: '[name]-[hash].js',
    sourcemap: true,
  };
  // The TypeScript SDK (package.json "exports": `import { Sandbox } from 'sandglass'`) shares
  // the engine's chunks and finds the worker entries beside it, as the CLI does.
  await build({
    ...common,
    input: { main: 'src-worker/cli/main.ts', sdk: 'sdk/typescript/index.ts' },
    output,
  });
  // Each worker entry on its own, in one file: each worker thread then
  // loads only its code, none of the kernel's chunks it would share.
  for (const [name, source] of Object.entries(WORKER_ENTRIES))
    await build({
      ...common,
      input: { [name]: source },
      output: { ...output, codeSplitting: false },
    });
  fs.writeFileSync(path.join(outDir, CLI_STAMP), JSON.stringify({ sources }));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildCli();
}
