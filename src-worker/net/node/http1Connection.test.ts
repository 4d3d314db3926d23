// The plain-http client against undici, differentially: the same requests
// through the gateway with each, to a raw TCP server that records the bytes
// it was sent and answers with scripted bytes. The server must see the same
// request and the program the same response (or the same failure).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetworkGateway, type NetRequest } from '../gateway.js';
import { NetError } from '../denial.js';

/** What /PATH answers, as raw bytes after the request is read. */
const ANSWERS: Record<string, string[]> = {
  '/length': ['HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-Mixed: One\r\nx-mixed: two\r\n\r\nhello'],
  '/chunked': [
    'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n',
    '4;x=y\r\ndefg\r\n0\r\nX-Trailer: t\r\n\r\n',
  ],
  '/close11': ['HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil ', 'the close'],
  '/close10': ['HTTP/1.0 200 OK\r\nServer: old\r\n\r\nan old server'],
  '/nobody': ['HTTP/1.1 204 No Content\r\nX-A: b\r\n\r\n'],
  '/notmod': ['HTTP/1.1 304 Not Modified\r\nETag: "x"\r\n\r\n'],
  '/continue': [
    'HTTP/1.1 100 Continue\r\n\r\n',
    'HTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok',
  ],
  '/short': ['HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this'],
  '/empty': [],
  '/redirect': ['HTTP/1.1 302 Found\r\nLocation: /length\r\nContent-Length: 3\r\n\r\nbye'],
};
/** Answers that end at the connection's close (or whose point is the close). */
const CLOSES = new Set(['/close11', '/close10', '/short', '/empty']);

let server: net.Server;
let port = 0;
const received: string[] = [];

/** Read one request (head, then a Content-Length or chunked body); resolves with its bytes. */
function readRequest(socket: net.Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (b: Buffer) => {
      text += b.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = text.slice(0, end).toLowerCase();
      const body = text.slice(end + 4);
      const cl = /\r\ncontent-length: (\d+)/.exec(head);
      if (/\r\ntransfer-encoding: chunked/.test(head)) {
        if (body.endsWith('0\r\n\r\n')) resolve(text);
      } else if (!cl || body.length >= Number(cl[1])) resolve(text);
    });
  });
}

