/** random_get of the preview1 glue: bytes from the host's CSPRNG, in bounds only. */
import { describe, expect, it } from 'vitest';
import { Errno } from '../../base/errno.js';
import type { GlueContext } from '../context.js';
import { GuestMemory } from '../memory.js';
import { clockImports } from './clock.js';

function randomGet(): { call: (buf: number, len: number) => number; u8: Uint8Array } {
  const memory = new WebAssembly.Memory({ initial: 2 });
  const ctx = { mem: new GuestMemory(memory) } as unknown as GlueContext;
  const call = clockImports(ctx)['random_get'] as unknown as (buf: number, len: number) => number;
  return { call, u8: new Uint8Array(memory.buffer) };
}

describe('random_get', () => {
  it('fills exactly the range asked for, differently each time', () => {
    const { call, u8 } = randomGet();
    expect(call(16, 100_000)).toBe(0);
    const first = u8.slice(16, 16 + 100_000);
    expect(u8.subarray(0, 16).every((b) => b === 0)).toBe(true);
    expect(u8[16 + 100_000]).toBe(0);
    // Roughly uniform: every byte value appears in 100 kB.
    expect(new Set(first).size).toBe(256);
    expect(call(16, 100_000)).toBe(0);
    expect(Buffer.compare(first, u8.subarray(16, 16 + 100_000))).not.toBe(0);
  });

  it('refuses a range outside the memory', () => {
    const { call, u8 } = randomGet();
    expect(call(u8.length - 8, 16)).toBe(Errno.EFAULT);
    expect(u8.subarray(u8.length - 8).every((b) => b === 0)).toBe(true);
  });
});
