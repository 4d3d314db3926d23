/**
 * MCP over HTTP as agents and attackers reach it: the official client in
 * both protocol eras with the bearer token, and raw requests for what must
 * be refused (no token, foreign Origin or Host, malformed or oversized
 * bodies), plus a client that hangs up mid-command.
 */
import { request as httpRequest } from 'node:http';
import { existsSync, mkdtempSync, statSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandglassEngine } from '../api/engine.js';
import { WorkerPool } from '../proc/node/workerPool.js';
import { defaultProgramsDir } from '../sandbox/sandbox.js';
import { startWebServer } from '../server/webServer.js';
import { loadOrCreateToken } from './hostFiles.js';
import { startMcpHttpServer, type McpHttpServer } from './httpServer.js';
import {
  collectNotifications,
  exerciseLegacyFeatures,
  exerciseModernFeatures,
} from './testing/features.js';
import { initializeRequest } from './testing/messages.js';

const haveShell = existsSync(join(defaultProgramsDir(), 'shell.wasm'));
const token = 'test-token-0123456789abcdefghijklmnopqrstuvwxyz';

let engine: SandglassEngine;
let server: McpHttpServer;

beforeAll(async () => {
  engine = new SandglassEngine();
  server = await startMcpHttpServer({ engine, token, port: 0 });
});

afterAll(async () => {
  await server.close();
  await engine.dispose();
  expect(await WorkerPool.drained()).toBe(true);
});

const listTools = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
const initialize = JSON.stringify(initializeRequest());

/** A raw POST (node:http, so Host and Origin can be anything). */
function post(
  body: string,
  headers: Record<string, string>,
  url = server.url,
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((ok, fail) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('error', fail);
    req.end(body);
  });
}

const bearer = { authorization: `Bearer ${token}` };

