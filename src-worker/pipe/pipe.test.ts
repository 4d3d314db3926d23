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

describe('pipe: parked writes', () => {
  const bytes = (n: number, seed = 0): Uint8Array =>
    Uint8Array.from({ length: n }, (_, i) => (i + seed) & 0xff);
  const same = (a: Uint8Array, b: Uint8Array): boolean => Buffer.from(a).equals(Buffer.from(b));

  it('a reader takes a blocked write past the buffer in one read, in order', () => {
    const [r, w] = createPipe();
    const p = w.pipe;
    const data = bytes(200_000);
    const n = w.write(data) as number;
    expect(n).toBe(p.capacity);
    const parked = p.park(data.subarray(n), () => true);
    expect(p.settle(parked)).toBe(false);
    expect(r.readiness().nbytes).toBe(200_000);
    expect(w.readiness().writable).toBe(false);
    const dst = new Uint8Array(300_000);
    expect(r.readInto(dst)).toBe(200_000);
    expect(same(dst.subarray(0, 200_000), data)).toBe(true);
    expect(p.settle(parked)).toBe(true);
  });

  it('a parked rest that fits the buffer again completes the write, copied', () => {
    const [r, w] = createPipe();
    const p = w.pipe;
    const data = bytes(p.capacity + 1000);
    const n = w.write(data) as number;
    const parked = p.park(data.subarray(n), () => true);
    expect(r.readInto(new Uint8Array(2000))).toBe(2000);
    expect(p.settle(parked)).toBe(true);
    data.fill(0); // the writer's buffer is its own again
    const dst = new Uint8Array(p.capacity + 1000);
    expect(r.readInto(dst)).toBe(p.capacity - 1000);
    expect(same(dst.subarray(0, p.capacity - 1000), bytes(p.capacity + 1000).subarray(2000))).toBe(
      true,
    );
  });

  it('later writes wait behind parked ones', () => {
    const [r, w] = createPipe();
    const p = w.pipe;
    const first = bytes(p.capacity + 10, 1);
    const n = w.write(first) as number;
    p.park(first.subarray(n), () => true);
    expect(w.write(new Uint8Array([7]))).toBeNull();
    const dst = new Uint8Array(p.capacity + 10);
    expect(r.readInto(dst)).toBe(p.capacity + 10);
    expect(same(dst, first)).toBe(true);
    expect(w.write(new Uint8Array([7]))).toBe(1);
  });

  it('a withdrawn or orphaned park leaves only what was read', () => {
    const [r, w] = createPipe(1024);
    const p = w.pipe;
    const data = bytes(3000);
    const n = w.write(data) as number;
    const a = p.park(data.subarray(n), () => true);
    expect(r.readInto(new Uint8Array(1500))).toBe(1500);
    expect(a.off).toBe(476);
    p.unpark(a);
    expect(p.available).toBe(0);
    expect(r.readInto(new Uint8Array(10))).toBeNull();
    let alive = true;
    p.park(bytes(50), () => alive);
    alive = false;
    expect(r.readInto(new Uint8Array(10))).toBeNull();
    expect(p.available).toBe(0);
  });
});
