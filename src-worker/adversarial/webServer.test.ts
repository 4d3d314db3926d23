/**
 * Web server abuse: the token, Host and Origin checks, path traversal,
 * oversized and malformed requests, slow partial requests, and /api, /rpc
 * and /mcp without or with a wrong token. Each gets a refusal status (or a
 * closed socket) and the server keeps serving the workbench.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { defaultProgramsDir } from '../sandbox/sandbox.js';
import { startWebServer, type WebServer } from '../server/webServer.js';
import { useArena } from './arena.js';

const built = existsSync(join(defaultProgramsDir(), 'shell.wasm'));
const MCP_TOKEN = 'mcp-token-for-the-adversarial-suite';

interface Reply {
  status: number;
  body: string;
}

/** Sends raw bytes and returns the status line's code (0: the socket closed without one). */
function raw(port: number, text: string | Buffer, waitMs = 5000): Promise<Reply> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    const done = () => {
      socket.destroy();
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(data);
      resolve({ status: m ? Number(m[1]) : 0, body: data });
    };
    const timer = setTimeout(done, waitMs);
    socket.on('data', (c) => (data += c.toString('latin1')));
    socket.on('close', () => {
      clearTimeout(timer);
      done();
    });
    socket.on('error', () => undefined);
    socket.write(text);
  });
}

function http(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: Buffer | string,
): Promise<Reply> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => {
        if (text.length < 4096) text += c.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.on('error', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', () => resolve({ status: 0, body: '' }));
    req.end(body);
  });
}

