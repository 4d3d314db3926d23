/**
 * What the worker-side glue of one process shares: guest memory, the syscall
 * channel, argv/env, the handle table of the `sandglass` namespace, and the
 * guest's file-call helpers (`guest/guestFiles.ts`).
 */
import type { ChannelClient } from '../channel/client.js';
import { Errno } from '../base/errno.js';
import { Fault, type GuestMemory } from './memory.js';
import type { GuestFiles } from '../guest/guestFiles.js';

/** Thrown by proc_exit to unwind out of the guest. */
export class ProcExit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

/**
 * The imports are bound to one context for an instance's life; a worker
 * that runs an instance again for a new process (proc/node/warmInstances.ts)
 * replaces everything but `sys` and `mem`, which stay the instance's.
 */
export interface GlueContext {
  /** Set once the instance exists (imports are built before it). */
  mem: GuestMemory;
  readonly sys: ChannelClient;
  argv: readonly Uint8Array[];
  env: readonly Uint8Array[];
  /** Variable-length results waiting for `handle_read`. */
  handles: Map<number, Uint8Array>;
  nextHandle: number;
  /** Opens, closes, listings and stats with the guest-side caches. */
  files: GuestFiles;
}

/** Largest single read the host performs for a guest (caps host allocation). */
export const MAX_IO = 1024 * 1024;

/** Wrap an import so a bad pointer becomes EFAULT; ProcExit and traps pass through. */
export function guard<A extends unknown[]>(fn: (...args: A) => number): (...args: A) => number {
  return (...args: A): number => {
    try {
      return fn(...args);
    } catch (e) {
      if (e instanceof Fault) return Errno.EFAULT;
      if (e instanceof TooManyHandles) return Errno.ENOMEM;
      throw e;
    }
  };
}

const enc = new TextEncoder();
export function bytes(s: string): Uint8Array {
  return enc.encode(s);
}

/** Unread handles a process may hold at once (each holds host memory). */
export const MAX_HANDLES = 1024;

/** Thrown when a guest piles up unread handles; the glue answers ENOMEM. */
export class TooManyHandles extends Error {}

/** Store bytes as a handle; returns its number. */
export function newHandle(ctx: GlueContext, data: Uint8Array): number {
  if (ctx.handles.size >= MAX_HANDLES) throw new TooManyHandles('too many unread handles');
  const h = ctx.nextHandle++;
  ctx.handles.set(h, data);
  return h;
}
