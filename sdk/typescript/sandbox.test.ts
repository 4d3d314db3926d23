import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandglassEngine } from '../../src-worker/api/engine.js';
import { startMcpHttpServer, type McpHttpServer } from '../../src-worker/mcp/httpServer.js';
import { startWebServer, type WebServer } from '../../src-worker/server/webServer.js';
import { WebSocket } from 'ws';
import { Connection, Sandbox, SandglassError, type ConnectOptions } from './index.js';

const root = resolve(import.meta.dirname, '../..');

/** What every way of connecting must do alike. */
function behaves(connect: () => ConnectOptions | Promise<ConnectOptions>) {
  it('runs commands in a persistent session, with cwd, env, stdin and a time limit', async () => {
    await using sb = await Sandbox.create({ name: 'sdk', connect: await connect() });
    const first = await sb.run('cd /tmp && export N=5 && echo "$GREETING $N"', {
      env: { GREETING: 'hi' },
    });
    expect(first).toMatchObject({ stdout: 'hi 5\n', status: 0 });
    expect((await sb.run('pwd; echo $N')).stdout).toBe('/tmp\n5\n');
    expect((await sb.run('pwd', { cwd: '/' })).stdout).toBe('/\n');
    expect((await sb.run('cat', { stdin: 'piped' })).stdout).toBe('piped');
    expect(await sb.run('exit 3')).toMatchObject({ status: 3 });
    expect(await sb.run('sleep 5', { timeoutMs: 200 })).toMatchObject({ status: 124 });
  });

  it('reads and writes files, lists and removes them; errors carry codes', async () => {
    await using sb = await Sandbox.create({ connect: await connect() });
    await sb.mkdir('/work/src', { recursive: true });
    await sb.writeFile('/work/src/a.txt', 'hello\n');
    await sb.writeFile('/work/bin.dat', new Uint8Array([0, 255, 1]), { mode: 0o600 });
    expect(await sb.readTextFile('/work/src/a.txt')).toBe('hello\n');
    expect([...(await sb.readFile('/work/bin.dat'))]).toEqual([0, 255, 1]);
    expect((await sb.stat('/work/bin.dat')).mode & 0o777).toBe(0o600);
    expect((await sb.readDir('/work')).map((e) => `${e.kind} ${e.name}`).sort()).toEqual([
      'dir src',
      'file bin.dat',
    ]);
    expect((await sb.run('cat /work/src/a.txt')).stdout).toBe('hello\n');
    await sb.rename('/work/src/a.txt', '/work/b.txt');
    await sb.remove('/work/src', { recursive: true });
    expect(await sb.exists('/work/src')).toBe(false);
    expect(await sb.exists('/work/b.txt')).toBe(true);
    const err = await sb.readFile('/nope').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SandglassError);
    expect(err).toMatchObject({ code: 'ENOENT' });
    const bad = await sb.run('x', { env: { 'NOT VALID': '1' } }).catch((e: unknown) => e);
    expect(bad).toMatchObject({ code: 'EINVAL' });
  });

  it('snapshots, restores and forks onto the same connection', async () => {
    await using sb = await Sandbox.create({ connect: await connect() });
    await sb.writeFile('/tmp/state', 'one');
    const snap = await sb.snapshot();
    await sb.writeFile('/tmp/state', 'two');
    await using fork = await sb.fork();
    expect(fork.connection).toBe(sb.connection);
    // The fork says where it came from, and its history starts at that step.
    expect(fork.info.origin).toMatchObject({ sandboxId: sb.id });
    const [root] = (await fork.connection.call('listSteps', { sandboxId: fork.id })).steps;
    expect(root).toMatchObject({ kind: 'fork', origin: fork.info.origin, parentId: null });
    await sb.restore(snap);
    expect(await sb.readTextFile('/tmp/state')).toBe('one');
    expect(await fork.readTextFile('/tmp/state')).toBe('two');
    await expect(sb.restore('st999999')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('diffs two snapshots, or a snapshot and the live sandbox, across pages', async () => {
    await using sb = await Sandbox.create({ connect: await connect() });
    await sb.writeFile('/tmp/state', 'one\n');
    const snap = await sb.snapshot();
    await sb.writeFile('/tmp/state', 'two\n');
    expect(await sb.diff(snap)).toEqual([
      expect.objectContaining({
        path: '/tmp/state',
        change: 'modified',
        kind: 'file',
        linesAdded: 1,
        linesRemoved: 1,
      }),
    ]);
    // More paths than one page of the engine's diff (200).
    await sb.run('mkdir /tmp/many && for i in $(seq 250); do : > /tmp/many/f$i; done');
    const later = await sb.snapshot();
    const all = await sb.diff(snap, later);
    expect(all).toHaveLength(252);
    expect(new Set(all.map((e) => e.path)).size).toBe(252);
    expect(await sb.diff(later)).toEqual([]);
    await expect(sb.diff('st999999')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('shares one connection between sandboxes and destroys each on close', async () => {
    const connection = await Connection.open(await connect());
    try {
      const a = await Sandbox.create({ name: 'a', connection });
      const b = await Sandbox.create({ name: 'b', connection });
      expect((await connection.listSandboxes()).map((s) => s.id)).toEqual(
        expect.arrayContaining([a.id, b.id]),
      );
      await a.close();
      await a.close();
      expect((await connection.listSandboxes()).map((s) => s.id)).not.toContain(a.id);
      expect((await b.run('echo still')).stdout).toBe('still\n');
      await b.close();
    } finally {
      await connection.close();
    }
  });
}

describe('TypeScript SDK, in process', () => {
  behaves(() => ({}));
});

describe('TypeScript SDK, over `sandglass rpc`', () => {
  behaves(() => ({ mode: 'spawn', name: 'sdk-test' }));

  it('fails calls with ECONNRESET once the server is gone', async () => {
    const connection = await Connection.open({ mode: 'spawn' });
    await connection.close();
    await expect(connection.listSandboxes()).rejects.toMatchObject({ code: 'ECONNRESET' });
  });
});

describe('TypeScript SDK, over a running app’s WebSocket', () => {
  let engine: SandglassEngine;
  let server: WebServer;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sg-sdk-'));
    engine = new SandglassEngine();
    server = await startWebServer({ engine, rendererDir: dir });
  });
  afterAll(async () => {
    await server.close();
    await engine.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  behaves(() => ({ mode: 'websocket', url: server.url, name: 'ws-sdk' }));

  it('is refused without the token', async () => {
    await expect(
      Connection.open({ mode: 'websocket', url: `http://127.0.0.1:${server.port}/` }),
    ).rejects.toMatchObject({ code: 'EACCES' });
  });

  it('shows up in the engine’s client list under its name', async () => {
    await using connection = await Connection.open({
      mode: 'websocket',
      url: server.url,
      name: 'listed',
    });
    const me = (await engine.call('listClients', {})).find((c) => c.id === connection.clientId);
    expect(me).toMatchObject({ name: 'listed', role: 'agent', transport: 'jsonrpc-websocket' });
  });
});

describe('TypeScript SDK, over the desktop app’s agents server (/rpc beside /mcp)', () => {
  const bearerToken = 'agents-token-0123456789abcdefghijklmnopqrstuvwxyz';
  let engine: SandglassEngine;
  let server: McpHttpServer;
  beforeAll(async () => {
    engine = new SandglassEngine();
    server = await startMcpHttpServer({ engine, token: bearerToken, port: 0 });
  });
  afterAll(async () => {
    await server.close();
    await engine.dispose();
  });
  const base = () => `http://127.0.0.1:${server.port}/`;

  behaves(() => ({ mode: 'websocket', url: base(), bearerToken, name: 'desktop-sdk' }));

  it('is refused without the bearer token, with it in the URL, or from a foreign page', async () => {
    for (const options of [
      { url: base() },
      { url: base(), bearerToken: 'wrong' },
      { url: base(), token: bearerToken },
    ])
      await expect(Connection.open({ mode: 'websocket', ...options })).rejects.toMatchObject({
        code: 'EACCES',
      });
    const status = await new Promise<number | undefined>((done) => {
      const ws = new WebSocket(`ws://127.0.0.1:${server.port}/rpc`, {
        headers: { authorization: `Bearer ${bearerToken}`, origin: 'https://evil.example' },
      });
      ws.once('unexpected-response', (_req, res) => done(res.statusCode));
      ws.once('open', () => {
        ws.close();
        done(101);
      });
    });
    expect(status).toBe(403);
  });
});

describe("the package export: import { Sandbox } from 'sandglass'", () => {
  it('works for a consumer with the package installed', async () => {
    const cli = await import('../../scripts/build-cli.mjs');
    if (cli.builtCliFingerprint(root) !== cli.cliSourcesFingerprint(root)) await cli.buildCli(root);
    const consumer = mkdtempSync(join(tmpdir(), 'sg-consumer-'));
    try {
      mkdirSync(join(consumer, 'node_modules'));
      symlinkSync(root, join(consumer, 'node_modules', 'sandglass'));
      // Plain JS on Node 20 has no `await using`: the consumer closes explicitly.
      writeFileSync(
        join(consumer, 'main.mjs'),
        [
          "import { Sandbox } from 'sandglass';",
          "const sb = await Sandbox.create({ name: 'consumer' });",
          "const r = await sb.run('echo from-package');",
          'await sb.close();',
          'process.stdout.write(r.stdout);',
        ].join('\n'),
      );
      const out = spawnSync(process.execPath, ['main.mjs'], {
        cwd: consumer,
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(out.stderr).toBe('');
      expect(out.stdout).toBe('from-package\n');
    } finally {
      rmSync(consumer, { recursive: true, force: true });
    }
  }, 120_000);
});
