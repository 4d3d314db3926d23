/**
 * What an agent pays per tool call: the round trip of `run` with `echo hi`
 * through `sandglass mcp` on stdio, measured at the client (the official
 * MCP client, as Claude Code and others use it), after warm-up calls. Also
 * `read_file` (no process at all) for the transport's own share, and the
 * same `run` over Streamable HTTP for comparison.
 *
 *   npx tsx bench/mcp/roundTrip.ts [--calls 500]
 *
 * Target (issue 19): run p50 <= 10 ms over stdio. Not a test: nothing is
 * asserted. Build the CLI first (`npm run setup` or `node
 * scripts/build-cli.mjs`), or it runs from sources (start-up is slower; the
 * round trips are the same).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { SandglassEngine } from '../../src-worker/api/engine.ts';
import { startMcpHttpServer } from '../../src-worker/mcp/httpServer.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const argCalls = process.argv.indexOf('--calls');
const CALLS = argCalls > 0 ? Number(process.argv[argCalls + 1]) : 500;
const WARMUP = 20;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
}

async function measure(
  label: string,
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<void> {
  for (let i = 0; i < WARMUP; i++) await client.callTool({ name, arguments: args });
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const t0 = performance.now();
    const r = await client.callTool({ name, arguments: args });
    times.push(performance.now() - t0);
    if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.content)}`);
  }
  times.sort((a, b) => a - b);
  const f = (p: number) => percentile(times, p).toFixed(2);
  console.log(
    `${label.padEnd(34)} p50 ${f(50)} ms  p90 ${f(90)} ms  p99 ${f(99)} ms  (${CALLS} calls)`,
  );
}

async function session(label: string, client: Client): Promise<void> {
  const made = await client.callTool({ name: 'create_sandbox', arguments: { name: 'bench' } });
  const id = (made.structuredContent as { sandbox_id: string }).sandbox_id;
  await client.callTool({
    name: 'write_file',
    arguments: { sandbox_id: id, path: 'f', content: 'hi\n' },
  });
  await measure(`${label} run echo hi`, client, 'run', { sandbox_id: id, command: 'echo hi' });
  await measure(`${label} read_file`, client, 'read_file', { sandbox_id: id, path: 'f' });
  await client.close();
}

const stdio = new Client({ name: 'bench', version: '1' });
await stdio.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: [path.join(root, 'bin/sandglass.mjs'), 'mcp'],
    cwd: root,
    stderr: 'ignore',
  }),
);
await session('stdio', stdio);

const engine = new SandglassEngine();
const token = 'bench-token-0123456789abcdefghijklmnop';
const server = await startMcpHttpServer({ engine, token, port: 0 });
const http = new Client({ name: 'bench', version: '1' });
await http.connect(
  new StreamableHTTPClientTransport(new URL(server.url), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  }),
);
await session('http (2025-11-25)', http);
await server.close();
await engine.dispose();
