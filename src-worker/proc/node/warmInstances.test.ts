import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GlueContext } from '../../wasi/context.js';
import {
  endOfNonZero,
  firstNonZero,
  keepInstance,
  snapshotInstance,
  takeInstance,
  zeroDirtyBlocks,
} from './warmInstances.js';

/** A zeroed buffer of `size` bytes with `marks` (offset, value) written in. */
function marked(size: number, marks: [number, number][]): Buffer {
  const b = Buffer.alloc(size);
  for (const [at, v] of marks) b[at % size] = v;
  return b;
}

const layout = fc
  .integer({ min: 1, max: 300_000 })
  .chain((size) =>
    fc.tuple(
      fc.constant(size),
      fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { maxLength: 6 }),
      fc.nat({ max: size }),
      fc.nat({ max: size }),
    ),
  );

describe('zero scans over a wasm memory image', () => {
  it('find the same span as a byte-by-byte scan', () => {
    fc.assert(
      fc.property(layout, ([size, marks, a, b]) => {
        const bytes = marked(size, marks);
        const from = Math.min(a, b);
        const to = Math.max(a, b);
        let first = from;
        while (first < to && bytes[first] === 0) first++;
        let end = to;
        while (end > first && bytes[end - 1] === 0) end--;
        expect(firstNonZero(bytes, from, to)).toBe(first);
        expect(endOfNonZero(bytes, first, to)).toBe(end);
      }),
    );
  });

  it('finds data behind a large zero stack, and nothing in an all-zero memory', () => {
    const bytes = Buffer.alloc(8 * 1024 * 1024 + 70_000);
    expect(firstNonZero(bytes, 0, bytes.length)).toBe(bytes.length);
    expect(endOfNonZero(bytes, 0, bytes.length)).toBe(0);
    bytes[8 * 1024 * 1024 + 5] = 7;
    bytes[8 * 1024 * 1024 + 60_001] = 9;
    expect(firstNonZero(bytes, 0, bytes.length)).toBe(8 * 1024 * 1024 + 5);
    expect(endOfNonZero(bytes, 0, bytes.length)).toBe(8 * 1024 * 1024 + 60_002);
  });

  it('zeroes every non-zero byte of the range and nothing outside it', () => {
    fc.assert(
      fc.property(layout, ([size, marks, a, b]) => {
        const bytes = marked(size, marks);
        const from = Math.min(a, b);
        const to = Math.max(a, b);
        const expected = Buffer.from(bytes).fill(0, from, to);
        zeroDirtyBlocks(bytes, from, to);
        expect(bytes.equals(expected)).toBe(true);
      }),
    );
  });
});

describe('a kept instance', () => {
  it('gets back the memory it had before its first start, whatever the run wrote', () => {
    // An empty module: the instance is only the key the image is kept under.
    const instance = new WebAssembly.Instance(
      new WebAssembly.Module(Uint8Array.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0])),
    );
    const memory = new WebAssembly.Memory({ initial: 160, maximum: 160 });
    const bytes = new Uint8Array(memory.buffer);
    // Data after a zero "stack" of 8 MiB, as the shell's memory is laid out.
    const dataAt = 8 * 1024 * 1024 + 100;
    bytes.set([1, 2, 3, 0, 0, 4], dataAt);
    const before = Uint8Array.from(bytes);
    const w = { instance, memory, ctx: {} as GlueContext, start: () => undefined };
    snapshotInstance(w);
    // The run: the stack's top, the data and the heap written.
    bytes[8 * 1024 * 1024 - 16] = 9;
    bytes.fill(7, dataAt, dataAt + 3);
    bytes[dataAt + 4] = 5;
    bytes[bytes.length - 1] = 6;
    expect(keepInstance('k', w, memory.buffer.byteLength)).toBe(true);
    expect(Buffer.from(memory.buffer).equals(before)).toBe(true);
    expect(takeInstance('k')?.instance).toBe(instance);
  });
});
