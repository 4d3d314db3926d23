import { describe, expect, it } from 'vitest';
import { createPipe } from './pipe.js';

describe('pipe', () => {
  it('readInto moves bytes across buffered writes in order', () => {
    const [r, w] = createPipe();
    const src = new Uint8Array([1, 2, 3]);
    w.write(src);
    src.fill(0); // the pipe kept its own copy
    w.write(new Uint8Array([4, 5]));
    const dst = new Uint8Array(4).fill(0xee);
    expect(r.readInto(dst)).toBe(4);
    expect([...dst]).toEqual([1, 2, 3, 4]);
    expect(r.readInto(dst)).toBe(1);
    expect(dst[0]).toBe(5);
    expect(r.readInto(dst)).toBeNull(); // empty with a writer: would block
    w.release();
    expect(r.readInto(dst)).toBe(0); // EOF once every writer is gone
  });
});
