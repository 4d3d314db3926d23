#!/usr/bin/env node
// Builds the command line into out/cli/ (the bundler is rolldown, the one
// vite uses): main.js as plain ES modules (bin/sandglass.mjs imports it),
// sdk.js (the TypeScript SDK, the package's export), one chunk per lazily
// loaded subcommand and the worker pool; oneShot-HASH.cjs, `run` and `exec`
// alone in one CommonJS file that bin/sandglass.mjs compiles through a V8
// code cache (bin/codeCache.mjs; the build runs one command to write the
// cache); and the worker threads' self-contained entries (workerEntry.cjs,
// pythonWorker.cjs) beside them (the kernel finds them there). npm packages
// stay external and load from node_modules. out/cli/build.json records the
// fingerprint of the sources it was built from (setup rebuilds when it
// changes), the size and mtime of each source file the bundles were made
// of (bin/sandglass.mjs stats just those to tell a stale build: ~3 ms
// against ~8 ms for walking every source tree), and the one-shot file's name.
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
  'bin/codeCache.mjs',
];
export const CLI_OUT = 'out/cli';
export const CLI_STAMP = 'build.json';
/**
 * Worker threads the engine starts, found beside the bundle by name
 * (proc/node/entryPath.ts). CommonJS: a thread then boots without Node's
 * ES module loader (~7 ms of CPU less per worker).
 */
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

/**
 * The fingerprint of the CLI's sources now. Tests are not built into it, so
 * editing one does not make out/cli stale (and a start stats ~100 files fewer).
 */
export function cliSourcesFingerprint(root = defaultRoot) {
  return fingerprint(root, CLI_SOURCES, (name) => name.endsWith('.test.ts'));
}

/** out/cli/build.json: `{ sources, inputs, oneShot }`, or undefined when there is no build. */
export function readCliStamp(root = defaultRoot) {
  try {
    return JSON.parse(fs.readFileSync(path.join(root, CLI_OUT, CLI_STAMP), 'utf8'));
  } catch {
    return undefined;
  }
}

/** The fingerprint out/cli was built from, or undefined when there is no build. */
export function builtCliFingerprint(root = defaultRoot) {
  return readCliStamp(root)?.sources;
}

/**
 * `[path relative to root, size, mtimeMs]` of each source file in `builds`'
 * chunks, and of the scripts that shape the build: what bin/sandglass.mjs
 * compares to call out/cli stale. A source no bundle imports cannot make
 * it stale; one that comes to be imported does so through an edit of a
 * file that was. A file changed after `startedMs` (during the build) is
 * recorded with mtime -1, so the build counts as stale.
 */
function buildInputs(root, builds, startedMs) {
  const files = new Set(CLI_SOURCES.filter((e) => e.endsWith('.mjs')));
  for (const b of builds)
    for (const chunk of b.output)
      for (const id of chunk.type === 'chunk' ? chunk.moduleIds : []) {
        const rel = path.relative(root, id);
        if (
          path.isAbsolute(id) &&
          !rel.startsWith('..') &&
          !rel.split(path.sep).includes('node_modules')
        )
          files.add(rel.split(path.sep).join('/'));
      }
  return [...files].sort().map((rel) => {
    const st = fs.statSync(path.join(root, rel));
    return [rel, st.size, st.mtimeMs < startedMs ? st.mtimeMs : -1];
  });
}

export async function buildCli(root = defaultRoot) {
  const startedMs = Date.now();
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
    // No comments and ASCII only: V8 keeps a bundle's source in memory
    // (for lazy compiles), one byte per character only if all are ASCII
    // (one `…` made the one-shot file's 0.7 MB a two-byte string), and a
    // start reads, hashes and scans less. Source maps keep the originals.
    comments: false,
    charset: 'ascii',
  };
  // The TypeScript SDK (package.json "exports": `import { Sandbox } from 'sandglass'`) shares
  // the engine's chunks and finds the worker entries beside it, as the CLI does.
  const builds = [];
  builds.push(
    await build({
      ...common,
      input: { main: 'src-worker/cli/main.ts', sdk: 'sdk/typescript/index.ts' },
      output,
    }),
  );
  // Each worker entry on its own, in one file: each worker thread then
  // loads only its code, none of the kernel's chunks it would share.
  for (const [name, source] of Object.entries(WORKER_ENTRIES))
    builds.push(
      await build({
        ...common,
        input: { [name]: source },
        output: { ...output, format: 'cjs', entryFileNames: '[name].cjs', codeSplitting: false },
      }),
    );
  // `run` and `exec` in one CommonJS file for the code cache (ES modules
  // have none on Node 20). The content hash in the name keeps a cache from
  // ever meeting another build's code (V8 checks only the source length).
  const oneShot = await build({
    ...common,
    input: { oneShot: 'src-worker/cli/oneShot.ts' },
    output: {
      ...output,
      format: 'cjs',
      entryFileNames: '[name]-[hash].cjs',
      codeSplitting: false,
      // undici (the network) is CommonJS: require it, as vm scripts cannot import().
      dynamicImportInCjs: false,
    },
  });
  builds.push(oneShot);
  const oneShotFile = oneShot.output[0].fileName;
  const inputs = buildInputs(root, builds, startedMs);
  fs.writeFileSync(
    path.join(outDir, CLI_STAMP),
    JSON.stringify({ sources, inputs, oneShot: oneShotFile }),
  );
  await writeOneShotCache(root);
}

/**
 * Runs one command with the fresh build so that its code cache is written
 * (bin/codeCache.mjs writes a missing cache after the command). Without
 * built wasm programs it fails; the first real run writes the cache then.
 */
async function writeOneShotCache(root) {
  // Loaded here: bin/sandglass.mjs imports this module on every start of a dev checkout.
  const { spawnSync } = await import('node:child_process');
  const r = spawnSync(process.execPath, [path.join(root, 'bin/sandglass.mjs'), 'run', '-c', ':'], {
    cwd: root,
    env: { ...process.env, SANDGLASS_ENGINE: 'off' },
    stdio: 'ignore',
    timeout: 60_000,
  });
  if (r.status !== 0)
    console.warn('build-cli: could not run the CLI once; its code cache is written on first use');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildCli();
}
