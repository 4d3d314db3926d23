// The gateway's brotli decoding on its own: fed as undici feeds a body, in
// pieces, with the decoded side read slowly, an empty body, bad data.
import { brotliCompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeBrotli, isBrotliEncoded } from './brotliBody.js';
import { NetError } from './denial.js';
import { ResponseBody } from './responseBody.js';

function rawBody(): ResponseBody {
  return new ResponseBody({ resume: () => {} }, 1 << 20, {
    received: () => {},
    ended: () => {},
    abandoned: () => {},
    toError: (err) => new NetError('transfer-failed', String(err)),
  });
}

async function readAll(b: ResponseBody): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const c of b) parts.push(Buffer.from(c));
  return Buffer.concat(parts);
}

describe('brotli bodies decoded in the gateway', () => {
  it('knows a br body from others', () => {
    expect(isBrotliEncoded([['Content-Encoding', 'br']])).toBe(true);
    expect(isBrotliEncoded([['content-encoding', ' BR ']])).toBe(true);
    expect(isBrotliEncoded([['Content-Encoding', 'gzip']])).toBe(false);
    expect(isBrotliEncoded([['Content-Encoding', 'gzip, br']])).toBe(false);
    expect(isBrotliEncoded([['Content-Type', 'br']])).toBe(false);
  });

  it('decodes a body that arrives in pieces, with back-pressure on the reader', async () => {
    const plain = Buffer.from(
      Array.from({ length: 300_000 }, (_, i) => `line ${i % 977}\n`).join(''),
    );
    const packed = brotliCompressSync(plain);
    const raw = rawBody();
    // A small high-water mark: the decoder pauses and resumes many times.
    const { body } = decodeBrotli(raw, 4096);
    let at = 0;
    const feed = setInterval(() => {
      raw.data(packed.subarray(at, at + 1000));
      at += 1000;
      if (at >= packed.length) {
        clearInterval(feed);
        raw.end();
      }
    }, 0);
    expect((await readAll(body)).equals(plain)).toBe(true);
  });

  it('a reader that does not read holds the decoder back', async () => {
    const plain = Buffer.alloc(8 << 20, 'x'); // a small input, a large output
    const raw = rawBody();
    const { body } = decodeBrotli(raw, 64 * 1024);
    raw.data(brotliCompressSync(plain));
    raw.end();
    while (body.buffered === 0) await body.changed.wait();
    // Time for an unbounded decoder to run far ahead (the machine may be slow).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(body.buffered).toBeLessThan(512 * 1024);
    expect((await readAll(body)).equals(plain)).toBe(true);
  });

  it('an empty body is an empty body (HEAD, 204, 304)', async () => {
    const raw = rawBody();
    const { body } = decodeBrotli(raw, 4096);
    raw.end();
    expect((await readAll(body)).length).toBe(0);
  });

  it('bad data is a transfer failure saying so', async () => {
    const raw = rawBody();
    const { body } = decodeBrotli(raw, 4096);
    raw.data(Buffer.from('this is not brotli at all'));
    raw.end();
    const err = await readAll(body).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetError);
    expect((err as NetError).reason).toBe('transfer-failed');
    expect((err as NetError).message).toMatch(/^Error while processing content unencoding: /);
  });
});