describe('access', () => {
  it('refuses requests without the bearer token, or with a wrong one (401)', async () => {
    const none = await post(listTools, {});
    expect(none.status).toBe(401);
    expect(String(none.headers['www-authenticate'])).toMatch(/^Bearer/);
    expect((await post(listTools, { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await post(listTools, { authorization: token })).status).toBe(401);
  });

  it('refuses a foreign Origin and a foreign Host (403), token or not', async () => {
    expect((await post(listTools, { ...bearer, origin: 'https://evil.example' })).status).toBe(403);
    expect((await post(listTools, { ...bearer, origin: 'null' })).status).toBe(403);
    expect((await post(listTools, { ...bearer, host: `evil.example:${server.port}` })).status).toBe(
      403,
    );
    // A local page's Origin and the loopback names pass.
    const local = await post(initialize, {
      ...bearer,
      origin: `http://localhost:${server.port}`,
      host: `localhost:${server.port}`,
    });
    expect(local.status).toBe(200);
  });

  it('answers malformed, wrong-type and oversized bodies with the protocol’s errors', async () => {
    const bad = await post('{"jsonrpc": "2.0", "id": 1, "method":', bearer);
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/-32700/);
    const text = await post(listTools, { ...bearer, 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
    const huge = await post(`{"x":"${'a'.repeat(40 * 1024 * 1024)}"}`, bearer);
    expect(huge.status).toBe(413);
    // Still serving after all that.
    expect((await post(initialize, bearer)).status).toBe(200);
  });

  it('serves only /mcp', async () => {
    expect((await fetch(new URL('/other', server.url), { headers: bearer })).status).toBe(404);
  });
});

/** The first JSON-RPC message of a response (a JSON body, or the first SSE `data:` line). */
function message(text: string): Record<string, unknown> {
  const data = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? 'null');
  return JSON.parse(data) as Record<string, unknown>;
}

describe('sessions (2025 era)', () => {
  const v = { 'mcp-protocol-version': '2025-11-25' };
  async function open(version = '2025-11-25'): Promise<Record<string, string>> {
    const body = JSON.parse(initialize) as { params: Record<string, unknown> };
    body.params.protocolVersion = version;
    const init = await post(JSON.stringify(body), bearer);
    expect(init.status).toBe(200);
    expect(message(init.text)).toMatchObject({ result: { protocolVersion: version } });
    const id = String(init.headers['mcp-session-id'] ?? '');
    expect(id).toMatch(/^[\x21-\x7e]{16,}$/);
    const session = { ...bearer, 'mcp-protocol-version': version, 'mcp-session-id': id };
    const initialized = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const ack = await post(initialized, session);
    expect(ack.status).toBe(202);
    expect(ack.text).toBe('');
    return session;
  }

  it('issues a session at initialize; requests without it get 400, unknown ones 404', async () => {
    const session = await open();
    const ok = await post(listTools, session);
    expect(ok.status).toBe(200);
    expect(message(ok.text)).toMatchObject({ id: 1, result: { tools: expect.any(Array) } });
    expect((await post(listTools, { ...bearer, ...v })).status).toBe(400);
    const unknown = await post(listTools, { ...session, 'mcp-session-id': 'no-such-session' });
    expect(unknown.status).toBe(404);
    expect(message(unknown.text)).toMatchObject({ error: { code: -32001 } });
    // Each initialize is a new session.
    expect((await open())['mcp-session-id']).not.toBe(session['mcp-session-id']);
  });

  it('ends a session on DELETE: later requests get 404', async () => {
    const session = await open();
    const del = await fetch(server.url, { method: 'DELETE', headers: session });
    expect(del.status).toBe(200);
    expect((await post(listTools, session)).status).toBe(404);
    expect((await fetch(server.url, { method: 'DELETE', headers: session })).status).toBe(404);
  });

  it('opens one server stream per session on GET; other methods get 405', async () => {
    const session = await open();
    const stop = new AbortController();
    const t0 = Date.now();
    const stream = await fetch(server.url, {
      headers: { ...session, accept: 'text/event-stream' },
      signal: stop.signal,
    });
    // Its headers come at once, not with the first keep-alive (15 s).
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const second = await fetch(server.url, {
      headers: { ...session, accept: 'text/event-stream' },
    });
    expect(second.status).toBe(409);
    stop.abort();
    const put = await fetch(server.url, { method: 'PUT', headers: session, body: '{}' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST, DELETE');
  });

  it('answers 400 to an unsupported MCP-Protocol-Version, before and after initialize', async () => {
    const session = await open();
    for (const bad of ['invalid-protocol-version', '2000-01-01', '2099-01-01']) {
      expect((await post(listTools, { ...bearer, 'mcp-protocol-version': bad })).status).toBe(400);
      expect((await post(listTools, { ...session, 'mcp-protocol-version': bad })).status).toBe(400);
    }
  });

  it('refuses batches from 2025-06-18 on, and takes them at 2025-03-26', async () => {
    const session = await open();
    const batch = JSON.stringify([
      { jsonrpc: '2.0', id: 901, method: 'ping', params: {} },
      { jsonrpc: '2.0', id: 902, method: 'ping', params: {} },
    ]);
    for (const version of ['2025-06-18', '2025-11-25']) {
      const refused = await post(batch, { ...session, 'mcp-protocol-version': version });
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.text)).toMatchObject({ id: null, error: { code: -32600 } });
    }
    // Without the header, the session's version decides.
    const { 'mcp-protocol-version': _, ...bare } = session;
    expect((await post(batch, bare)).status).toBe(400);
    const { 'mcp-protocol-version': __, ...old } = await open('2025-03-26');
    for (const headers of [old, { ...old, 'mcp-protocol-version': '2025-03-26' }]) {
      const taken = await post(batch, headers);
      expect(taken.status).toBe(200);
      expect(taken.text).toMatch(/"id":901/);
      expect(taken.text).toMatch(/"id":902/);
    }
  });

  it('answers malformed messages with -32700 and -32600', async () => {
    const session = await open();
    const parse = await post('{"jsonrpc":', session);
    expect(parse.status).toBe(400);
    expect(JSON.parse(parse.text)).toMatchObject({ id: null, error: { code: -32700 } });
    for (const bad of [
      { jsonrpc: '2.0', id: 5 },
      { jsonrpc: '1.0', id: 5, method: 'ping' },
    ]) {
      const r = await post(JSON.stringify(bad), session);
      expect(r.status).toBe(400);
      expect(JSON.parse(r.text)).toMatchObject({ error: { code: -32600 } });
    }
  });
});

async function connect(mode: 'legacy' | 'auto'): Promise<Client> {
  const client = new Client({ name: 'http-test', version: '2' }, { versionNegotiation: { mode } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: bearer } }),
  );
  return client;
}

