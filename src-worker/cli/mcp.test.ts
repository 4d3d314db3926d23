/**
 * `sandglass mcp` as agents start it: a child process speaking MCP on
 * stdio, driven by the official client in both protocol eras, and by hand
 * for what a client library would never send.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import {
  collectNotifications,
  exerciseLegacyFeatures,
  exerciseModernFeatures,
} from '../mcp/testing/features.js';
import { initializeRequest } from '../mcp/testing/messages.js';
import { defaultProgramsDir } from '../sandbox/sandbox.js';
import { parseMcpArgs } from './mcp.js';
import { UsageError } from './options.js';

const root = resolve(import.meta.dirname, '..', '..');
const bin = join(root, 'bin', 'sandglass.mjs');
const haveShell = existsSync(join(defaultProgramsDir(), 'shell.wasm'));
const env = {
  ...process.env,
  SANDGLASS_EXPORT_DIR: mkdtempSync(join(tmpdir(), 'sg-mcp-stdio-')),
} as Record<string, string>;

describe('parseMcpArgs', () => {
  it('takes the output cap, export directory and programs directory', () => {
    expect(parseMcpArgs([])).toEqual({
      maxOutputBytes: undefined,
      exportDir: undefined,
      programsDir: undefined,
      allowImports: [],
    });
    const dir = realpathSync(tmpdir());
    expect(
      parseMcpArgs(['--allow-import', dir, '--allow-import', `${dir}:ro`]).allowImports,
    ).toEqual([
      { root: dir, readOnly: false },
      { root: dir, readOnly: true },
    ]);
    expect(() => parseMcpArgs(['--allow-import', '/no/such/dir:ro'])).toThrow(UsageError);
    expect(parseMcpArgs(['--max-output-bytes', '4096', '--export-dir', '/tmp/x'])).toMatchObject({
      maxOutputBytes: 4096,
      exportDir: '/tmp/x',
    });
    expect(() => parseMcpArgs(['--max-output-bytes', '12'])).toThrow(/256 to 1048576/);
    expect(() => parseMcpArgs(['--bogus'])).toThrow(UsageError);
    expect(() => parseMcpArgs(['extra'])).toThrow(UsageError);
  });
});

async function connect(mode: 'legacy' | 'auto', args: string[] = []): Promise<Client> {
  const client = new Client({ name: 'stdio-test', version: '1' }, { versionNegotiation: { mode } });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'mcp', ...args],
      env,
      cwd: root,
    }),
  );
  return client;
}

describe.skipIf(!haveShell)('sandglass mcp over stdio', () => {
  for (const [mode, version] of [
    ['legacy', '2025-11-25'],
    ['auto', '2026-07-28'],
  ] as const) {
    it(`serves ${version} clients: tools, a persistent session, the output cap`, async () => {
      const client = await connect(mode, ['--max-output-bytes', '512']);
      try {
        expect(client.getNegotiatedProtocolVersion()).toBe(version);
        const { tools } = await client.listTools();
        expect(tools.length).toBeGreaterThanOrEqual(13);
        const made = await client.callTool({
          name: 'create_sandbox',
          arguments: { name: 'stdio' },
        });
        const id = (made.structuredContent as { sandbox_id: string }).sandbox_id;
        await client.callTool({
          name: 'run',
          arguments: { sandbox_id: id, command: 'cd /tmp; N=7' },
        });
        const r = await client.callTool({
          name: 'run',
          arguments: { sandbox_id: id, command: 'echo "$PWD $N"; seq 1 1000' },
        });
        const out = (r.content as { text: string }[])[0]?.text ?? '';
        expect(out.startsWith('/tmp 7\n1\n2\n')).toBe(true);
        expect(r.structuredContent).toMatchObject({ truncated: true, exit_code: 0 });
        expect(Buffer.byteLength(out)).toBeLessThan(600);
      } finally {
        await client.close();
      }
    });
  }
});

describe.skipIf(!haveShell)('sandglass mcp over stdio: resources, logging, completions', () => {
  it('serves them to 2025-11-25 clients', async () => {
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

  it('refuses a second initialize, as the SDK’s HTTP transport does (-32600)', async () => {
    const s = rawServer();
    try {
      s.send(initialize);
      expect(await s.next()).toMatchObject({ id: 1, result: { protocolVersion: '2025-11-25' } });
      s.send(initializeRequest({ protocolVersion: '2024-11-05' }, 2));
      expect(await s.next()).toMatchObject({
        id: 2,
        error: { code: -32600, message: 'Invalid Request: Server already initialized' },
      });
      s.send({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { cursor: 5 } });
      expect(await s.next()).toMatchObject({ id: 3, error: { code: -32602 } });
    } finally {
      s.child.kill();
    }
  });
});

/** The server as a raw child: send lines, read reply lines. */
function rawServer(): {
  child: ChildProcessWithoutNullStreams;
  send(message: unknown): void;
  next(): Promise<Record<string, unknown>>;
} {
  const child = spawn(process.execPath, [bin, 'mcp'], { cwd: root, env });
  const lines: string[] = [];
  const waiters: ((line: string) => void)[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    const w = waiters.shift();
    if (w) w(line);
    else lines.push(line);
  });
  return {
    child,
    send: (m) => child.stdin.write(`${typeof m === 'string' ? m : JSON.stringify(m)}\n`),
    next: () =>
      new Promise((ok) => {
        const line = lines.shift();
        if (line !== undefined) ok(JSON.parse(line) as Record<string, unknown>);
        else waiters.push((l) => ok(JSON.parse(l) as Record<string, unknown>));
      }),
  };
}

const initialize = initializeRequest();

