/**
 * Spawn-to-exit of a trivial program (p50/p99), then N sequential spawns
 * with heap/RSS before and after (flat memory check). N from argv (5000).
 */
import { runProgram } from '../../src-worker/sandbox/testUtil.js';
import { benchSandbox, summary } from './common.js';

const n = Number(process.argv[2] ?? 5000);
const sb = await benchSandbox();
const samples: number[] = [];
for (let i = 0; i < 200; i++) {
  const r = await runProgram(sb, '/usr/bin/fixture-exit', ['exit', '0']);
  samples.push(r.ms);
}
console.log(summary('spawn-to-exit (fixture-exit)', samples));
const mem = (): string => {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  return `rss=${(m.rss / 1048576).toFixed(1)}MiB heap=${(m.heapUsed / 1048576).toFixed(1)}MiB`;
};
const before = mem();
const t0 = performance.now();
const all: number[] = [];
for (let i = 0; i < n; i++) {
  const r = await runProgram(sb, '/usr/bin/fixture-exit', ['exit', String(i % 7)]);
  if (r.status !== i % 7) throw new Error(`spawn ${i}: exit ${r.status}`);
  all.push(r.ms);
  if (i === Math.floor(n / 2)) console.log(`  halfway: ${mem()}`);
}
console.log(
  summary(`${n} sequential spawns`, all),
  `total ${(performance.now() - t0).toFixed(0)} ms`,
);
console.log(`memory before: ${before}`);
console.log(`memory after:  ${mem()}`);
await sb.destroy();
