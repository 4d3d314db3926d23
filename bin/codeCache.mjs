// Loads a CommonJS bundle through a V8 code cache kept beside it
// (FILE.cache): with the cache, V8 deserializes the bytecode of every
// function the last uncached run compiled instead of parsing and compiling
// them again (Node 20 has no code cache for ES modules, and no
// module.enableCompileCache). V8 refuses a cache made by another V8 version
// or with other V8 flags and compiles as usual; the caller then calls
// `saveCache()` once the command has run, so the new cache holds the
// functions that run compiled. V8 checks only the source's length, so the
// bundle's name must change with its content (the build puts a hash in it).
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import vm from 'node:vm';

/**
 * FILE.cache, or FILE.HASH.cache when Node runs with options (V8 refuses a
 * cache made under other flags, so `NODE_OPTIONS=--max-old-space-size=...`
 * would otherwise rewrite the shared cache on every run).
 */
function cachePath(file) {
  const options = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join('\0');
  if (options === '') return `${file}.cache`;
  let h = 0x811c9dc5; // FNV-1a
  for (let i = 0; i < options.length; i++) h = Math.imul(h ^ options.charCodeAt(i), 0x01000193);
  return `${file}.${(h >>> 0).toString(16)}.cache`;
}

/**
 * `require(file)` compiled with its code cache. Returns the module's
 * exports and `saveCache`, which writes a missing or refused cache (a
 * no-op otherwise, and when the directory is read-only).
 */
export function requireCached(file) {
  const cacheFile = cachePath(file);
  const source = readFileSync(file, 'utf8');
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  // Node's own CommonJS wrapper, on the first line so positions stay put.
  const script = new vm.Script(
    `(function (exports, require, module, __filename, __dirname) {${source}\n})`,
    { filename: file, cachedData },
  );
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
  const stale = cachedData === undefined || script.cachedDataRejected === true;
  const saveCache = () => {
    if (!stale) return;
    // Another process may be writing the same cache: write aside, then rename over.
    const tmp = `${cacheFile}.${process.pid}`;
    try {
      writeFileSync(tmp, script.createCachedData());
      renameSync(tmp, cacheFile);
    } catch {
      rmSync(tmp, { force: true });
    }
  };
  return { exports: module.exports, saveCache };
}
