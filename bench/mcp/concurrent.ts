/**
 * Many agents at once: N MCP clients over Streamable HTTP against one
 * engine, each creating its own sandbox and running M commands in it, then
 * destroying it. Reports throughput, round-trip percentiles and the engine
 * process's memory before, at peak and after the sandboxes are gone (after a
 * GC), which should come back to where it started.
 *
 *   npx tsx --expose-gc bench/mcp/concurrent.ts [--clients 20] [--commands 1000] [--rounds 2]
 *
 * Not a test: nothing is asserted.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SandglassEngine } from '../../src-worker/api/engine.ts';
import { startMcpHttpServer } from '../../src-worker/mcp/httpServer.ts';

function arg(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}
const CLIENTS = arg('clients', 20);
const COMMANDS = arg('commands', 1000);
/** Rounds of all clients: memory after each should stay level once the pool is warm. */
const ROUNDS = arg('rounds', 2);

const gc = (globalThis as { gc?: () => void }).gc;
interface Memory {
  rss: number;
  heap: number;
  /** ArrayBuffers (file contents, wasm memories) outside the JS heap. */
  buffers: number;
}
function memory(): Memory {
  gc?.();
  const m = process.memoryUsage();
  return { rss: m.rss / 2 ** 20, heap: m.heapUsed / 2 ** 20, buffers: m.arrayBuffers / 2 ** 20 };
}
const mb = (m: Memory) =>
  `rss ${m.rss.toFixed(0)} MiB, heap ${m.heap.toFixed(0)} MiB, buffers ${m.buffers.toFixed(0)} MiB`;

const engine = new SandglassEngine();
const token = 'bench-token-0123456789abcdefghijklmnop';
const server = await startMcpHttpServer({
  engine,
  token,
  port: 0,
  // A failure inside the endpoint would otherwise show only as a reset connection.
  onerror: (e) => console.error(`server: ${e.stack ?? e.message}`),
});

async function agent(n: number, times: number[]): Promise<void> {
  const client = new Client({ name: `agent-${n}`, version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  const made = await client.callTool({ name: 'create_sandbox', arguments: { name: `a${n}` } });
  const id = (made.structuredContent as { sandbox_id: string }).sandbox_id;
  for (let i = 0; i < COMMANDS; i++) {
    const t0 = performance.now();
    const r = await client.callTool({
      name: 'run',
      arguments: { sandbox_id: id, command: `echo ${n}-${i} >> log; wc -l < log` },
    });
    times.push(performance.now() - t0);
    if (r.isError) throw new Error(JSON.stringify(r.content));
  }
  await client.callTool({ name: 'destroy_sandbox', arguments: { sandbox_id: id } });
  await client.close();
}

// One warm-up agent so the worker pool and compiled modules are in place.
await agent(-1, []);
const before = memory();
console.log(`memory before: ${mb(before)}`);
for (let round = 1; round <= ROUNDS; round++) {
  let peak = memory();
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    if (m.rss / 2 ** 20 > peak.rss)
      peak = {
        rss: m.rss / 2 ** 20,
        heap: m.heapUsed / 2 ** 20,
        buffers: m.arrayBuffers / 2 ** 20,
      };
  }, 200);
  const times: number[] = [];
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CLIENTS }, (_, n) => agent(n, times)));
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  await new Promise((r) => setTimeout(r, 500));
  const after = memory();
  times.sort((a, b) => a - b);
  const p = (q: number) => (times[Math.floor((times.length * q) / 100)] ?? NaN).toFixed(1);
  console.log(
    `round ${round}: ${CLIENTS} clients x ${COMMANDS} commands: ${times.length} calls in ${seconds.toFixed(1)} s ` +
      `(${(times.length / seconds).toFixed(0)}/s), p50 ${p(50)} ms, p90 ${p(90)} ms, p99 ${p(99)} ms`,
  );
  console.log(`  memory peak: ${mb(peak)}; after destroy: ${mb(after)}`);
}
if (!gc) console.log('(run with --expose-gc for memory figures after a collection)');
console.log(`sandboxes left: ${(await engine.call('listSandboxes', {})).length}`);
await server.close();
await engine.dispose();