beforeAll(async () => {
  server = net.createServer((socket) => {
    socket.on('error', () => {});
    void readRequest(socket).then(async (text) => {
      received.push(text);
      const path = text.split(' ')[1] ?? '';
      for (const part of ANSWERS[path] ?? []) {
        socket.write(part, 'latin1');
        await new Promise((r) => setTimeout(r, 5));
      }
      if (CLOSES.has(path)) socket.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

async function* stream(parts: string[]): AsyncGenerator<Uint8Array> {
  for (const p of parts) {
    await new Promise((r) => setTimeout(r, 2));
    yield new TextEncoder().encode(p);
  }
}

/** One request through a gateway using `client`: what the server saw and what came back. */
async function exchange(
  client: 'own' | 'undici',
  req: Omit<NetRequest, 'url'> & { path: string },
): Promise<unknown> {
  const gw = new NetworkGateway({
    sandboxId: 'diff',
    policy: { allowedHosts: [`127.0.0.1:${port}`] },
    plainHttpClient: client,
  });
  received.length = 0;
  try {
    const res = await gw.request({ ...req, url: `http://127.0.0.1:${port}${req.path}` });
    let body = '';
    for await (const c of res.body) body += Buffer.from(c).toString('latin1');
    return {
      sent: received.join(''),
      status: res.status,
      statusText: res.statusText,
      httpVersion: res.httpVersion,
      headers: res.headers,
      url: res.url,
      remote: res.remote?.address,
      body,
    };
  } catch (err) {
    return { sent: received.join(''), failed: err instanceof NetError ? err.reason : String(err) };
  }
}

const CASES: [string, Omit<NetRequest, 'url'> & { path: string }][] = [
  [
    'GET with headers in order and spelling',
    {
      path: '/length',
      headers: [
        ['User-Agent', 'curl/8'],
        ['accept', '*/*'],
        ['X-Dup', '1'],
        ['x-dup', '2'],
      ],
    },
  ],
  ['a chunked response with trailers', { path: '/chunked' }],
  ['a body that ends at the close (1.1)', { path: '/close11' }],
  ['an HTTP/1.0 server', { path: '/close10' }],
  ['204', { path: '/nobody' }],
  ['304', { path: '/notmod', headers: [['If-None-Match', '"x"']] }],
  ['HEAD', { path: '/length', method: 'HEAD' }],
  [
    'POST of a buffer with its own Content-Length header',
    {
      path: '/length',
      method: 'POST',
      headers: [
        ['Content-Type', 'text/plain'],
        ['Content-Length', '11'],
      ],
      body: new TextEncoder().encode('hello world'),
    },
  ],
  ['POST with no body', { path: '/length', method: 'POST' }],
  ['DELETE with no body', { path: '/length', method: 'DELETE' }],
  [
    'a streamed body of unknown length (chunked)',
    {
      path: '/length',
      method: 'PUT',
      body: stream(['abc', 'defgh', '']),
    },
  ],
  [
    'a streamed body with a declared length',
    {
      path: '/length',
      method: 'POST',
      headers: [['Content-Length', '6']],
      body: stream(['abc', 'def']),
    },
  ],
  ['a redirect followed', { path: '/redirect', followRedirects: true }],
  ['a body cut short by the close', { path: '/short' }],
  ['an empty reply', { path: '/empty' }],
];

describe('own HTTP/1.1 client against undici', () => {
  it.each(CASES)('%s', async (_name, req) => {
    // Streams are read once: each client gets its own.
    const again = (): typeof req =>
      req.body && !(req.body instanceof Uint8Array)
        ? { ...req, body: stream(req.method === 'PUT' ? ['abc', 'defgh', ''] : ['abc', 'def']) }
        : req;
    const ours = await exchange('own', again());
    const theirs = await exchange('undici', again());
    expect(ours).toEqual(theirs);
  });

  it('skips a 1xx head before the answer (undici 7 fails the request; curl does not)', async () => {
    const ours = await exchange('own', {
      path: '/continue',
      method: 'POST',
      body: new Uint8Array(3),
    });
    expect(ours).toMatchObject({ status: 201, statusText: 'Created', body: 'ok' });
  });

  it('fails to connect like undici', async () => {
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const gone = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    for (const client of ['own', 'undici'] as const) {
      const gw = new NetworkGateway({
        sandboxId: 'x',
        policy: { allowedHosts: [`127.0.0.1:${gone}`] },
        plainHttpClient: client,
      });
      await expect(gw.request({ url: `http://127.0.0.1:${gone}/` })).rejects.toMatchObject({
        reason: 'connect-failed',
      });
    }
  });

  it('times out a connect that never completes, like undici', async () => {
    // A listener that never accepts, with no room in its queue once one
    // connection waits there: the next SYN goes unanswered.
    const py = spawn('python3', [
      '-c',
      'import socket,sys\ns=socket.socket()\ns.bind(("127.0.0.1",0))\ns.listen(0)\nprint(s.getsockname()[1],flush=True)\nsys.stdin.read()',
    ]);
    try {
      const [line] = (await once(py.stdout, 'data')) as [Buffer];
      const stuck = Number(line.toString().trim());
      const queued = [net.connect(stuck, '127.0.0.1'), net.connect(stuck, '127.0.0.1')];
      queued.forEach((s) => s.on('error', () => {}));
      await new Promise((r) => setTimeout(r, 100));
      for (const client of ['own', 'undici'] as const) {
        const gw = new NetworkGateway({
          sandboxId: 'x',
          policy: { allowedHosts: [`127.0.0.1:${stuck}`] },
          limits: { connectTimeoutMs: 300 },
          plainHttpClient: client,
        });
        const t0 = Date.now();
        await expect(gw.request({ url: `http://127.0.0.1:${stuck}/` })).rejects.toMatchObject({
          reason: 'timeout',
          message: 'connection timed out after 300 ms',
        });
        expect(Date.now() - t0).toBeLessThan(5000);
      }
      queued.forEach((s) => s.destroy());
    } finally {
      py.kill();
    }
  });
});
