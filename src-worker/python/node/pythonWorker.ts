/**
 * Entry of a Python interpreter worker thread. It builds the interpreter's
 * realm, a `node:vm` context that holds no host capability: created from a
 * null-prototype object (so no property lookup reaches this realm's
 * Object), with eval and `new Function` disabled and no dynamic import
 * handler (so `import()` rejects). Into it go only scripts (text),
 * primitives and SharedArrayBuffers, and only before user code runs. It
 * boots Pyodide there, says ready, runs one process when told, and says
 * done. The pool then ends the worker, or has it recycle: the realm that ran
 * the process is retired (never called into again) and a new realm with a
 * new interpreter is booted in the same thread, which keeps only what is no
 * realm's: V8's compiled code of the scripts and the compiled wasm module.
 * One realm and one interpreter per process, either way.
 */
import { randomFillSync } from 'node:crypto';
import vm from 'node:vm';
import { parentPort } from 'node:worker_threads';
import { compileRealm, type Realm } from './realmContext.js';
import type { PythonPoolMessage, PythonSetupMessage, PythonWorkerMessage } from './messages.js';

/** Host entropy for the interpreter (hash seed, random's reseed, os.urandom); the kernel serves more. */
const SEED_BYTES = 16384;

const post = (m: PythonWorkerMessage): void => parentPort?.postMessage(m);

let gotSetup: (m: PythonSetupMessage) => void = () => {};
/** What interpreters boot from: the pool sends it once this thread runs (it loads the files meanwhile). */
const setup = new Promise<PythonSetupMessage>((ok) => (gotSetup = ok));
let gotModule: (m: WebAssembly.Module) => void = () => {};
const module = new Promise<WebAssembly.Module>((ok) => (gotModule = ok));
let wantCodeCache = true;
let wantHelpers = true;
/** Compiled when the first realm loads; every later realm of this worker evaluates the same scripts. */
let scripts: ReturnType<typeof compileRealm> | undefined;
/**
 * The tiny wasm modules a realm compiles at boot (realm/wasmHelpers.ts): those the pool had from an
 * earlier worker, and any more this worker's first realm compiled.
 */
const helpers = new Map<string, WebAssembly.Module>();

/** A booted realm and the word that retires it. */
interface Booted {
  readonly realm: Realm;
  readonly retired: Int32Array;
}

async function boot(): Promise<Booted> {
  const given = await setup;
  const t0 = performance.now();
  scripts ??= compileRealm(given.scripts);
  const loaded = scripts.load();
  const realm = loaded.realm;
  // Each realm adopts objects of its own (it sets their prototypes, and a process could have
  // given them properties): clones of the worker's, sharing the same memory and compiled code.
  for (const f of given.files) realm.addFile(f.name, structuredClone(f.sab));
  realm.addModule(structuredClone(await module));
  for (const [key, m] of helpers) realm.addHelper(key, structuredClone(m));
  const seed = new SharedArrayBuffer(SEED_BYTES);
  randomFillSync(new Uint8Array(seed));
  const retired = new SharedArrayBuffer(4);
  await realm.boot(seed, retired, JSON.stringify(given.boot));
  const bootMs = performance.now() - t0;
  // No user code has run in the realm yet: its modules are as it compiled them.
  for (const key of realm.helperKeys().split('\n')) {
    const m = key && !helpers.has(key) ? realm.helper(key) : undefined;
    if (m) helpers.set(key, structuredClone(m));
  }
  // Taken before any user code runs: the cache holds only our scripts' compiled functions. V8
  // took the build's (or an earlier worker's) cache: making another would only delay the first
  // process (~20-80 ms for Pyodide's 1.2 MB of JavaScript).
  post({
    type: 'ready',
    bootMs,
    ...(wantCodeCache && !scripts.cached ? { codeCache: loaded.codeCache() } : {}),
    ...(wantHelpers ? { helpers: [...helpers].map(([key, module]) => ({ key, module })) } : {}),
  });
  wantCodeCache = false;
  wantHelpers = false;
  collectWhenIdle();
  return { realm, retired: new Int32Array(retired) };
}

function booting(): Promise<Booted | undefined> {
  return boot().catch((e: unknown) => {
    post({ type: 'failed', message: e instanceof Error ? e.message : String(e) });
    return undefined;
  });
}

/**
 * Once an interpreter has booted and waited this long for a process, the
 * thread collects its garbage: the realms it retired (each holds its heap,
 * 30 MiB and more, which V8 counts as external memory and collects only
 * every few boots) would otherwise stay resident while the pool is idle.
 * Never on the way of a process: a run cancels it, and a drained pool's
 * back-to-back boots leave collection to V8.
 */
const IDLE_GC_MS = 250;
let idleGc: NodeJS.Timeout | undefined;

function collectWhenIdle(): void {
  clearTimeout(idleGc);
  idleGc = setTimeout(() => {
    // V8 measures memory eagerly with a full garbage collection. (Node calls the API
    // experimental, once per thread, on the engine's stderr: not a warning for its users.)
    const warn = process.emitWarning;
    process.emitWarning = () => {};
    try {
      vm.measureMemory({ mode: 'summary', execution: 'eager' }).catch(() => undefined);
    } finally {
      process.emitWarning = warn;
    }
  }, IDLE_GC_MS);
  idleGc.unref();
}

let current = booting();

parentPort?.on('message', (m: PythonPoolMessage) => {
  if (m.type === 'setup') {
    wantCodeCache = m.wantCodeCache;
    wantHelpers = m.wantHelpers;
    for (const h of m.helpers) helpers.set(h.key, h.module);
    gotSetup(m);
  } else if (m.type === 'module') {
    gotModule(m.module);
  } else if (m.type === 'run') {
    clearTimeout(idleGc);
    void current.then((b) => {
      if (!b) return;
      // After this call user code has run in the realm: never call into it again.
      b.realm.run(m.channel, m.interrupt, String(m.job));
      // Said once the realm's pending promise jobs have run (a macrotask later):
      // a realm that keeps queueing them never says done and is not recycled.
      setImmediate(() => post({ type: 'done' }));
    });
  } else if (m.type === 'recycle') {
    current = current.then((old) => {
      if (old) Atomics.store(old.retired, 0, 1);
      return booting();
    });
  }
});
