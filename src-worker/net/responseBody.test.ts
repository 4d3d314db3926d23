// ResponseBody on its own, fed as undici's dispatch handler feeds it: the
// queue, the pause at the high-water mark, and how it resumes.
import { describe, expect, it } from 'vitest';
import { NetError } from './denial.js';
import { ResponseBody, type BodySource } from './responseBody.js';

function body(highWater: number): { b: ResponseBody; resumes: number[]; received: number[] } {
  const resumes: number[] = [];
  const received: number[] = [];
  let b: ResponseBody | null = null;
  const src: BodySource = { resume: () => resumes.push(b?.buffered ?? -1) };
  b = new ResponseBody(src, highWater, {
    received: (n) => received.push(n),
    ended: () => {},
    abandoned: () => {},
    toError: (err) => new NetError('transfer-failed', String(err)),
  });
  return { b, resumes, received };
}

describe('ResponseBody', () => {
  it('pauses undici past the high-water mark and resumes it after a read, not inside one', async () => {
    const { b, resumes } = body(100);
    expect(b.data(new Uint8Array(60))).toBe(true);
    expect(b.data(new Uint8Array(60))).toBe(false); // 120 held: pause
    const dst = new Uint8Array(50);
    expect(b.read(dst)).toBe(50);
    // undici's resume parses at once and would call `data` from inside the
    // read: it runs after the read returns.
    expect(resumes).toEqual([]);
    await Promise.resolve();
    expect(resumes).toEqual([70]);
  });

  it('an empty chunk from undici is not a full reader', () => {
    const { b } = body(100);
    b.data(new Uint8Array(0));
    expect(b.read(new Uint8Array(10))).toBe(null); // nothing yet: wait
    b.data(new Uint8Array([1, 2, 3]));
    b.data(new Uint8Array(0));
    b.data(new Uint8Array([4]));
    const dst = new Uint8Array(10);
    expect(b.read(dst)).toBe(4);
    expect([...dst.subarray(0, 4)]).toEqual([1, 2, 3, 4]);
    b.end();
    expect(b.read(dst)).toBe(0);
  });

  it('drain hands chunks over uncopied and stops where the sink is full', () => {
    const { b, received } = body(1000);
    const c1 = new Uint8Array([1, 2, 3]);
    const c2 = new Uint8Array([4, 5]);
    b.data(c1);
    b.data(c2);
    expect(received).toEqual([3, 2]);
    const seen: Uint8Array[] = [];
    expect(b.drain((x) => (seen.push(x), Math.min(x.length, 4 - seen.length * 3)), 10)).toBe(1);
    expect(seen[0]?.buffer).toBe(c1.buffer);
    expect(b.buffered).toBe(4);
    expect(b.drain((x) => x.length, 10)).toBe(4);
  });

  it('a failure is reported once the bytes before it are read', () => {
    const { b } = body(1000);
    b.data(new Uint8Array(5));
    b.failed(new Error('reset'));
    expect(b.read(new Uint8Array(10))).toBe(5);
    expect(() => b.read(new Uint8Array(10))).toThrow(NetError);
  });

  it('copies a transient chunk it queues, and a tap takes chunks only while nothing is queued', () => {
    const { b, received } = body(1000);
    const read = new Uint8Array([1, 2, 3]);
    b.data(read, true);
    read.fill(9); // the client reuses its read buffer
    const took: number[][] = [];
    b.setTap((bytes) => {
      took.push([...bytes]);
      return 1; // a sink with room for one byte
    });
    // Queued bytes come first: the tap waits for them to be read.
    b.data(new Uint8Array([4, 5]), true);
    expect(took).toEqual([]);
    const dst = new Uint8Array(10);
    expect(b.read(dst)).toBe(5);
    expect([...dst.subarray(0, 5)]).toEqual([1, 2, 3, 4, 5]);
    // Now the tap gets the chunk; what it leaves is queued (copied).
    const next = new Uint8Array([6, 7, 8]);
    b.data(next, true);
    next.fill(0);
    expect(took).toEqual([[6, 7, 8]]);
    b.setTap(null);
    b.data(new Uint8Array([10]));
    expect(b.read(dst)).toBe(3);
    expect([...dst.subarray(0, 3)]).toEqual([7, 8, 10]);
    expect(received).toEqual([3, 2, 3, 1]);
  });
});
