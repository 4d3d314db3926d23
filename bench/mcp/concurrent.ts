/**
 * Many agents at once: N MCP clients over Streamable HTTP against one
 * engine, each creating its own sandbox and running M commands in it, then
 * destroying it. Reports throughput, round-trip percentiles, CPU time and
 * the engine process's memory and worker threads at baseline (after a
 * warm-up agent), at peak and after each round's sandboxes are gone (after
 * the pools' idle trim and a settled GC), and checks that heap, ArrayBuffers
 * and workers come back to the baseline after every round.
 *
 *   npx tsx bench/mcp/concurrent.ts [--clients 20] [--commands 1000] [--rounds 2]
 *     [--settle-ms 12000] [--heap-snapshots DIR] [--stall-ms 0] [--think-ms 0]
 *
 * `--think-ms N` makes each client wait a random 0..N ms before each call,
 * as an agent does while its model thinks (idle keep-alive sockets).
 * `--stall-ms N` blocks the event loop for a random 0..N ms, then lets it run
 * N ms, over and over, as a loaded machine does to the engine (keep-alive
 * sockets must survive it).
 *
 * Exits 1 when a round's memory is not back (heap or buffers more than
 * 8 MiB over the baseline, or a worker left) or a call failed.
 */
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SandglassEngine } from '../../src-worker/api/engine.ts';
import { startMcpHttpServer } from '../../src-worker/mcp/httpServer.ts';
import { collectGarbage } from '../../src-worker/adversarial/memory.ts';
import { describeGrowth } from '../soak/heapSnapshot.ts';
import { describeReading, reading, settledReading, type Reading } from '../soak/soak.ts';

function arg(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}
const CLIENTS = arg('clients', 20);
const COMMANDS = arg('commands', 1000);
/** Rounds of all clients: memory after each should be back at the baseline. */
const ROUNDS = arg('rounds', 2);
/** Wait after a round before reading memory: past the worker pools' 10 s idle trim. */
const SETTLE_MS = arg('settle-ms', 12_000);
const snapshotsAt = process.argv.indexOf('--heap-snapshots');
const SNAPSHOTS = snapshotsAt > 0 ? process.argv[snapshotsAt + 1] : undefined;
/** Longest stall of the event loop to make (0: none). */
const STALL_MS = arg('stall-ms', 0);
/** Longest wait of a client before each call (0: none). */
const THINK_MS = arg('think-ms', 0);
/** What "back at the baseline" allows for heap and buffers (MiB). */
const SLACK_MIB = 8;

