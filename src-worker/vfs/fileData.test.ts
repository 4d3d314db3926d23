import { describe, expect, it } from 'vitest';
import {
  CHUNK_SIZE,
  editableData,
  emptyData,
  readData,
  readDataInto,
  resizeData,
  writeData,
} from './fileData.js';
import { newEdit } from './hamt.js';

/** Byte equality without vitest's slow deep diff on large arrays. */
function same(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function bytes(n: number, fill: number): Uint8Array {
  return new Uint8Array(n).fill(fill);
}

describe('fileData', () => {
  it('reads into a dirty buffer, zeroing holes and short chunk buffers', () => {
    const e = newEdit();
    const d = emptyData(e);
    writeData(d, 0, bytes(10, 7), e); // chunk 0: a 10-byte buffer of a 16 KiB chunk
    writeData(d, 2 * CHUNK_SIZE + 1, bytes(3, 9), e); // chunk 1 stays a hole
    const dst = bytes(d.size + 50, 0xee); // reused memory: stale bytes everywhere
    const n = readDataInto(d, 0, dst);
    expect(n).toBe(d.size);
    const want = new Uint8Array(d.size);
    want.fill(7, 0, 10);
    want.fill(9, 2 * CHUNK_SIZE + 1);
    expect(same(dst.subarray(0, n), want)).toBe(true);
    expect(dst[n]).toBe(0xee); // nothing past the count is touched
    expect(readDataInto(d, d.size, dst)).toBe(0);
    expect(readDataInto(d, 5, dst.subarray(0, 3))).toBe(3);
    expect([...dst.subarray(0, 3)]).toEqual([7, 7, 7]);
  });

  it('writes and reads across chunk boundaries', () => {
    const e = newEdit();
    const d = emptyData(e);
    const src = new Uint8Array(3 * CHUNK_SIZE + 17).map((_, i) => i % 251);
    writeData(d, 5, src, e);
    expect(d.size).toBe(src.length + 5);
    const back = readData(d, 5, src.length);
    expect(same(back, src)).toBe(true);
    expect(same(readData(d, 0, 5), new Uint8Array(5))).toBe(true);
    expect(readData(d, d.size, 10).length).toBe(0);
  });

  it('zero-fills holes and regrowth after shrinking', () => {
    const e = newEdit();
    const d = emptyData(e);
    writeData(d, 0, bytes(100, 7), e);
    resizeData(d, 10, e);
    resizeData(d, 50, e);
    expect(same(readData(d, 0, 50), new Uint8Array([...bytes(10, 7), ...new Uint8Array(40)]))).toBe(
      true,
    );
    writeData(d, 2 * CHUNK_SIZE + 3, bytes(1, 9), e);
    expect(same(readData(d, 50, 2 * CHUNK_SIZE - 47), new Uint8Array(2 * CHUNK_SIZE - 47))).toBe(
      true,
    );
    expect(same(readData(d, 2 * CHUNK_SIZE + 3, 5), new Uint8Array([9]))).toBe(true);
  });

  it('does not disturb a shared version when writing under a new token', () => {
    const e1 = newEdit();
    const d = emptyData(e1);
    writeData(d, 0, bytes(4 * CHUNK_SIZE, 1), e1);
    const e2 = newEdit();
    const d2 = editableData(d, e2);
    writeData(d2, CHUNK_SIZE + 10, bytes(5, 2), e2);
    resizeData(d2, 3, e2);
    resizeData(d2, 4 * CHUNK_SIZE, e2);
    expect(same(readData(d, 0, 4 * CHUNK_SIZE), bytes(4 * CHUNK_SIZE, 1))).toBe(true);
    expect(same(readData(d2, 0, 4), new Uint8Array([1, 1, 1, 0]))).toBe(true);
    // Untouched chunks stay shared (no copy of the whole file).
    expect(d2.chunks[3]).toBeNull();
    expect(d.chunks[2]).not.toBeNull();
  });

  it('appends reuse the owned buffer', () => {
    const e = newEdit();
    const d = emptyData(e);
    for (let i = 0; i < 1000; i++) writeData(d, d.size, bytes(10, i & 0xff), e);
    expect(d.size).toBe(10000);
    expect(d.chunks.length).toBe(1);
    expect(same(readData(d, 9990, 10), bytes(10, 999 & 0xff))).toBe(true);
  });
});