function upgrade(
  port: number,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ open: true; ws: WebSocket } | { open: false; status: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`, { headers });
    ws.on('open', () => resolve({ open: true, ws }));
    ws.on('unexpected-response', (_req, res) =>
      resolve({ open: false, status: res.statusCode ?? 0 }),
    );
    ws.on('error', () => resolve({ open: false, status: 0 }));
  });
}

describe.skipIf(!built)('web server abuse', () => {
  const arena = useArena();
  let server: WebServer;
  let dir: string;
  let origin: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sg-adv-web-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Sandglass</title>');
    writeFileSync(join(dir, 'app.js'), 'console.log(1)');
    server = await startWebServer({
      engine: arena().engine,
      rendererDir: dir,
      mcpToken: MCP_TOKEN,
    });
    origin = `http://127.0.0.1:${server.port}`;
  });

  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The server still serves the page to its rightful client. */
  async function serving(): Promise<void> {
    expect((await http(server.port, 'GET', `/?token=${server.token}`)).status).toBe(200);
  }

  const PAGES: Record<
    string,
    [path: () => string, headers: () => Record<string, string>, status: number]
  > = {
    'the page without a token': [() => '/', () => ({}), 401],
    'the page with a wrong token': [() => '/?token=x', () => ({}), 401],
    'the page with the token twice, the first wrong': [
      () => `/?token=x&token=${server.token}`,
      () => ({}),
      401,
    ],
    'the page with a token prefix': [() => `/?token=${server.token.slice(0, 8)}`, () => ({}), 401],
    'the page with a foreign Host': [
      () => `/?token=${server.token}`,
      () => ({ host: 'evil.example' }),
      403,
    ],
    'DNS rebinding: a Host naming another port': [
      () => `/?token=${server.token}`,
      () => ({ host: '127.0.0.1:1' }),
      403,
    ],
    'the page with a foreign Origin': [
      () => `/?token=${server.token}`,
      () => ({ origin: 'http://evil.example' }),
      403,
    ],
    'path traversal with ..': [() => '/../../../../etc/passwd', () => ({}), 404],
    'path traversal percent-encoded': [() => '/%2e%2e/%2e%2e/etc/passwd', () => ({}), 404],
    'path traversal with encoded slashes': [() => '/..%2f..%2f..%2fetc%2fpasswd', () => ({}), 404],
    'path traversal with backslashes': [() => '/..\\..\\etc\\passwd', () => ({}), 404],
    'a NUL byte in the path': [() => '/app.js%00.html', () => ({}), 404],
    'an absolute host path': [() => '//etc/passwd', () => ({}), 404],
  };

  it.each(Object.entries(PAGES))('%s', async (_name, [path, headers, status]) => {
    expect((await http(server.port, 'GET', path(), headers())).status).toBe(status);
    await serving();
  });

  it('a POST to the page is refused', async () => {
    expect((await http(server.port, 'POST', '/', {}, 'x')).status).toBe(405);
    await serving();
  });

  it('a request line of 100 kB is refused', async () => {
    const r = await raw(server.port, `GET /${'a'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect([0, 414, 431, 400]).toContain(r.status);
    await serving();
  });

  it('headers of 100 kB are refused', async () => {
    const r = await raw(
      server.port,
      `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'b'.repeat(100_000)}\r\n\r\n`,
    );
    expect([0, 431, 400]).toContain(r.status);
    await serving();
  });

  it('garbage instead of HTTP gets 400', async () => {
    const r = await raw(
      server.port,
      Buffer.from([0x16, 0x03, 0x01, 0xff, 0x00, 0x0d, 0x0a, 0x0d, 0x0a]),
    );
    expect([0, 400]).toContain(r.status);
    await serving();
  });

  it('slow partial requests do not block others', async () => {
    const sockets = Array.from({ length: 30 }, () => {
      const s = connect(server.port, '127.0.0.1');
      s.on('error', () => undefined);
      s.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
      return s;
    });
    try {
      await serving();
    } finally {
      for (const s of sockets) s.destroy();
    }
  });

  /** A POST to /mcp as an MCP client sends it, bearing `token` (none: no Authorization). */
  const postMcp = (body: string | Buffer, token?: string) =>
    http(
      server.port,
      'POST',
      '/mcp',
      {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}),
      },
      body,
    );

  it('/mcp without a token', async () => {
    expect((await postMcp('{}')).status).toBe(401);
  });

  it('/mcp with the workbench token instead of its own', async () => {
    expect((await postMcp('{}', server.token)).status).toBe(401);
  });

  it('/mcp with a body over its limit', async () => {
    const r = await postMcp(Buffer.alloc(40 * 1024 * 1024, 0x20), MCP_TOKEN);
    expect([0, 413]).toContain(r.status);
    await serving();
  });

  it('/mcp with malformed JSON', async () => {
    expect((await postMcp('{"jsonrpc":"2.0",', MCP_TOKEN)).status).toBeGreaterThanOrEqual(400);
    await serving();
  });

  it.each([
    ['/api without a token', '/api', 401],
    ['/rpc without a token', '/rpc', 401],
    ['/rpc with a wrong token', '/rpc?token=nope', 401],
    ['an unknown WebSocket path', '/ws', 404],
  ])('%s', async (_name, path, status) => {
    expect(await upgrade(server.port, path, { origin })).toEqual({ open: false, status });
  });

  it('/api with the token but a foreign Origin', async () => {
    expect(
      await upgrade(server.port, `/api?token=${server.token}`, { origin: 'http://evil.example' }),
    ).toEqual({ open: false, status: 403 });
  });

  it('/rpc with the token: malformed JSON-RPC gets errors and the connection keeps serving', async () => {
    const conn = await upgrade(server.port, `/rpc?token=${server.token}`, { origin });
    if (!conn.open) throw new Error(`rpc refused: ${conn.status}`);
    const replies: Record<string, unknown>[] = [];
    conn.ws.on('message', (d: WebSocket.RawData) =>
      replies.push(JSON.parse(d.toString()) as Record<string, unknown>),
    );
    for (const frame of [
      'not json',
      '{"jsonrpc":"2.0","id":1,"method":"nope"}',
      '{"jsonrpc":"1.0","id":2,"method":"hello"}',
      '{"jsonrpc":"2.0","id":3,"method":"stats","params":{"sandboxId":"sb404"}}',
      '{"jsonrpc":"2.0","id":4,"method":"hello","params":{"apiVersion":1}}',
    ])
      conn.ws.send(frame);
    const end = performance.now() + 10_000;
    while (!replies.some((r) => r.id === 4) && performance.now() < end)
      await new Promise((r) => setTimeout(r, 25));
    conn.ws.close();
    expect(replies.find((r) => r.id === 4)).toMatchObject({ result: { apiVersion: 1 } });
    expect(replies.filter((r) => 'error' in r).length).toBeGreaterThanOrEqual(3);
  });

  it('/api with the token: a frame over the size limit closes only that socket', async () => {
    const conn = await upgrade(server.port, `/api?token=${server.token}`, { origin });
    if (!conn.open) throw new Error(`api refused: ${conn.status}`);
    const closed = new Promise<number>((r) => conn.ws.on('close', (code) => r(code)));
    conn.ws.on('error', () => undefined);
    conn.ws.send(Buffer.alloc(100 * 1024 * 1024, 0x20));
    expect(await closed).toBe(1009);
    await serving();
  });
});