const engine = new SandglassEngine();
const token = 'bench-token-0123456789abcdefghijklmnop';
const serverErrors: string[] = [];
const server = await startMcpHttpServer({
  engine,
  token,
  port: 0,
  // A failure inside the endpoint would otherwise show only as a reset connection.
  onerror: (e) => {
    serverErrors.push(e.message);
    console.error(`server: ${e.stack ?? e.message}`);
  },
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function agent(n: number, times: number[]): Promise<void> {
  const client = new Client({ name: `agent-${String(n)}`, version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  try {
    const made = await client.callTool({
      name: 'create_sandbox',
      arguments: { name: `a${String(n)}` },
    });
    const id = (made.structuredContent as { sandbox_id: string }).sandbox_id;
    for (let i = 0; i < COMMANDS; i++) {
      if (THINK_MS > 0) await sleep(Math.random() * THINK_MS);
      const t0 = performance.now();
      const r = await client.callTool({
        name: 'run',
        arguments: {
          sandbox_id: id,
          command: `echo ${String(n)}-${String(i)} >> log; wc -l < log`,
        },
      });
      times.push(performance.now() - t0);
      if (r.isError) throw new Error(JSON.stringify(r.content));
    }
    await client.callTool({ name: 'destroy_sandbox', arguments: { sandbox_id: id } });
  } finally {
    await client.close();
  }
}

const within = (after: Reading, base: Reading): boolean =>
  after.heap - base.heap <= SLACK_MIB &&
  after.buffers - base.buffers <= SLACK_MIB &&
  after.workers <= base.workers;

// One warm-up agent so the worker pool and compiled modules are in place.
await agent(-1, []);
await sleep(SETTLE_MS);
const baseline = await settledReading();
console.log(`baseline: ${describeReading(baseline)}`);
if (SNAPSHOTS) writeHeapSnapshot(join(SNAPSHOTS, 'baseline.heapsnapshot'));
let flat = true;
let failed = false;
// A stall of 0..STALL_MS, then as long again free, over and over. It runs
// after the loop's poll phase (setImmediate), as the engine's own work on
// I/O does: what clients sent during that poll is read only after timers.
let stalling = STALL_MS > 0;
function stall(): void {
  setImmediate(() => {
    if (!stalling) return;
    const until = Date.now() + Math.random() * STALL_MS;
    while (Date.now() < until);
    setTimeout(stall, STALL_MS);
  });
}
if (stalling) setTimeout(stall, STALL_MS);
for (let round = 1; round <= ROUNDS; round++) {
  let peak = reading();
  const sampler = setInterval(() => {
    const r = reading();
    if (r.rss > peak.rss) peak = { ...r, workers: Math.max(r.workers, peak.workers) };
    else if (r.workers > peak.workers) peak = { ...peak, workers: r.workers };
  }, 200);
  const times: number[] = [];
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const outcomes = await Promise.allSettled(
    Array.from({ length: CLIENTS }, (_, n) => agent(n, times)),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  clearInterval(sampler);
  if (round === ROUNDS) stalling = false;
  for (const o of outcomes)
    if (o.status === 'rejected') {
      failed = true;
      const e = o.reason as Error & { cause?: unknown };
      console.log(`  client failed: ${e.message}${e.cause ? ` (cause: ${String(e.cause)})` : ''}`);
    }
  times.sort((a, b) => a - b);
  const p = (q: number) => (times[Math.floor((times.length * q) / 100)] ?? NaN).toFixed(1);
  console.log(
    `round ${String(round)}: ${String(CLIENTS)} clients x ${String(COMMANDS)} commands: ` +
      `${String(times.length)} calls in ${seconds.toFixed(1)} s (${(times.length / seconds).toFixed(0)}/s), ` +
      `p50 ${p(50)} ms, p90 ${p(90)} ms, p99 ${p(99)} ms; ` +
      `CPU ${(cpu.user / 1e6).toFixed(1)} s user + ${(cpu.system / 1e6).toFixed(1)} s sys`,
  );
  console.log(`  peak:  ${describeReading(peak)}`);
  // How this bench read memory before (one GC 0.5 s after): ArrayBuffers the
  // sweeper has not freed yet, and those of workers still terminating, count.
  await sleep(500);
  collectGarbage();
  console.log(`  after destroy, 0.5 s and one GC: ${describeReading(reading())}`);
  const quick = await settledReading();
  console.log(`  after destroy, GC settled: ${describeReading(quick)}`);
  await sleep(SETTLE_MS);
  const after = await settledReading();
  const ok = within(after, baseline);
  flat &&= ok;
  console.log(
    `  after destroy, ${String(SETTLE_MS / 1000)} s settled: ${describeReading(after)} ` +
      `(${ok ? 'back at baseline' : 'NOT back at baseline'})`,
  );
  if (SNAPSHOTS) writeHeapSnapshot(join(SNAPSHOTS, `round${String(round)}.heapsnapshot`));
}
const left = (await engine.call('listSandboxes', {})).length;
console.log(`sandboxes left: ${String(left)}; endpoint errors: ${String(serverErrors.length)}`);
console.log(`memory flat after destroy: ${flat ? 'yes' : 'NO'}`);
await server.close();
await engine.dispose();
if (SNAPSHOTS)
  console.log(
    describeGrowth(
      join(SNAPSHOTS, 'baseline.heapsnapshot'),
      join(SNAPSHOTS, `round${String(ROUNDS)}.heapsnapshot`),
    ),
  );
if (!flat || failed || left > 0 || serverErrors.length > 0) process.exitCode = 1;
