/**
 * The interpreter's JS realm: a `node:vm` context made from a null-prototype
 * object, so a lookup on its global that misses falls through to the
 * context's own builtins, never to an object of the creating realm; with
 * code generation from strings disabled (no eval, no `Function(...)`), and
 * scripts compiled without an `importModuleDynamically` handler, so
 * `import()` inside rejects. Only text, primitives and SharedArrayBuffers
 * may be handed in (see docs/python.md).
 */
import vm from 'node:vm';

export function createRealmContext(): vm.Context {
  return vm.createContext(Object.create(null) as object, {
    name: 'sandglass-python',
    codeGeneration: { strings: false, wasm: true },
  });
}

/** The object `realm/index.ts` defines as `sandglassRealm` (its calls take primitives and shared buffers only). */
export interface Realm {
  addFile(name: string, sab: SharedArrayBuffer): void;
  addModule(module: WebAssembly.Module): void;
  /** Tiny wasm modules compiled by an earlier realm's boot (realm/wasmHelpers.ts), by key. */
  addHelper(key: string, module: WebAssembly.Module): void;
  helperKeys(): string;
  helper(key: string): WebAssembly.Module | undefined;
  /** `retired`: an Int32 word the worker sets when it is done with the realm (realm/index.ts). */
  boot(seed: SharedArrayBuffer, retired: SharedArrayBuffer, config: string): Promise<void>;
  /** `interrupt`: Int32 word 0, a signal number to raise (Pyodide's interrupt buffer). */
  run(channel: SharedArrayBuffer, interrupt: SharedArrayBuffer, job: string): void;
  makeSnapshot(): Uint8Array;
}

export interface RealmScript {
  readonly name: string;
  readonly source: string;
  /** V8's code cache of this source (from `LoadedRealm.codeCache`); a stale one is ignored. */
  readonly cache?: Uint8Array;
}

export interface LoadedRealm {
  readonly realm: Realm;
  /**
   * V8's code cache of each script, holding the functions compiled so far:
   * taken after a boot (before any user code), it lets the next realm skip
   * parsing and compiling Pyodide's 1.2 MB of JavaScript.
   */
  codeCache(): Uint8Array[];
}

/**
 * The realm's scripts compiled once: each `load` evaluates them in a new
 * context. A compiled script is bound to no context (its functions are
 * created per context), so a worker that boots one realm after another
 * parses and compiles Pyodide's JavaScript once.
 */
export interface CompiledRealm {
  load(): LoadedRealm;
  /** Every script was compiled from a code cache V8 accepted (a new one would add little). */
  readonly cached: boolean;
}

export function compileRealm(scripts: readonly RealmScript[]): CompiledRealm {
  const compiled = scripts.map(
    (s) =>
      new vm.Script(s.source, {
        filename: s.name,
        ...(s.cache ? { cachedData: s.cache } : {}),
      }),
  );
  return {
    cached: compiled.every((c, i) => scripts[i]?.cache !== undefined && !c.cachedDataRejected),
    load(): LoadedRealm {
      const ctx = createRealmContext();
      for (const script of compiled) script.runInContext(ctx);
      return {
        realm: vm.runInContext('sandglassRealm', ctx) as Realm,
        codeCache: () => compiled.map((s) => s.createCachedData()),
      };
    },
  };
}
