import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closeIdleSocketsAfterPoll } from './keepAlive.js';

const KEEP_ALIVE_MS = 300;
/** Past the timeout plus the 1 s Node adds to it (Node >= 20.18) before closing. */
const STALL_MS = KEEP_ALIVE_MS + 1500;
const REQUEST = 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';

let server: Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

async function serve(guarded: boolean): Promise<number> {
  server = createServer((_req, res) => res.end('ok'));
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  if (guarded) closeIdleSocketsAfterPoll(server);
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

/**
 * Two requests on one socket; the second is sent just inside the keep-alive
 * window, then the event loop is blocked past it (a loaded engine). Resolves
 * with how many responses came back and how the socket ended.
 */
function twoRequestsAcrossAStall(port: number): Promise<{ responses: number; error?: string }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let responses = 0;
    let error: string | undefined;
    socket.on('data', (chunk: Buffer) => {
      responses += chunk.toString().split('HTTP/1.1 200').length - 1;
      if (responses === 1)
        // Sent from the check phase, then the stall: the next loop turn runs
        // timers (the server's keep-alive timeout) before it polls the socket.
        setTimeout(
          () =>
            setImmediate(() => {
              socket.write(REQUEST);
              const until = Date.now() + STALL_MS;
              while (Date.now() < until);
            }),
          KEEP_ALIVE_MS - 100,
        );
      if (responses === 2) socket.end();
    });
    socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.on('close', () => resolve({ responses, ...(error ? { error } : {}) }));
    socket.write(REQUEST);
  });
}

describe('closeIdleSocketsAfterPoll', () => {
  it('answers a request that arrived while the loop stalled past the keep-alive timeout', async () => {
    const port = await serve(true);
    expect(await twoRequestsAcrossAStall(port)).toEqual({ responses: 2 });
  });

  it('is needed: plain node:http drops that request with the connection', async () => {
    const port = await serve(false);
    const r = await twoRequestsAcrossAStall(port);
    expect(r.responses).toBe(1);
  });

  it('still closes a socket that stays idle', async () => {
    const port = await serve(true);
    const closed = await new Promise<number>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      const t0 = Date.now();
      socket.on('data', () => undefined);
      socket.on('close', () => resolve(Date.now() - t0));
      socket.write(REQUEST);
    });
    expect(closed).toBeGreaterThanOrEqual(KEEP_ALIVE_MS - 20);
    expect(closed).toBeLessThan(STALL_MS * 3);
  });
});
