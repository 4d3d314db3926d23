import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { endOfNonZero, firstNonZero, zeroDirtyBlocks } from './warmInstances.js';

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