describe.skipIf(!haveShell)('tools over HTTP', () => {
  for (const [mode, version] of [
    ['legacy', '2025-11-25'],
    ['auto', '2026-07-28'],
  ] as const) {
    it(`serves ${version} clients; the shell session outlives each request`, async () => {
      const client = await connect(mode);
      try {
        expect(client.getNegotiatedProtocolVersion()).toBe(version);
        const { tools } = await client.listTools();
        expect(tools.every((t) => (t.description ?? '').length > 0 && t.outputSchema)).toBe(true);
        const made = await client.callTool({ name: 'create_sandbox', arguments: {} });
        const id = (made.structuredContent as { sandbox_id: string }).sandbox_id;
        await client.callTool({
          name: 'run',
          arguments: { sandbox_id: id, command: 'cd /tmp; export Q=9' },
        });
        const r = await client.callTool({
          name: 'run',
          arguments: { sandbox_id: id, command: 'echo $PWD $Q' },
        });
        expect((r.content as { text: string }[])[0]?.text).toBe('/tmp 9\n');
        const progress: string[] = [];
        await client.callTool(
          { name: 'run', arguments: { sandbox_id: id, command: 'sleep 2.5' } },
          { onprogress: (p) => progress.push(p.message ?? '') },
        );
        expect(progress.length).toBeGreaterThan(0);
        await client.callTool({ name: 'destroy_sandbox', arguments: { sandbox_id: id } });
      } finally {
        await client.close();
      }
    });
  }

  // 2026-07-28 exchanges are one request each: hanging up ends it. (A 2025
  // session's request outlives its connection, as the spec asks: the client
  // cancels with notifications/cancelled; see below.)
  it('kills the command of a 2026-07-28 client that hangs up mid-call; the engine goes on', async () => {
    const sb = await engine.call('createSandbox', { name: 'hangup' });
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: {
        name: 'run',
        arguments: { sandbox_id: sb.id, command: 'sleep 60' },
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    });
    const req = httpRequest(server.url, {
      method: 'POST',
      headers: {
        ...bearer,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'run',
      },
    });
    req.on('error', () => undefined);
    req.end(body);
    for (
      let i = 0;
      i < 50 && (await engine.call('stats', { sandboxId: sb.id })).running === null;
      i++
    )
      await new Promise((r) => setTimeout(r, 50));
    expect((await engine.call('stats', { sandboxId: sb.id })).running).toBe('sleep 60');
    req.destroy();
    let running: string | null = 'sleep 60';
    for (let i = 0; i < 100 && running !== null; i++) {
      await new Promise((r) => setTimeout(r, 50));
      running = (await engine.call('stats', { sandboxId: sb.id })).running;
    }
    expect(running).toBeNull();
    const next = await engine.call('run', { sandboxId: sb.id, command: 'echo still here' });
    expect(next.stdout).toBe('still here\n');
  });
});

describe.skipIf(!haveShell)('cancellation over HTTP (2025 session)', () => {
  it('kills the command when the client sends notifications/cancelled', async () => {
    const client = await connect('legacy');
    try {
      const made = await client.callTool({ name: 'create_sandbox', arguments: {} });
      const id = (made.structuredContent as { sandbox_id: string }).sandbox_id;
      const stop = new AbortController();
      const call = client.callTool(
        { name: 'run', arguments: { sandbox_id: id, command: 'sleep 60' } },
        { signal: stop.signal },
      );
      call.catch(() => undefined);
      let running: string | null = null;
      for (let i = 0; i < 100 && running === null; i++) {
        await new Promise((r) => setTimeout(r, 50));
        running = (await engine.call('stats', { sandboxId: id })).running;
      }
      expect(running).toBe('sleep 60');
      stop.abort();
      await expect(call).rejects.toThrow();
      for (let i = 0; i < 100 && running !== null; i++) {
        await new Promise((r) => setTimeout(r, 50));
        running = (await engine.call('stats', { sandboxId: id })).running;
      }
      expect(running).toBeNull();
      const next = await client.callTool({
        name: 'run',
        arguments: { sandbox_id: id, command: 'echo after' },
      });
      expect((next.content as { text: string }[])[0]?.text).toBe('after\n');
    } finally {
      await client.close();
    }
  });
});

