// One syscall exchange against a loopback server, without a kernel: the
// splice's tap on a brotli body must hand out the decoded bytes (the body
// the program reads), never the raw ones the decoder is fed from.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetworkGateway } from './gateway.js';
import { SyscallExchange } from './syscallExchange.js';
import { decodeNetRequest, encodeNetRequest, NET_FLAGS } from './wire.js';

const PLAIN = Buffer.from(Array.from({ length: 40_000 }, (_, i) => `row ${i}\n`).join(''));
const PACKED = brotliCompressSync(PLAIN);

let server: Server;
let port = 0;

beforeAll(async () => {
  // The compressed body in four pieces, 40 ms apart: most of it arrives
  // while the reader waits with its tap set.
  server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Encoding': 'br', 'Content-Length': String(PACKED.length) });
    const step = Math.ceil(PACKED.length / 4);
    let at = 0;
    const next = (): void => {
      res.write(PACKED.subarray(at, at + step));
      at += step;
      if (at >= PACKED.length) res.end();
      else setTimeout(next, 40);
    };
    next();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function exchange(flags: number): SyscallExchange {
  const gateway = new NetworkGateway({
    sandboxId: 'x',
    policy: { allowedHosts: [`127.0.0.1:${port}`] },
  });
  const request = decodeNetRequest(encodeNetRequest({ url: `http://127.0.0.1:${port}/`, flags }));
  return new SyscallExchange({ gateway, request, context: {} });
}

/** Read the body as a blocked net_body_splice does: tap set while waiting, then drain what queued. */
async function spliceAll(x: SyscallExchange): Promise<{ tapped: number; bytes: Buffer }> {
  while (x.head() === null) await sleep(5);
  const parts: Buffer[] = [];
  let tapped = 0;
  const untap = x.tapBody((b) => {
    tapped += b.length;
    parts.push(Buffer.from(b));
    return b.length;
  });
  try {
    for (;;) {
      const n = x.spliceBody((b) => {
        parts.push(Buffer.from(b));
        return b.length;
      }, 1 << 20);
      if (n === 0) break;
      await sleep(10);
    }
  } finally {
    untap();
    x.close();
  }
  return { tapped, bytes: Buffer.concat(parts) };
}

describe('the splice tap of a decoded body', () => {
  it('hands out the decoded bytes as they arrive', async () => {
    const r = await spliceAll(exchange(NET_FLAGS.decodeBrotli));
    expect(r.tapped).toBeGreaterThan(0);
    expect(r.bytes.equals(PLAIN)).toBe(true);
  });

  it('without the decode flag, the raw bytes', async () => {
    const r = await spliceAll(exchange(0));
    expect(r.tapped).toBeGreaterThan(0);
    expect(r.bytes.equals(PACKED)).toBe(true);
  });
});
