/**
 * Where the Python runtime's files live (resources/python, built by
 * scripts/build-python.mjs) and loading them once per engine process into
 * SharedArrayBuffers every interpreter worker maps without a copy. From
 * TypeScript sources the realm script is bundled afresh, so tests run the
 * realm code as it is now.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { defaultPythonDir, pythonAvailable } from '../programs/python.js';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { USER_HOME } from '../vfs/index.js';
import type { RealmScript } from './node/realmContext.js';

/** The files of resources/python a worker maps into the realm (name in the realm → file). */
export const RUNTIME_FILES = {
  '/pyodide/python_stdlib.zip': 'python_stdlib.zip',
} as const;

/** Where the realm finds the memory snapshot (scripts/build-python.mjs writes it). */
export const SNAPSHOT_FILE = '/pyodide/snapshot.bin';
/** ... and which of its pages hold anything but zeros. */
export const SNAPSHOT_PAGES_FILE = '/pyodide/snapshot.pages';
/** Granularity of the page map (the host's page size). */
const PAGE = 4096;

/** How an interpreter boots (realm/index.ts BootConfig). */
export interface PythonBootConfig {
  /** pyodide-lock.json's text. */
  readonly lock: string;
  readonly stdlib: string;
  readonly home: string;
  /** realmCodeKey of the realm script. */
  readonly codeKey: string;
  readonly snapshot?: string;
  readonly snapshotPages?: string;
}

export interface PythonRuntime {
  readonly dir: string;
  /** Scripts evaluated in the realm, in order: ours first (the prelude), then Pyodide's. */
  readonly scripts: readonly RealmScript[];
  /** Shared bytes of RUNTIME_FILES (and the snapshot when built). */
  readonly files: readonly { readonly name: string; readonly sab: SharedArrayBuffer }[];
  readonly boot: PythonBootConfig;
  /** pyodide.asm.wasm compiled once, off the engine thread, for every interpreter. */
  readonly module: Promise<WebAssembly.Module>;
}

interface Manifest {
  readonly snapshot?: {
    readonly file: string;
    readonly boot: { readonly stdlib: string; readonly home: string };
  };
}

interface EsbuildLike {
  buildSync(opts: Record<string, unknown>): { outputFiles?: { text: string }[] };
}

/** src-worker/python/realm/ (TypeScript, and the .py files as text) bundled into one script (needs esbuild). */
export function bundleRealm(): string {
  const esbuild = createRequire(import.meta.url)('esbuild') as EsbuildLike;
  const r = esbuild.buildSync({
    entryPoints: [fileURLToPath(new URL('./realm/index.ts', import.meta.url))],
    bundle: true,
    platform: 'neutral',
    format: 'iife',
    target: 'es2022',
    loader: { '.py': 'text' },
    write: false,
    logLevel: 'silent',
  });
  const text = r.outputFiles?.[0]?.text;
  if (!text) throw new Error('python realm: esbuild wrote nothing');
  return text;
}

/** Names a realm script: the snapshot's compiled driver is reused only under the same key. */
export function realmCodeKey(source: string): string {
  return createHash('sha256').update(source).digest('hex').slice(0, 24);
}

function realmSource(dir: string): string {
  if (/\.ts(\?.*)?$/.test(import.meta.url)) {
    try {
      return bundleRealm();
    } catch {
      // no esbuild: use the built realm
    }
  }
  return readFileSync(join(dir, 'realm.js'), 'utf8');
}

/**
 * The page map realm/heapRestore.ts reads: the heap's offset in the snapshot
 * file (Pyodide's header: u32 at byte 4) and the page size as u32, then a
 * byte per page of the heap, 1 when it holds anything but zeros.
 */
