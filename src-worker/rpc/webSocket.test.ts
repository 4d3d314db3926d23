import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { SandglassEngine } from '../api/engine.js';
import { startWebServer, type WebServer } from '../server/webServer.js';

let server: WebServer;
let engine: SandglassEngine;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sg-rpc-ws-'));
  engine = new SandglassEngine();
  server = await startWebServer({ engine, rendererDir: dir });
});

afterAll(async () => {
  await server.close();
  await engine.dispose();
  await rm(dir, { recursive: true, force: true });
});

function connect(query: string, origin?: string): Promise<WebSocket | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/rpc${query}`, origin ? { origin } : {});
    ws.on('open', () => resolve(ws));
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', () => undefined);
  });
}

function reply(ws: WebSocket, frame: string): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData): void => {
      const message = JSON.parse(data.toString()) as Record<string, unknown>;
      if (message.method === 'event') return;
      ws.off('message', onMessage);
      resolve(message);
    };
    ws.on('message', onMessage);
    ws.send(frame);
  });
}

describe('JSON-RPC over WebSocket', () => {
  it('is guarded like the workbench: token, Origin and Host', async () => {
    expect(await connect('')).toBe(401);
    expect(await connect('?token=wrong')).toBe(401);
    expect(await connect(`?token=${server.token}`, 'https://evil.example')).toBe(403);
  });

  it('answers JSON-RPC requests and lists the connection as an agent', async () => {
    const ws = await connect(`?token=${server.token}`);
    if (typeof ws === 'number') throw new Error(`refused: ${ws}`);
    const hello = await reply(
      ws,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'hello',
        params: { apiVersion: 2, client: { name: 'ws-agent' } },
      }),
    );
    expect(hello).toMatchObject({ jsonrpc: '2.0', id: 1, result: { apiVersion: 2 } });
    const clients = await engine.call('listClients', {});
    expect(clients).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: 'ws-agent',
          role: 'agent',
          transport: 'jsonrpc-websocket',
        }),
      ]),
    );
    expect(await reply(ws, 'not json')).toMatchObject({ id: null, error: { code: -32700 } });
    ws.close();
  });

  it('kills the command of a client that disconnects mid-run; the engine goes on', async () => {
    const ws = await connect(`?token=${server.token}`);
    if (typeof ws === 'number') throw new Error(`refused: ${ws}`);
    const made = await reply(
      ws,
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'createSandbox', params: { name: 'gone' } }),
    );
    const sandboxId = (made.result as { id: string }).id;
    ws.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'run',
        params: { sandboxId, command: 'sleep 30' },
      }),
    );
    const sleeping = async (): Promise<boolean> =>
      (await engine.call('stats', { sandboxId })).processes.some((p) => p.name === 'sleep');
    await expect.poll(sleeping, { timeout: 10_000 }).toBe(true);
    ws.terminate();
    await expect.poll(sleeping, { timeout: 5000 }).toBe(false);
    expect(
      (await engine.call('listClients', {})).some((c) => c.transport === 'jsonrpc-websocket'),
    ).toBe(false);
    expect((await engine.call('run', { sandboxId, command: 'echo alive' })).stdout).toBe('alive\n');
    await engine.call('destroySandbox', { sandboxId });
  });
});
