/**
 * What a process runs: an image, resolved by exec (`exec.ts`) and started by
 * the runner factory registered for its `kind` (`proc/runner.ts`). The kernel
 * only reads the fields every kind has (`argv`, `name`); each kind's runner
 * reads the rest.
 */
import type { MemoryShape } from '../limits/memoryLimit.js';
import type { Role } from '../wasi/sandglass/roles.js';

/** Fields every image kind has. */
export interface ImageBase {
  readonly kind: string;
  readonly argv: Uint8Array[];
  /** Display name (argv[0] as text), used in kernel messages. */
  readonly name: string;
}

/** A compiled wasm32-wasi module run by the WASI glue in a pooled worker. */
export interface WasmImage extends ImageBase {
  readonly kind: 'wasm';
  readonly module: WebAssembly.Module;
  /** Which `sandglass` imports it is granted. */
  readonly role: Role;
  /** The memory it imports (`MEMORY_IMPORT`), if exec rewrote its own into an import. */
  readonly memory?: MemoryShape;
  /** Its instances may run again (programs/restart.ts). */
  readonly restartable?: boolean;
}

/**
 * Image kinds by tag. A new kind (e.g. `python`) adds one entry here, either
 * by editing this map or from its own module through declaration merging:
 * `declare module '../programs/image.js' { interface ImageKinds { python: PythonImage } }`.
 */
/** python3: a fresh Pyodide interpreter (see python/), argv as given to it. */
export interface PythonImage extends ImageBase {
  readonly kind: 'python';
  /** The process's memory limit in bytes (the interpreter's heap stops growing there). */
  readonly memoryBytes: number;
}

export interface ImageKinds {
  wasm: WasmImage;
  python: PythonImage;
}

export type ImageKind = keyof ImageKinds;

/** Any runnable image: a discriminated union on `kind`. */
export type Image = ImageKinds[ImageKind];
