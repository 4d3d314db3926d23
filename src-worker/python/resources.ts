/**
 * Where the Python runtime's files live (resources/python, built by
 * scripts/build-python.mjs) and loading them once per engine process into
 * SharedArrayBuffers every interpreter worker maps without a copy. From
 * TypeScript sources the realm script is bundled afresh, so tests run the
 * realm code as it is now.
 */
import { readFileSync } from 'node:fs';
import { defaultPythonDir, pythonAvailable } from '../programs/python.js';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The files of resources/python a worker maps into the realm (name in the realm → file). */
export const RUNTIME_FILES = {
  '/pyodide/pyodide.asm.wasm': 'pyodide.asm.wasm',
  '/pyodide/python_stdlib.zip': 'python_stdlib.zip',
  '/pyodide/pyodide-lock.json': 'pyodide-lock.json',
} as const;

export interface PythonRuntime {
  readonly dir: string;
  /** Scripts evaluated in the realm, in order: ours first (the prelude), then Pyodide's. */
  readonly scripts: readonly { readonly name: string; readonly source: string }[];
  /** Shared bytes of RUNTIME_FILES. */
  readonly files: readonly { readonly name: string; readonly sab: SharedArrayBuffer }[];
}

interface EsbuildLike {
  buildSync(opts: Record<string, unknown>): { outputFiles?: { text: string }[] };
}

function realmSource(dir: string): string {
  if (/\.ts(\?.*)?$/.test(import.meta.url)) {
    try {
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
      if (text) return text;
    } catch {
      // no esbuild: use the built realm
    }
  }
  return readFileSync(join(dir, 'realm.js'), 'utf8');
}

function toShared(bytes: Uint8Array): SharedArrayBuffer {
  const sab = new SharedArrayBuffer(bytes.length);
  new Uint8Array(sab).set(bytes);
  return sab;
}

const loaded = new Map<string, PythonRuntime>();

export function loadRuntime(dir = defaultPythonDir()): PythonRuntime {
  const done = loaded.get(dir);
  if (done) return done;
  if (!pythonAvailable(dir))
    throw new Error(`python runtime not built in ${dir} (run: node scripts/build-python.mjs)`);
  const rt: PythonRuntime = {
    dir,
    scripts: [
      { name: 'sandglass-realm.js', source: realmSource(dir) },
      { name: 'pyodide.asm.js', source: readFileSync(join(dir, 'pyodide.asm.js'), 'utf8') },
      { name: 'pyodide.js', source: readFileSync(join(dir, 'pyodide.js'), 'utf8') },
    ],
    files: Object.entries(RUNTIME_FILES).map(([name, file]) => ({
      name,
      sab: toShared(readFileSync(join(dir, file))),
    })),
  };
  loaded.set(dir, rt);
  return rt;
}
