/**
 * The code cache of a process worker's entry. The CLI's build starts each
 * worker from a small loader (scripts/build-cli.mjs, `workerLoader`) that
 * compiles the entry's bundle with V8's code cache when there is one, and
 * otherwise leaves a function here that writes it. A worker calls
 * `saveWorkerCodeCache` once its first program has run, so the cache holds
 * the functions that program needed (the shell's start compiled ~6 ms of
 * the glue's JavaScript in every cold `sandglass run` without it).
 */
export const WORKER_CODE_CACHE = Symbol.for('sandglass.workerCodeCache');

/** Writes the entry's code cache if the loader asked for it (once per worker; a no-op otherwise). */
export function saveWorkerCodeCache(): void {
  const g = globalThis as { [WORKER_CODE_CACHE]?: () => void };
  const save = g[WORKER_CODE_CACHE];
  if (save === undefined) return;
  g[WORKER_CODE_CACHE] = undefined;
  save();
}
