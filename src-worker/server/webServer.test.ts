import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ApiMethod, ApiParams, ApiResult } from '../contract/api.js';
import type { BusClient } from '../api/eventBus.js';
import { SandglassEngine } from '../api/engine.js';
import { startWebServer, type WebServer } from './webServer.js';

let server: WebServer;
let engine: SandglassEngine;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sg-web-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>Sandglass</title>');
  await writeFile(join(dir, 'app.js'), 'console.log(1)');
  engine = new SandglassEngine();
  server = await startWebServer({
    engine,
    rendererDir: dir,
    mcpToken: MCP_TOKEN,
    mcpTokenFile: '/home/me/.sandglass/mcp-token',
  });
});

afterAll(async () => {
  await server.close();
  await engine.dispose();
  await rm(dir, { recursive: true, force: true });
});

function get(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; csp: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body,
          csp: res.headers['content-security-policy'] as string | undefined,
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

function connect(query: string, origin?: string): Promise<{ ws: WebSocket } | { status: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/api${query}`, origin ? { origin } : {});
    ws.on('open', () => resolve({ ws }));
    ws.on('unexpected-response', (_req, res) => resolve({ status: res.statusCode ?? 0 }));
    ws.on('error', () => undefined);
  });
}

function rpc(ws: WebSocket, frame: string): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const msg = JSON.parse(data.toString()) as Record<string, unknown>;
      if (msg.type === 'response') {
        ws.off('message', onMessage);
        resolve(msg);
      }
    };
    ws.on('message', onMessage);
    ws.send(frame);
  });
}

const MCP_TOKEN = 'mcp-token-0123456789abcdefghijklmnopqrstuvwxyz';

describe('web server', () => {
  it('serves the page only with the token, with a CSP', async () => {
    expect((await get('/')).status).toBe(401);
    expect((await get('/?token=nope')).status).toBe(401);
    const ok = await get(`/?token=${server.token}`);
    expect(ok.status).toBe(200);
    expect(ok.body).toContain('Sandglass');
    expect(ok.csp).toContain("default-src 'self'");
    expect((await get('/app.js')).status).toBe(200);
    expect((await get('/../../etc/passwd')).status).toBe(404);
    expect((await get(`/?token=${server.token}`, { host: 'evil.example' })).status).toBe(403);
  });

  it('tells the workbench page (its token, our Host and Origin) how agents connect', async () => {
    const path = '/agent-connection';
    expect((await get(path)).status).toBe(401);
    expect((await get(`${path}?token=nope`)).status).toBe(401);
    const foreign = { origin: 'https://evil.example' };
    expect((await get(`${path}?token=${server.token}`, foreign)).status).toBe(403);
    const ok = await get(`${path}?token=${server.token}`);
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toEqual({
      mcpUrl: `http://127.0.0.1:${server.port}/mcp`,
      token: MCP_TOKEN,
      tokenFile: '/home/me/.sandglass/mcp-token',
    });
  });

  it('rejects WebSockets with a wrong token or a foreign Origin', async () => {
    expect(await connect('?token=wrong', `http://127.0.0.1:${server.port}`)).toEqual({
      status: 401,
    });
    expect(await connect('', `http://127.0.0.1:${server.port}`)).toEqual({ status: 401 });
    expect(await connect(`?token=${server.token}`, 'http://evil.example')).toEqual({ status: 403 });
  });

  it('answers requests and rejects bad frames without dying', async () => {
    const conn = await connect(`?token=${server.token}`, `http://127.0.0.1:${server.port}`);
    if (!('ws' in conn)) throw new Error(`connect failed: ${conn.status}`);
    const { ws } = conn;
    expect(await rpc(ws, 'not json')).toMatchObject({ ok: false, error: { code: 'EBADMSG' } });
    expect(
      await rpc(ws, JSON.stringify({ type: 'request', id: 7, method: 'nope', params: {} })),
    ).toMatchObject({ id: 7, ok: false, error: { code: 'ENOSYS' } });
    expect(
      await rpc(
        ws,
        JSON.stringify({ type: 'request', id: 8, method: 'hello', params: { apiVersion: 2 } }),
      ),
    ).toMatchObject({ id: 8, ok: true, result: { apiVersion: 2 } });
    const created = await rpc(
      ws,
      JSON.stringify({ type: 'request', id: 9, method: 'createSandbox', params: { name: 'a' } }),
    );
    expect(created).toMatchObject({ ok: true, result: { name: 'a' } });
    ws.close();
  });
});

/** An engine whose `listSandboxes` reply cannot be serialised, as a huge step list once could not. */
class UnsendableEngine extends SandglassEngine {
  override call<M extends ApiMethod>(
    method: M,
    params: ApiParams<M>,
    client?: BusClient,
  ): Promise<ApiResult<M>> {
    if (method === 'listSandboxes') return Promise.resolve([{ size: 1n }] as ApiResult<M>);
    return super.call(method, params, client);
  }
}

// Issue 20, item 2: JSON.stringify threw inside `dispatch().then(send)` and the process exited.
describe('web server replies (issue 20 #2)', () => {
  it('answers with an error when a reply cannot be serialised, and keeps serving', async () => {
    const bad = new UnsendableEngine();
    const other = await startWebServer({ engine: bad, rendererDir: dir });
    try {
      const ws = new WebSocket(`ws://127.0.0.1:${other.port}/api?token=${other.token}`, {
        origin: `http://127.0.0.1:${other.port}`,
      });
      await new Promise((resolve) => ws.on('open', resolve));
      expect(
        await rpc(
          ws,
          JSON.stringify({ type: 'request', id: 1, method: 'listSandboxes', params: {} }),
        ),
      ).toMatchObject({ id: 1, ok: false, error: { code: 'E2BIG' } });
      expect(
        await rpc(
          ws,
          JSON.stringify({ type: 'request', id: 2, method: 'hello', params: { apiVersion: 2 } }),
        ),
      ).toMatchObject({ id: 2, ok: true });
      ws.close();
    } finally {
      await other.close();
      await bad.dispose();
    }
  });
});
