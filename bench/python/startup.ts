/**
 * python3 -c 'print(1)' spawn-to-exit in a sandbox: the first of the engine
 * (cold boot), from a warm pool (a booted interpreter waiting), with the pool
 * drained (back to back), and the host's python3 for reference.
 * Run: npx tsx bench/python/startup.ts [N]
 */
import { spawnSync } from 'node:child_process';
import { PythonPool } from '../../src-worker/python/node/pythonPool.js';
import { Sandbox } from '../../src-worker/sandbox/sandbox.js';
import { runProgram } from '../../src-worker/sandbox/testUtil.js';
import { summary } from '../kernel/common.js';

const n = Number(process.argv[2] ?? 10);
const sb = await Sandbox.create();
await sb.warm();
const once = async (): Promise<number> => {
  const r = await runProgram(sb, '/usr/bin/python3', ['python3', '-c', 'print(1)']);
  if (r.stdout !== '1\n') throw new Error(`unexpected output: ${r.stdout} ${r.stderr}`);
  return r.ms;
};
const pool = PythonPool.acquireShared();
const first = await once();
const warm: number[] = [];
for (let i = 0; i < n; i++) {
  await pool.whenReady();
  warm.push(await once());
}
const t0 = performance.now();
const drained: number[] = [];
for (let i = 0; i < n; i++) drained.push(await once());
const burst = performance.now() - t0;
const host: number[] = [];
for (let i = 0; i < n; i++) {
  const h0 = performance.now();
  spawnSync('python3', ['-c', 'print(1)']);
  host.push(performance.now() - h0);
}
console.log(`first python3 of the engine: ${first.toFixed(0)} ms`);
console.log(summary('warm pool', warm));
console.log(summary('pool drained (back to back)', drained));
console.log(`${n} back-to-back runs: ${burst.toFixed(0)} ms`);
console.log(summary('host python3', host));
console.log(`engine RSS with the pool: ${(process.memoryUsage().rss / 1048576).toFixed(0)} MB`);
pool.unref();
await sb.destroy();
process.exit(0);