export function snapshotPageMap(snapshot: Uint8Array): SharedArrayBuffer {
  const heapAt = new DataView(snapshot.buffer, snapshot.byteOffset, 8).getUint32(4, true);
  const pages = Math.ceil((snapshot.length - heapAt) / PAGE);
  const sab = new SharedArrayBuffer(8 + pages);
  const head = new DataView(sab, 0, 8);
  head.setUint32(0, heapAt, true);
  head.setUint32(4, PAGE, true);
  const flags = new Uint8Array(sab, 8);
  const zero = Buffer.alloc(PAGE);
  const all = Buffer.from(snapshot.buffer, snapshot.byteOffset, snapshot.length);
  for (let i = 0; i < pages; i++) {
    const page = all.subarray(heapAt + i * PAGE, heapAt + (i + 1) * PAGE);
    flags[i] = page.equals(zero.subarray(0, page.length)) ? 0 : 1;
  }
  return sab;
}

/** A file read straight into shared memory (no intermediate Buffer to copy from). */
function readShared(file: string): SharedArrayBuffer {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const sab = new SharedArrayBuffer(size);
    const bytes = new Uint8Array(sab);
    for (let at = 0; at < size;) {
      const n = readSync(fd, bytes, at, size - at, at);
      if (n <= 0) throw new Error(`python runtime: ${file} ended early`);
      at += n;
    }
    return sab;
  } finally {
    closeSync(fd);
  }
}

/** Suffix of V8's code cache of a realm script, written by scripts/build-python.mjs. */
export const CODE_CACHE_SUFFIX = '.v8cache';

/** The build's code cache of `file` (the first interpreter compiles from it; V8 ignores one that does not fit). */
function buildCodeCache(dir: string, file: string): { cache?: Uint8Array } {
  const p = join(dir, file + CODE_CACHE_SUFFIX);
  return existsSync(p) ? { cache: readFileSync(p) } : {};
}

const loaded = new Map<string, PythonRuntime>();

export function loadRuntime(dir = defaultPythonDir()): PythonRuntime {
  const done = loaded.get(dir);
  if (done) return done;
  if (!pythonAvailable(dir))
    throw new Error(`python runtime not built in ${dir} (run: node scripts/build-python.mjs)`);
  // Compiled off this thread while the files are read (a worker needs it only once it has started).
  const module = WebAssembly.compile(readFileSync(join(dir, 'pyodide.asm.wasm')));
  module.catch(() => {});
  const manifestPath = join(dir, 'manifest.json');
  const manifest = existsSync(manifestPath)
    ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest)
    : {};
  const files = Object.entries(RUNTIME_FILES).map(([name, file]) => ({
    name,
    sab: readShared(join(dir, file)),
  }));
  // The snapshot is only valid with the boot it was made with (same stdlib zip, same settings).
  const snap = manifest.snapshot;
  const hasSnapshot = snap !== undefined && existsSync(join(dir, snap.file));
  if (snap && hasSnapshot) {
    const sab = readShared(join(dir, snap.file));
    files.push({ name: SNAPSHOT_FILE, sab });
    files.push({ name: SNAPSHOT_PAGES_FILE, sab: snapshotPageMap(new Uint8Array(sab)) });
  }
  const lock = readFileSync(join(dir, 'pyodide-lock.json'), 'utf8');
  const realm = realmSource(dir);
  const codeKey = realmCodeKey(realm);
  const boot: PythonBootConfig =
    snap && hasSnapshot
      ? { ...snap.boot, lock, codeKey, snapshot: SNAPSHOT_FILE, snapshotPages: SNAPSHOT_PAGES_FILE }
      : { lock, codeKey, stdlib: '/pyodide/python_stdlib.zip', home: USER_HOME };
  const rt: PythonRuntime = {
    dir,
    scripts: [
      { name: 'sandglass-realm.js', source: realm, ...buildCodeCache(dir, 'realm.js') },
      ...['pyodide.asm.js', 'pyodide.js'].map((f) => ({
        name: f,
        source: readFileSync(join(dir, f), 'utf8'),
        ...buildCodeCache(dir, f),
      })),
    ],
    files,
    boot,
    module,
  };
  loaded.set(dir, rt);
  return rt;
}
