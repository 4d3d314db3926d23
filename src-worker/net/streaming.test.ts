// Large bodies stream: a 200 MB loopback download passes through the gateway
// with flat memory, and a reader that stops pulling stops the server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetworkGateway } from './gateway.js';
import { startLoopbackServer, type LoopbackServer } from './testing/loopbackServer.js';
import { readAll, tableResolver } from './testing/tables.js';

const MiB = 1024 * 1024;
let srv: LoopbackServer;
let gw: NetworkGateway;

beforeAll(async () => {
  srv = await startLoopbackServer();
  gw = new NetworkGateway({
    sandboxId: 'stream',
    policy: { allowedHosts: [`127.0.0.1:${srv.port}`] },
    resolver: tableResolver({}),
  });
});
afterAll(() => srv.close());

describe('streaming', () => {
  it('a 200 MB download keeps memory flat', async () => {
    // Warm up (JIT, heap sizing), so the baseline is the steady state.
    await readAll(await gw.request({ url: `${srv.origin}/big?bytes=${64 * MiB}` }));
    const base = process.memoryUsage().rss;
    let peak = base;
    let total = 0;
    let chunks = 0;
    const res = await gw.request({ url: `${srv.origin}/big?bytes=${200 * MiB}` });
    for await (const chunk of res.body) {
      total += chunk.length;
      if (++chunks % 64 === 0) peak = Math.max(peak, process.memoryUsage().rss);
    }
    expect(total).toBe(200 * MiB);
    // Server and client share this process; together they hold a few socket
    // buffers, never the body (which alone would be 200 MB).
    expect(peak - base).toBeLessThan(48 * MiB);
  }, 60_000);

  it('an upload waits while the server does not read (back-pressure)', async () => {
    let produced = 0;
    let producedWhileHeld = -1;
    async function* upload(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < 200; i++) {
        produced += MiB;
        yield new Uint8Array(MiB);
      }
    }
    const held = new Promise<void>((r) =>
      setTimeout(() => {
        producedWhileHeld = produced;
        r();
      }, 400),
    );
    const res = await gw.request({
      url: `${srv.origin}/hold?ms=600`,
      method: 'PUT',
      body: upload(),
    });
    await held;
    expect(await readAll(res).then(String)).toBe('held');
    // 200 MiB were on offer; while the server read nothing only socket and
    // stream buffers filled.
    expect(producedWhileHeld).toBeGreaterThan(0);
    expect(producedWhileHeld).toBeLessThan(32 * MiB);
    expect(produced).toBe(200 * MiB);
  }, 60_000);

  it('a reader that stops pulling stops the sender (back-pressure)', async () => {
    const before = srv.bigWritten;
    const res = await gw.request({ url: `${srv.origin}/big?bytes=${500 * MiB}` });
    const it = res.body[Symbol.asyncIterator]();
    await it.next();
    await new Promise((r) => setTimeout(r, 300));
    const sent = srv.bigWritten - before;
    expect(sent).toBeLessThan(16 * MiB);
    res.close();
  });
});