describe.skipIf(!haveShell)('resources, logging, completions over HTTP', () => {
  it('serves them to 2025-11-25 clients in a session (updates on its GET stream)', async () => {
    const client = await connect('legacy');
    try {
      await exerciseLegacyFeatures(client, collectNotifications(client));
    } finally {
      await client.close();
    }
  });

  it('serves them to 2026-07-28 clients', async () => {
    const client = await connect('auto');
    try {
      await exerciseModernFeatures(client, collectNotifications(client));
    } finally {
      await client.close();
    }
  });

  it('answers a non-string cursor with -32602 in both eras, removed methods with 404', async () => {
    const opened = await post(initialize, bearer);
    const session = String(opened.headers['mcp-session-id']);
    const bad = JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'resources/list',
      params: { cursor: 5 },
    });
    const legacy = await post(bad, {
      ...bearer,
      'mcp-session-id': session,
      'mcp-protocol-version': '2025-11-25',
    });
    expect(legacy.status).toBe(200);
    expect(JSON.parse(legacy.text)).toMatchObject({ id: 2, error: { code: -32602 } });
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const modern = await post(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'resources/list',
        params: { cursor: 5, _meta: meta },
      }),
      { ...bearer, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'resources/list' },
    );
    expect(modern.status).toBe(200);
    expect(JSON.parse(modern.text)).toMatchObject({ id: 3, error: { code: -32602 } });
    // Methods 2026-07-28 removed stay 404 -32601 whatever their params,
    // initialize too (which the SDK would route to the 2025 era).
    for (const method of ['initialize', 'logging/setLevel', 'resources/subscribe']) {
      const gone = await post(
        JSON.stringify({ jsonrpc: '2.0', id: 4, method, params: { _meta: meta } }),
        { ...bearer, 'mcp-protocol-version': '2026-07-28', 'mcp-method': method },
      );
      expect(gone.status, method).toBe(404);
      expect(JSON.parse(gone.text), method).toMatchObject({ id: 4, error: { code: -32601 } });
    }
  });
});

describe('the token file', () => {
  it('is created mode 0600 and reused; one others can read is replaced', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sg-token-')), 'dir', 'mcp-token');
    const first = await loadOrCreateToken(file);
    expect(first).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await loadOrCreateToken(file)).toBe(first);
    const { chmodSync } = await import('node:fs');
    chmodSync(file, 0o644);
    const second = await loadOrCreateToken(file);
    expect(second).not.toBe(first);
    expect(readFileSync(file, 'utf8').trim()).toBe(second);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});

describe('the web server', () => {
  it('serves /mcp behind the MCP token, beside the workbench', async () => {
    const web = await startWebServer({
      engine,
      rendererDir: mkdtempSync(join(tmpdir(), 'sg-renderer-')),
      port: 0,
      mcpToken: token,
    });
    try {
      expect(web.mcpUrl).toBe(`http://127.0.0.1:${web.port}/mcp`);
      expect((await post(listTools, {}, web.mcpUrl)).status).toBe(401);
      // The workbench's own token is not the MCP token.
      expect(
        (await post(listTools, { authorization: `Bearer ${web.token}` }, web.mcpUrl)).status,
      ).toBe(401);
      const ok = await post(initialize, bearer, web.mcpUrl);
      expect(ok.status).toBe(200);
      expect(ok.text).toMatch(/"serverInfo":\{"name":"sandglass"/);
    } finally {
      await web.close();
    }
  });
});
