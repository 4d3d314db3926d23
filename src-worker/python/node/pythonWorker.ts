/**
 * Entry of a Python interpreter worker thread. It builds the interpreter's
 * realm, a `node:vm` context that holds no host capability: created from a
 * null-prototype object (so no property lookup reaches this realm's
 * Object), with eval and `new Function` disabled and no dynamic import
 * handler (so `import()` rejects). Into it go only scripts (text),
 * primitives and SharedArrayBuffers, and only before user code runs. It
 * boots Pyodide there, says ready, runs one process when told, and is then
 * ended by the pool: one interpreter per process.
 */
import { randomFillSync } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { loadRealm, type Realm } from './realmContext.js';
import type { PythonPoolMessage, PythonWorkerData, PythonWorkerMessage } from './messages.js';

/** Host entropy for the interpreter (hash seed, random's reseed, os.urandom); the kernel serves more. */
const SEED_BYTES = 16384;

const data = workerData as PythonWorkerData;
const post = (m: PythonWorkerMessage): void => parentPort?.postMessage(m);

let gotModule: (m: WebAssembly.Module) => void = () => {};
const module = new Promise<WebAssembly.Module>((ok) => (gotModule = ok));

async function boot(): Promise<Realm> {
  const t0 = performance.now();
  const loaded = loadRealm(data.scripts);
  const realm = loaded.realm;
  for (const f of data.files) realm.addFile(f.name, f.sab);
  realm.addModule(await module);
  const seed = new SharedArrayBuffer(SEED_BYTES);
  randomFillSync(new Uint8Array(seed));
  await realm.boot(seed, data.interrupt, JSON.stringify(data.boot));
  const bootMs = performance.now() - t0;
  // Taken before any user code runs: it holds only our scripts' compiled functions.
  post(
    data.wantCodeCache
      ? { type: 'ready', bootMs, codeCache: loaded.codeCache() }
      : { type: 'ready', bootMs },
  );
  return realm;
}

const booted = boot().catch((e: unknown) => {
  post({ type: 'failed', message: e instanceof Error ? e.message : String(e) });
  return undefined;
});

parentPort?.on('message', (m: PythonPoolMessage) => {
  if (m.type === 'module') {
    gotModule(m.module);
    return;
  }
  if (m.type !== 'run') return;
  void booted.then((realm) => {
    if (!realm) return;
    // After this call user code has run in the realm: never call into it again.
    realm.run(data.channel, String(m.job));
    post({ type: 'done' });
  });
});
