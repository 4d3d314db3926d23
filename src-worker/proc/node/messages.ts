/** Messages between the kernel and a process worker (besides the syscall channel). */
import type { MemoryShape } from '../../limits/memoryLimit.js';
import type { Role } from '../../wasi/sandglass/roles.js';

/**
 * A job posted to a pooled worker; `type` picks the worker-side handler
 * (`workerEntry.ts` `jobs`). Transferables are not used: SABs and modules
 * are shared, not moved.
 */
export interface WorkerJob {
  readonly type: string;
}

/** Run a compiled wasm module with the WASI glue on the channel in `sab`. */
export interface WasmStartMessage extends WorkerJob {
  readonly type: 'start';
  readonly sab: SharedArrayBuffer;
  /** The program's module, named by id; sent along only the first time (see workerChannels.ts). */
  readonly moduleId: number;
  readonly module?: WebAssembly.Module;
  /** Modules the worker may drop. */
  readonly forget?: number[];
  readonly argv: Uint8Array[];
  readonly env: Uint8Array[];
  readonly role: Role;
  /** argv[0] for messages. */
  readonly name: string;
  /** The memory the module imports (the worker gives it one of this shape). */
  readonly memory?: MemoryShape;
  /** The worker may run the instance again for later processes (programs/restart.ts). */
  readonly restartable?: boolean;
}

/** Worker to pool: booted and ready for jobs. */
export interface ReadyMessage {
  readonly type: 'ready';
}

/** Worker to pool: it cannot run the job it was given (the lease crashes with `message`). */
export interface FatalMessage {
  readonly type: 'fatal';
  readonly message: string;
}
