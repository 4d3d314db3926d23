/**
 * Every tool, called through a real MCP client (in memory) against a real
 * engine: results, structured metadata, errors as isError results, the
 * persistent shell session, output caps, progress, cancellation and
 * network approvals waiting for a person.
 */
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SandglassEngine } from '../api/engine.js';
import { WorkerPool } from '../proc/node/workerPool.js';
import { defaultProgramsDir, Sandbox } from '../sandbox/sandbox.js';
import { connectAgent } from './host.js';
import { createMcpServer } from './server.js';
import { TOOLS } from './tools/index.js';

const haveShell = existsSync(join(defaultProgramsDir(), 'shell.wasm'));

let engine: SandglassEngine;
let client: Client;
let agent: ReturnType<typeof connectAgent>;
const exportDir = mkdtempSync(join(tmpdir(), 'sg-mcp-export-'));

type Result = Awaited<ReturnType<Client['callTool']>>;

async function call(name: string, args: Record<string, unknown> = {}): Promise<Result> {
  return client.callTool({ name, arguments: args });
}

/** A successful call's structured content. */
async function ok(name: string, args: Record<string, unknown> = {}) {
  const r = await call(name, args);
  if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.content)}`);
  return r.structuredContent as Record<string, unknown>;
}

/** A failed call's error text. */
async function fails(name: string, args: Record<string, unknown>): Promise<string> {
  const r = await call(name, args);
  expect(r.isError).toBe(true);
  return (r.content as { text: string }[])[0]?.text ?? '';
}

const texts = (r: Result) => (r.content as { type: string; text: string }[]).map((c) => c.text);

async function sandbox(): Promise<string> {
  return (await ok('create_sandbox', { name: 'test' })).sandbox_id as string;
}

beforeEach(async () => {
  engine = new SandglassEngine();
  agent = connectAgent(engine, {
    transport: 'mcp-stdio',
    exportDir,
    limits: { progressIntervalMs: 50 },
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await createMcpServer(agent).connect(a);
  client = new Client({ name: 'vitest-agent', version: '1.2.3' });
  await client.connect(b);
});

afterEach(async () => {
  await client.close();
  agent.close();
  await engine.dispose();
});

afterAll(async () => {
  expect(await WorkerPool.drained()).toBe(true);
});

describe('tools/list', () => {
  it('lists every tool with a description, input and output schemas and annotations', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining([
        'create_sandbox',
        'list_sandboxes',
        'destroy_sandbox',
        'run',
        'read_file',
        'write_file',
        'edit_file',
        'list_dir',
        'snapshot',
        'restore',
        'fork',
        'diff',
        'timeline_export',
      ]),
    );
    for (const t of tools) {
      expect(t.description?.length, t.name).toBeGreaterThan(40);
      expect(t.inputSchema.type, t.name).toBe('object');
      expect(t.outputSchema?.type, t.name).toBe('object');
      expect(typeof t.annotations?.readOnlyHint, t.name).toBe('boolean');
      expect(typeof t.annotations?.destructiveHint, t.name).toBe('boolean');
    }
    const run = tools.find((t) => t.name === 'run');
    expect(Object.keys(run?.inputSchema.properties ?? {})).toEqual([
      'sandbox_id',
      'command',
      'cwd',
      'env',
      'stdin',
      'timeout_ms',
      'network_reason',
      'max_output_bytes',
    ]);
    expect(run?.inputSchema.required).toEqual(['sandbox_id', 'command']);
    // What each tool does to its world, as hints: read-only, destructive,
    // idempotent, open world (only run reaches beyond the sandbox: the
    // network, when allowed). timeline_export writes a new file on the host.
    const hints = Object.fromEntries(
      tools.map((t) => [
        t.name,
        [
          t.annotations?.readOnlyHint,
          t.annotations?.destructiveHint,
          t.annotations?.idempotentHint,
          t.annotations?.openWorldHint,
        ]
          .map((h) => (h === undefined ? '?' : h ? 'y' : 'n'))
          .join(''),
      ]),
    );
    expect(hints).toEqual({
      create_sandbox: 'nnnn',
      list_sandboxes: 'ynyn',
      destroy_sandbox: 'nyyn',
      run: 'nyny',
      read_file: 'ynyn',
      write_file: 'nyyn',
      edit_file: 'nynn',
      list_dir: 'ynyn',
      snapshot: 'ynyn',
      restore: 'nynn',
      fork: 'nnnn',
      diff: 'ynyn',
      timeline_export: 'nnnn',
    });
    for (const t of tools) {
      expect(t.title, t.name).toMatch(/^[A-Z]/);
      expect(t.annotations?.title, t.name).toBe(t.title);
    }
  });

  it('lists every tool on one page: no nextCursor, and any cursor is invalid (-32602)', async () => {
    const page = await client.listTools();
    expect(page.nextCursor).toBeUndefined();
    await expect(client.listTools({ cursor: 'page-2' })).rejects.toMatchObject({ code: -32602 });
    expect((await client.listTools()).tools).toHaveLength(TOOLS.length);
  });

  it('lists tools as the SDK’s own listing would, from the same schemas', async () => {
    // The SDK's listing, from a server that keeps it (no cursor check).
    const plain = new McpServer({ name: 'plain', version: '1' });
    for (const t of TOOLS)
      plain.registerTool(
        t.name,
        {
          title: t.title,
          description: t.description,
          inputSchema: t.input,
          outputSchema: t.output,
          annotations: { title: t.title, ...t.annotations },
        },
        () => ({ content: [] }),
      );
    const [a, b] = InMemoryTransport.createLinkedPair();
    await plain.connect(a);
    const other = new Client({ name: 'parity', version: '1' });
    await other.connect(b);
    try {
      expect((await client.listTools()).tools).toEqual((await other.listTools()).tools);
    } finally {
      await other.close();
    }
  });

  it('declares what it implements: tools (a list that never changes), resources, logging, completions', () => {
    expect(client.getServerCapabilities()).toEqual({
      tools: { listChanged: false },
      resources: { subscribe: true, listChanged: true },
      logging: {},
      completions: {},
    });
    expect(client.getServerVersion()).toMatchObject({
      name: 'sandglass',
      version: /^\d+\.\d+\.\d+$/,
    });
    expect(client.getInstructions()).toMatch(/create_sandbox/);
  });
});

describe.skipIf(!haveShell)('structured results', () => {
  it('match the output schema each tool publishes, checked as JSON Schema (2020-12)', async () => {
    const { tools } = await client.listTools();
    const ajv = new AjvJsonSchemaValidator();
    const checked = new Set<string>();
    const check = async (name: string, args: Record<string, unknown>) => {
      const r = await call(name, args);
      expect(r.isError, `${name}: ${JSON.stringify(r.content)}`).toBeFalsy();
      const schema = tools.find((t) => t.name === name)?.outputSchema;
      expect(schema, name).toBeDefined();
      const verdict = ajv.getValidator(schema as never)(r.structuredContent);
      expect(verdict.valid, `${name}: ${verdict.valid ? '' : verdict.errorMessage}`).toBe(true);
      checked.add(name);
      return r.structuredContent as Record<string, string>;
    };
    const { sandbox_id: id = '' } = await check('create_sandbox', { name: 'schemas' });
    await check('list_sandboxes', {});
    await check('write_file', { sandbox_id: id, path: 'n.txt', content: 'one\n' });
    await check('edit_file', { sandbox_id: id, path: 'n.txt', old_text: 'one', new_text: 'two' });
    await check('read_file', { sandbox_id: id, path: 'n.txt' });
    await check('list_dir', { sandbox_id: id });
    const { snapshot_id: snap } = await check('snapshot', { sandbox_id: id });
    await check('run', { sandbox_id: id, command: 'echo three > n.txt; echo err >&2' });
    await check('diff', { sandbox_id: id, from: snap });
    const { sandbox_id: forked } = await check('fork', { sandbox_id: id, snapshot_id: snap });
    await check('restore', { sandbox_id: id, snapshot_id: snap });
    await check('timeline_export', { sandbox_id: id });
    await check('destroy_sandbox', { sandbox_id: forked });
    expect([...checked].sort()).toEqual(tools.map((t) => t.name).sort());
  });
});

describe('sandboxes', () => {
  it('creates, lists and destroys sandboxes; the agent is named after its MCP client', async () => {
    const created = await ok('create_sandbox', {
      name: 'mine',
      env: { GREETING: 'hi' },
      timeout_ms: 5000,
      limits: { processCount: 16 },
    });
    expect(created).toMatchObject({ name: 'mine', settings: { timeoutMs: 5000 } });
    expect((created.settings as { limits: { processCount: number } }).limits.processCount).toBe(16);
    const listed = await ok('list_sandboxes');
    expect(listed.sandboxes).toEqual([expect.objectContaining({ id: created.sandbox_id })]);
    expect(await engine.call('listClients', {})).toContainEqual(
      expect.objectContaining({ name: 'vitest-agent 1.2.3', transport: 'mcp-stdio' }),
    );
    expect(await ok('destroy_sandbox', { sandbox_id: created.sandbox_id })).toEqual({
      sandbox_id: created.sandbox_id,
      destroyed: true,
    });
    expect((await ok('list_sandboxes')).sandboxes).toEqual([]);
  });

  it('reports an unknown sandbox_id as a tool error', async () => {
    expect(await fails('run', { sandbox_id: 'sb999', command: 'true' })).toMatch(/sb999/);
    expect(await fails('destroy_sandbox', { sandbox_id: 'nope' })).toMatch(/nope/);
    expect(await fails('list_dir', { sandbox_id: 'nope' })).toMatch(/nope/);
  });

  it('refuses wrong argument types and unknown arguments with the field named', async () => {
    expect(await fails('create_sandbox', { name: 42 })).toMatch(/name/);
    expect(await fails('run', { sandbox_id: 'x' })).toMatch(/command/);
    expect(await fails('run', { sandbox_id: 'x', command: 'ls', bogus: 1 })).toMatch(/bogus/);
    expect(await fails('create_sandbox', { env: { 'BAD NAME': 'x' } })).toMatch(/BAD NAME/);
    expect(await fails('run', { sandbox_id: 'x', command: 'ls', max_output_bytes: 1 })).toMatch(
      /max_output_bytes/,
    );
  });

  it('refuses an environment too large for the shell at once, naming the bound', async () => {
    const many = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`V${i}`, 'x']));
    const t0 = Date.now();
    expect(await fails('run', { sandbox_id: 'x', command: 'env', env: many })).toMatch(
      /env.*at most 4096 variables/s,
    );
    expect(await fails('create_sandbox', { env: { BIG: 'x'.repeat(2 ** 20) } })).toMatch(
      /at most 1048576 characters/,
    );
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it('answers an unknown tool with a protocol error', async () => {
    await expect(call('rm_rf', {})).rejects.toThrow(/rm_rf/);
  });
});

describe.skipIf(!haveShell)('run', () => {
  it('keeps cd, variables and functions from one call to the next', async () => {
    const id = await sandbox();
    await ok('run', {
      sandbox_id: id,
      command: 'mkdir -p /tmp/w && cd /tmp/w && X=41 && f() { echo "f:$1"; }',
    });
    const r = await call('run', { sandbox_id: id, command: 'pwd; echo $((X+1)); f ok' });
    expect(texts(r)[0]).toBe('/tmp/w\n42\nf:ok\n');
    expect(r.structuredContent).toMatchObject({ exit_code: 0, truncated: false, stdout_bytes: 15 });
    expect((r.structuredContent as { step_id?: string }).step_id).toMatch(/./);
  });

  it('returns stderr apart and the exit code, as a result (not a tool error)', async () => {
    const id = await sandbox();
    const r = await call('run', { sandbox_id: id, command: 'echo out; echo err >&2; exit 3' });
    expect(r.isError).toBeFalsy();
    expect(texts(r).slice(0, 2)).toEqual(['out\n', '[stderr]\nerr\n']);
    expect(r.structuredContent).toMatchObject({ exit_code: 3, stdout_bytes: 4, stderr_bytes: 4 });
    // The metadata is in the text too, once, for clients that ignore structuredContent.
    expect(JSON.parse(texts(r)[2] ?? '')).toEqual(r.structuredContent);
  });

  it('takes cwd, env, stdin and a time limit per call', async () => {
    const id = await sandbox();
    const r = await call('run', {
      sandbox_id: id,
      command: 'pwd; echo "$A"; cat',
      cwd: '/tmp',
      env: { A: 'from-env' },
      stdin: 'from-stdin',
    });
    expect(texts(r)[0]).toBe('/tmp\nfrom-env\nfrom-stdin');
    const slow = await ok('run', { sandbox_id: id, command: 'sleep 5', timeout_ms: 200 });
    expect(slow.exit_code).toBe(124);
  });

  it('cuts long output to head and tail and keeps the whole of it in the sandbox', async () => {
    const id = await sandbox();
    const r = await call('run', {
      sandbox_id: id,
      command: 'seq 1 20000; seq 1 3000 >&2',
      max_output_bytes: 1024,
    });
    const meta = r.structuredContent as Record<string, unknown>;
    expect(meta).toMatchObject({ truncated: true, stdout_bytes: 108894, stderr_bytes: 13893 });
    const [out, err] = texts(r);
    expect(out?.startsWith('1\n2\n3\n')).toBe(true);
    expect(out?.endsWith('19999\n20000\n')).toBe(true);
    expect(out).toMatch(/bytes not kept/);
    expect(Buffer.byteLength(out ?? '')).toBeLessThan(1200);
    expect(err?.endsWith('2999\n3000\n')).toBe(true);
    expect(meta.stdout_path).toMatch(/^\/tmp\/\.sandglass\/out\/.+\.stdout$/);
    // The kept files belong to the run's own step: no write or mkdir step of their own.
    const { steps } = await engine.call('listSteps', { sandboxId: id }, agent.client);
    expect(steps.map((s) => s.kind)).toEqual(['command']);
    expect(steps[0]?.changes.paths.map((p) => p.path)).toEqual(
      expect.arrayContaining([meta.stdout_path, meta.stderr_path]),
    );
    const whole = await ok('run', {
      sandbox_id: id,
      command: `wc -l < ${String(meta.stdout_path)}`,
    });
    expect(whole.stdout_bytes).toBeGreaterThan(0);
    const count = await call('run', {
      sandbox_id: id,
      command: `wc -l < ${String(meta.stdout_path)}`,
    });
    expect(texts(count)[0]?.trim()).toBe('20000');
  });

  it('reports progress while a command runs', async () => {
    const id = await sandbox();
    const messages: string[] = [];
    const r = await client.callTool(
      { name: 'run', arguments: { sandbox_id: id, command: 'sleep 0.4; echo done' } },
      { onprogress: (p) => messages.push(p.message ?? '') },
    );
    expect(texts(r)[0]).toBe('done\n');
    expect(messages.length).toBeGreaterThan(0);
    expect(messages[0]).toMatch(/running for \d+ s/);
  });

  it('kills the command when the client cancels, and the sandbox goes on', async () => {
    const id = await sandbox();
    const abort = new AbortController();
    const t0 = Date.now();
    setTimeout(() => abort.abort(), 300);
    await expect(
      client.callTool(
        { name: 'run', arguments: { sandbox_id: id, command: 'sleep 20' } },
        { signal: abort.signal },
      ),
    ).rejects.toThrow(/abort/i);
    // The sandbox is free again at once: the next command runs right away.
    const next = await call('run', { sandbox_id: id, command: 'echo next' });
    expect(texts(next)[0]).toBe('next\n');
    expect(Date.now() - t0).toBeLessThan(5000);
    expect((await engine.call('stats', { sandboxId: id })).running).toBeNull();
  });

  it('waits for a person to answer a network approval; the agent cannot answer it', async () => {
    const id = await sandbox();
    const person = engine.connect('person', () => undefined);
    person.subscribe(id);
    const messages: string[] = [];
    const running = client.callTool(
      { name: 'run', arguments: { sandbox_id: id, command: 'sleep 0.6; echo after' } },
      { onprogress: (p) => messages.push(p.message ?? '') },
    );
    await new Promise((r) => setTimeout(r, 100));
    // What the gateway does for a request the policy does not allow.
    const asked = engine.bus.ask({
      sandboxId: id,
      kind: 'approval',
      title: 'GET https://example.com/',
      detail: '',
      answerers: ['person'],
      originClientId: agent.client.id,
    });
    await new Promise((r) => setTimeout(r, 200));
    const [request] = engine.bus.pendingFor(id);
    expect(request).toBeDefined();
    // The agent's own client is not among those who may answer.
    await expect(
      engine.call(
        'answer',
        { requestId: request?.id ?? '', answer: { allow: true } },
        agent.client,
      ),
    ).rejects.toThrow(/not addressed/);
    await engine.call('answer', { requestId: request?.id ?? '', answer: { allow: false } }, person);
    expect(await asked).toMatchObject({ outcome: 'answered', answer: { allow: false } });
    expect(texts(await running)[0]).toBe('after\n');
    expect(messages.some((m) => /waiting for a person.*example\.com/.test(m))).toBe(true);
    person.close();
  });
  it('waits while a person has paused the agent, saying so in its progress', async () => {
    const id = await sandbox();
    await engine.call('pauseClient', { clientId: agent.client.id });
    const messages: string[] = [];
    let done = false;
    const running = client
      .callTool(
        { name: 'run', arguments: { sandbox_id: id, command: 'echo resumed' } },
        { onprogress: (p) => messages.push(p.message ?? '') },
      )
      .finally(() => (done = true));
    await new Promise((r) => setTimeout(r, 300));
    expect(done).toBe(false);
    expect(messages.some((m) => /paused by a person/.test(m))).toBe(true);
    await engine.call('resumeClient', { clientId: agent.client.id });
    expect(texts(await running)[0]).toBe('resumed\n');
  });
});

describe.skipIf(!haveShell)('files', () => {
  it('writes, reads (whole and by lines) and edits text files', async () => {
    const id = await sandbox();
    expect(
      await ok('write_file', { sandbox_id: id, path: 'proj/notes.txt', content: 'a\nb\nc\nb\n' }),
    ).toEqual({ path: '/home/user/proj/notes.txt', bytes: 8 });
    const whole = await call('read_file', { sandbox_id: id, path: '/home/user/proj/notes.txt' });
    expect(texts(whole)).toEqual(['a\nb\nc\nb\n', JSON.stringify(whole.structuredContent)]);
    expect(whole.structuredContent).toMatchObject({
      encoding: 'text',
      size: 8,
      total_lines: 4,
      truncated: false,
    });
    const part = await call('read_file', {
      sandbox_id: id,
      path: 'proj/notes.txt',
      start_line: 2,
      end_line: 3,
    });
    expect(texts(part)[0]).toBe('b\nc\n');
    expect(part.structuredContent).toMatchObject({ start_line: 2, end_line: 3 });

    expect(
      await fails('edit_file', {
        sandbox_id: id,
        path: 'proj/notes.txt',
        old_text: 'b',
        new_text: 'B',
      }),
    ).toMatch(/2 times \(lines 2, 4\)/);
    expect(
      await fails('edit_file', {
        sandbox_id: id,
        path: 'proj/notes.txt',
        old_text: 'zz',
        new_text: 'B',
      }),
    ).toMatch(/not found/);
    expect(
      await ok('edit_file', {
        sandbox_id: id,
        path: 'proj/notes.txt',
        old_text: 'c\nb',
        new_text: 'C',
      }),
    ).toMatchObject({ replacements: 1, lines: [3] });
    expect(
      await ok('edit_file', {
        sandbox_id: id,
        path: 'proj/notes.txt',
        old_text: 'b',
        new_text: 'B',
        replace_all: true,
      }),
    ).toMatchObject({ replacements: 1 });
    const shell = await call('run', { sandbox_id: id, command: 'cat ~/proj/notes.txt' });
    expect(texts(shell)[0]).toBe('a\nB\nC\n');
  });

  it('records one step per write, and a mkdir step only when a directory is missing', async () => {
    const id = await sandbox();
    const steps = async () => (await engine.call('listSteps', { sandboxId: id })).total;
    const at0 = await steps();
    await ok('write_file', { sandbox_id: id, path: 'new/dir/a.txt', content: 'a' });
    expect((await steps()) - at0).toBe(2);
    await ok('write_file', { sandbox_id: id, path: 'new/dir/b.txt', content: 'b' });
    expect((await steps()) - at0).toBe(3);
  });

  it('round-trips binary files as base64 and keeps modes', async () => {
    const id = await sandbox();
    const bytes = Buffer.from([0, 1, 2, 255, 254, 10, 0]);
    await ok('write_file', {
      sandbox_id: id,
      path: '/tmp/b.bin',
      content: bytes.toString('base64'),
      encoding: 'base64',
    });
    const r = await call('read_file', { sandbox_id: id, path: '/tmp/b.bin' });
    expect(r.structuredContent).toMatchObject({ encoding: 'base64', size: 7 });
    expect(texts(r)[0]).toBe(bytes.toString('base64'));
    expect(
      await fails('read_file', { sandbox_id: id, path: '/tmp/b.bin', encoding: 'text' }),
    ).toMatch(/base64/);
    expect(
      await fails('edit_file', {
        sandbox_id: id,
        path: '/tmp/b.bin',
        old_text: 'a',
        new_text: 'b',
      }),
    ).toMatch(/text files only/);
    await ok('write_file', {
      sandbox_id: id,
      path: '/tmp/run.sh',
      content: '#!/bin/sh\necho script ran\n',
      mode: 0o755,
    });
    expect(texts(await call('run', { sandbox_id: id, command: '/tmp/run.sh' }))[0]).toBe(
      'script ran\n',
    );
    expect(
      await fails('write_file', {
        sandbox_id: id,
        path: '/tmp/x',
        content: '!!',
        encoding: 'base64',
      }),
    ).toMatch(/base64/);
  });

  it('cuts a long read at a line end and says where it stopped', async () => {
    const id = await sandbox();
    const lines = Array.from({ length: 2000 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    await ok('write_file', { sandbox_id: id, path: '/tmp/big.txt', content: lines });
    const r = await call('read_file', { sandbox_id: id, path: '/tmp/big.txt', max_bytes: 1000 });
    const meta = r.structuredContent as { end_line: number; truncated: boolean };
    expect(meta.truncated).toBe(true);
    const shown = texts(r)[0] ?? '';
    expect(shown.endsWith(`line ${meta.end_line}\n`)).toBe(true);
    expect(Buffer.byteLength(shown)).toBeLessThanOrEqual(1000);
    const rest = await call('read_file', {
      sandbox_id: id,
      path: '/tmp/big.txt',
      start_line: meta.end_line + 1,
      end_line: meta.end_line + 1,
    });
    expect(texts(rest)[0]).toBe(`line ${meta.end_line + 1}\n`);
  });

  it('lists directories like ls -l, and keeps paths inside the sandbox', async () => {
    const id = await sandbox();
    await ok('write_file', { sandbox_id: id, path: 'd/f.txt', content: 'x' });
    await ok('run', { sandbox_id: id, command: 'mkdir ~/d/sub && ln -s f.txt ~/d/link' });
    const r = await call('list_dir', { sandbox_id: id, path: 'd' });
    expect(texts(r)[0]?.split('\n')).toEqual([
      expect.stringMatching(/^- 0644 +1 f\.txt$/),
      expect.stringMatching(/^l \d{4} +\d+ link -> f\.txt$/),
      expect.stringMatching(/^d 0755 +\d+ sub\/$/),
    ]);
    expect((r.structuredContent as { entries: unknown[] }).entries).toHaveLength(3);
    // `..` cannot leave the sandbox: this is the sandbox's own /etc.
    const escaped = await call('read_file', {
      sandbox_id: id,
      path: '../../../../../../etc/hostname',
    });
    if (!escaped.isError) expect(texts(escaped)[0]).not.toBe(readFileSync('/etc/hostname', 'utf8'));
    expect(await fails('read_file', { sandbox_id: id, path: '/no/such/file' })).toMatch(/ENOENT/);
  });
});

/** Whether the sandbox's shells report their state (cwd, variables) for restores to bring back. */
const shellStateCapture =
  typeof (Sandbox.prototype as { sessionStates?: unknown }).sessionStates === 'function';

describe.skipIf(!haveShell)('timeline', () => {
  it('snapshots, restores files and shell state, forks, diffs and exports', async () => {
    const id = await sandbox();
    await ok('run', { sandbox_id: id, command: 'cd /tmp && V=before && echo one > f.txt' });
    const snap = await ok('snapshot', { sandbox_id: id });
    expect(snap.snapshot_id).toMatch(/./);
    await ok('run', {
      sandbox_id: id,
      command: 'cd / && V=after && echo two > /tmp/f.txt && echo new > /tmp/g.txt',
    });

    const diff = await call('diff', { sandbox_id: id, from: snap.snapshot_id });
    expect(diff.structuredContent).toMatchObject({ added: 1, modified: 1, deleted: 0 });
    expect(texts(diff)[0]).toMatch(/A \/tmp\/g\.txt/);
    expect(texts(diff)[0]).toMatch(/M \/tmp\/f\.txt \(\+1 -1\)/);

    const old = await call('read_file', {
      sandbox_id: id,
      path: '/tmp/f.txt',
      snapshot_id: snap.snapshot_id,
    });
    expect(texts(old)[0]).toBe('one\n');

    const forked = await ok('fork', {
      sandbox_id: id,
      snapshot_id: snap.snapshot_id,
      name: 'try-b',
    });
    expect(forked.sandbox_id).not.toBe(id);
    const inFork = await call('run', {
      sandbox_id: forked.sandbox_id,
      command: 'cat /tmp/f.txt; ls /tmp/g.txt',
    });
    expect(texts(inFork)[0]).toBe('one\n');

    const restored = await ok('restore', { sandbox_id: id, snapshot_id: snap.snapshot_id });
    expect(restored.step_id).toMatch(/./);
    const files = await call('run', { sandbox_id: id, command: 'cat /tmp/f.txt; ls /tmp/g.txt' });
    expect(texts(files)[0]).toBe('one\n');
    if (shellStateCapture) {
      const back = await call('run', { sandbox_id: id, command: 'pwd; echo $V' });
      expect(texts(back)[0]).toBe('/tmp\nbefore\n');
    }

    const exported = await ok('timeline_export', { sandbox_id: id });
    const file = exported.host_path as string;
    expect(file.startsWith(exportDir)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file).subarray(0, 2).toString()).toBe('PK');
  });

  it('reports an unknown snapshot as a tool error', async () => {
    const id = await sandbox();
    expect(await fails('restore', { sandbox_id: id, snapshot_id: 'st999' })).toMatch(/st999/);
  });
});
