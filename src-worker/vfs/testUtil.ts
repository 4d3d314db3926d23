/** Helpers shared by the VFS tests (not shipped code paths). */
import { expect } from 'vitest';
import { KernelError, type Errno } from '../base/errno.js';

const enc = new TextEncoder();
const dec = new TextDecoder();

export const text = (s: string): Uint8Array => enc.encode(s);
export const str = (b: Uint8Array): string => dec.decode(b);

/** Assert that `fn` throws a KernelError with `errno`. */
export function expectErrno(fn: () => unknown, errno: Errno): void {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught, `expected errno ${errno}`).toBeInstanceOf(KernelError);
  expect((caught as KernelError).errno).toBe(errno);
}