describe.skipIf(!haveShell)('sandglass mcp with bad input', () => {
  it('answers malformed JSON-RPC with spec errors and keeps serving', async () => {
    const s = rawServer();
    try {
      s.send('{this is not json');
      expect(await s.next()).toMatchObject({ id: null, error: { code: -32700 } });
      s.send([1, 2]);
      expect(await s.next()).toMatchObject({ id: null, error: { code: -32600 } });
      s.send({ jsonrpc: '1.0', id: 5, method: 'tools/list' });
      expect(await s.next()).toMatchObject({ id: 5, error: { code: -32600 } });
      s.send(initialize);
      expect(await s.next()).toMatchObject({ id: 1, result: { protocolVersion: '2025-11-25' } });
      s.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      s.send({ jsonrpc: '2.0', id: 2, method: 'no/such/method' });
      expect(await s.next()).toMatchObject({ id: 2, error: { code: -32601 } });
      s.send({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'nope', arguments: {} },
      });
      // An unknown tool is a protocol error (-32602); bad arguments and
      // failures are tool results with isError, which the model can read.
      expect(await s.next()).toMatchObject({ id: 3, error: { code: -32602 } });
      s.send({
        jsonrpc: '2.0',
        id: 31,
        method: 'tools/call',
        params: { name: 'run', arguments: {} },
      });
      expect(await s.next()).toMatchObject({
        id: 31,
        result: {
          isError: true,
          content: [{ type: 'text', text: expect.stringMatching(/sandbox_id/) }],
        },
      });
      s.send({ jsonrpc: '2.0', id: 32, method: 'ping' });
      expect(await s.next()).toMatchObject({ id: 32, result: {} });
      s.send({ jsonrpc: '2.0', id: 4, method: 'tools/list' });
      expect(await s.next()).toMatchObject({ id: 4, result: { tools: expect.any(Array) } });
      // Positional params, and a malformed initialize, are invalid params, answered.
      s.send({ jsonrpc: '2.0', id: 6, method: 'tools/list', params: [] });
      expect(await s.next()).toMatchObject({ id: 6, error: { code: -32602 } });
      s.send({ jsonrpc: '2.0', id: 7, method: 'initialize', params: { protocolVersion: 'x' } });
      expect(await s.next()).toMatchObject({ id: 7, error: { code: -32602 } });
    } finally {
      s.child.kill();
    }
  });

  it('negotiates the protocol version: the client’s when supported, else the latest', async () => {
    for (const [asked, got] of [
      ['2024-11-05', '2024-11-05'],
      ['2025-06-18', '2025-06-18'],
      ['1999-01-01', '2025-11-25'],
      ['2099-12-31', '2025-11-25'],
    ]) {
      const s = rawServer();
      try {
        s.send(initializeRequest({ protocolVersion: asked }));
        expect(await s.next()).toMatchObject({
          id: 1,
          result: {
            protocolVersion: got,
            capabilities: { tools: { listChanged: false } },
            serverInfo: { name: 'sandglass' },
            instructions: expect.stringContaining('create_sandbox'),
          },
        });
      } finally {
        s.child.kill();
      }
    }
  }, 120_000);

  it('takes a batch in a 2025-03-26 session and answers it with one array; later versions refuse it', async () => {
    const batch = [
      { jsonrpc: '2.0', id: 'a', method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 'b', method: 'tools/list' },
      { jsonrpc: '2.0', id: 'c', method: 'no/such/method' },
    ];
    const s = rawServer();
    try {
      s.send(initializeRequest({ protocolVersion: '2025-03-26' }));
      await s.next();
      s.send(batch);
      const reply = (await s.next()) as unknown as { id: string }[];
      expect(Array.isArray(reply)).toBe(true);
      expect(reply.map((r) => r.id).sort()).toEqual(['a', 'b', 'c']);
      expect(reply.find((r) => r.id === 'c')).toMatchObject({ error: { code: -32601 } });
      expect(reply.find((r) => r.id === 'b')).toMatchObject({
        result: { tools: expect.any(Array) },
      });
    } finally {
      s.child.kill();
    }
    const later = rawServer();
    try {
      later.send(initialize);
      await later.next();
      later.send(batch);
      expect(await later.next()).toMatchObject({ id: null, error: { code: -32600 } });
      later.send({ jsonrpc: '2.0', id: 9, method: 'ping' });
      expect(await later.next()).toMatchObject({ id: 9, result: {} });
    } finally {
      later.child.kill();
    }
  });

  it('ends promptly, killing the running command, when the client goes away mid-command', async () => {
    const s = rawServer();
    s.send(initialize);
    await s.next();
    s.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    s.send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'create_sandbox', arguments: {} },
    });
    await s.next();
    s.send({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'run', arguments: { sandbox_id: 'sb1', command: 'sleep 60' } },
    });
    await new Promise((r) => setTimeout(r, 500));
    const t0 = Date.now();
    const exited = new Promise<number | null>((ok) => s.child.on('exit', (code) => ok(code)));
    s.child.stdin.end();
    expect(await exited).toBe(0);
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it('refuses a message larger than its limit without dying', async () => {
    const s = rawServer();
    try {
      s.send(initialize);
      await s.next();
      s.send(
        `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"x":"${'a'.repeat(65 * 1024 * 1024)}"}}`,
      );
      expect(await s.next()).toMatchObject({ id: null, error: { code: -32600 } });
      s.send({ jsonrpc: '2.0', id: 10, method: 'tools/list' });
      expect(await s.next()).toMatchObject({ id: 10, result: { tools: expect.any(Array) } });
    } finally {
      s.child.kill();
    }
  });
});
