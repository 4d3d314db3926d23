/** Messages between the kernel and a process worker (besides the syscall channel). */
import type { Role } from '../../wasi/sandglass/roles.js';

export interface StartMessage {
  readonly type: 'start';
  readonly sab: SharedArrayBuffer;
  readonly module: WebAssembly.Module;
  readonly argv: Uint8Array[];
  readonly env: Uint8Array[];
  readonly role: Role;
  /** argv[0] for messages. */
  readonly name: string;
}

/** args[1] of the EXIT syscall: how the program ended. */
export const EXIT_KIND = { normal: 0, trap: 1, refused: 2 } as const;
