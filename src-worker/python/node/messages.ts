/** Messages between the kernel's Python pool and an interpreter worker. */
import type { PythonBootConfig } from '../resources.js';
import type { RealmScript } from './realmContext.js';

/**
 * Pool → worker, first (sent once the engine's runtime files are loaded, which the
 * worker's own start overlaps): what its interpreters boot from.
 */
export interface PythonSetupMessage {
  readonly type: 'setup';
  /** The realm's scripts, with V8's code cache once an earlier worker made one. */
  readonly scripts: readonly RealmScript[];
  /** Send the scripts' code cache with `ready` (the pool has none yet) unless V8 took the one given. */
  readonly wantCodeCache: boolean;
  /** Send the helper modules with `ready` (the pool has none yet). */
  readonly wantHelpers: boolean;
  readonly files: readonly { readonly name: string; readonly sab: SharedArrayBuffer }[];
  readonly boot: PythonBootConfig;
  /** Tiny wasm modules an earlier worker's first realm compiled at boot (realm/wasmHelpers.ts), by key. */
  readonly helpers: readonly { readonly key: string; readonly module: WebAssembly.Module }[];
}

/** Worker → pool. */
export type PythonWorkerMessage =
  | {
      readonly type: 'ready';
      readonly bootMs: number;
      /** V8's code cache of the realm's scripts, when asked for and the one given was not accepted. */
      readonly codeCache?: Uint8Array[];
      /** The tiny wasm modules its first realm compiled (see PythonSetupMessage.helpers), when asked for. */
      readonly helpers?: PythonSetupMessage['helpers'];
    }
  | { readonly type: 'failed'; readonly message: string }
  | { readonly type: 'done' };

/** Pool → worker: run the process (primitives and shared buffers only: they cross into the realm). */
export interface PythonRunMessage {
  readonly type: 'run';
  readonly job: string;
  /** The process's syscall channel. */
  readonly channel: SharedArrayBuffer;
  /** Int32 word 0: a signal number to raise in the interpreter (Pyodide's interrupt buffer). */
  readonly interrupt: SharedArrayBuffer;
}

/**
 * Pool → worker, after `done`: retire the realm that ran the process and boot
 * a new interpreter in a new realm (this thread and its compiled code stay).
 */
export interface PythonRecycleMessage {
  readonly type: 'recycle';
}

/** Pool → worker, after `setup`: the engine's compiled pyodide.asm.wasm (the worker boots once it has it). */
export interface PythonModuleMessage {
  readonly type: 'module';
  readonly module: WebAssembly.Module;
}

export type PythonPoolMessage =
  PythonSetupMessage | PythonModuleMessage | PythonRunMessage | PythonRecycleMessage;
