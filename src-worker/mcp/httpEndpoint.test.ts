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
    const local = await post(listTools, {
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
    expect((await post(listTools, bearer)).status).toBe(200);
  });

  it('serves only /mcp, and answers GET on the stateless endpoint with 405', async () => {
    const res = await fetch(server.url, { headers: { ...bearer, accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
    expect((await fetch(new URL('/other', server.url), { headers: bearer })).status).toBe(404);
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
    it(`serves ${version} clients; the shell session outlives each stateless request`, async () => {
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

  it('kills the command of a client that hangs up mid-call; the engine goes on', async () => {
    const sb = await engine.call('createSandbox', { name: 'hangup' });
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'run', arguments: { sandbox_id: sb.id, command: 'sleep 60' } },
    });
    const req = httpRequest(server.url, {
      method: 'POST',
      headers: {
        ...bearer,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
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
      const ok = await post(listTools, bearer, web.mcpUrl);
      expect(ok.status).toBe(200);
      expect(ok.text).toMatch(/create_sandbox/);
    } finally {
      await web.close();
    }
  });
});
