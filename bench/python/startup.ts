/**
 * python3 -c 'print(1)' spawn-to-exit in a sandbox: the first of the engine
 * (the pool empty: one interpreter boots from the snapshot), from a warm pool
 * (a booted interpreter waiting), with the pool drained (back to back), and
 * in the same run the host's python3 and just-bash's python3 for reference.
 * Wall time and the engine process's CPU time (all its threads) per case;
 * RSS with the pool of SANDGLASS_PYTHON_POOL interpreters booted (after a
 * garbage collection each side when run with --expose-gc).
 * SANDGLASS_PYTHON_RECYCLE=0 gives every interpreter a new worker (no recycling);
 * SANDGLASS_PYTHON_BURST=0 keeps no extra interpreter booting while the pool is drained.
 * Run: [SANDGLASS_PYTHON_POOL=2] npx tsx --expose-gc bench/python/startup.ts [N]
 */
import { spawnSync } from 'node:child_process';
import { Bash } from 'just-bash';
import { PythonPool } from '../../src-worker/python/node/pythonPool.js';
import { Sandbox } from '../../src-worker/sandbox/sandbox.js';
import { runProgram } from '../../src-worker/sandbox/testUtil.js';
import { summary } from '../kernel/common.js';

const n = Number(process.argv[2] ?? 10);
const cpuMs = (u: NodeJS.CpuUsage): number => (u.user + u.system) / 1000;
const gc = (globalThis as { gc?: () => void }).gc;
/** RSS once garbage is collected (if the runtime lets us) and the interpreters' workers have settled. */
const settledRss = async (): Promise<number> => {
  for (let i = 0; gc && i < 3; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 300));
  }
  return process.memoryUsage().rss;
};
const sb = await Sandbox.create();
await sb.warm();
const rssBefore = await settledRss();
const once = async (): Promise<number> => {
  const r = await runProgram(sb, '/usr/bin/python3', ['python3', '-c', 'print(1)']);
  if (r.stdout !== '1\n') throw new Error(`unexpected output: ${r.stdout} ${r.stderr}`);
  return r.ms;
};
const pool = PythonPool.acquireShared();
let c0 = process.cpuUsage();
const first = await once();
const firstCpu = cpuMs(process.cpuUsage(c0));
const warm: number[] = [];
const warmCpu: number[] = [];
for (let i = 0; i < n; i++) {
  await pool.whenReady();
  c0 = process.cpuUsage();
  warm.push(await once());
  warmCpu.push(cpuMs(process.cpuUsage(c0)));
}
await pool.whenReady();
const pooledRss = (await settledRss()) - rssBefore;
const pooledWorkers = PythonPool.liveWorkers();
const t0 = performance.now();
c0 = process.cpuUsage();
const recycled0 = PythonPool.recycledBoots();
const drained: number[] = [];
for (let i = 0; i < n; i++) drained.push(await once());
const burst = performance.now() - t0;
const burstCpu = cpuMs(process.cpuUsage(c0));
const burstRecycled = PythonPool.recycledBoots() - recycled0;
const host: number[] = [];
let hostCpu = 0;
for (let i = 0; i < n; i++) {
  const h0 = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '%U %S', 'python3', '-c', 'print(1)'], {
    encoding: 'utf8',
  });
  host.push(performance.now() - h0);
  const [u, s] = r.stderr.trim().split(' ').map(Number);
  hostCpu += ((u ?? 0) + (s ?? 0)) * 1000;
}
const jb: number[] = [];
const bash = new Bash({ python: true });
c0 = process.cpuUsage();
for (let i = 0; i < n; i++) {
  const j0 = performance.now();
  const r = await bash.exec("python3 -c 'print(1)'");
  if (r.stdout !== '1\n') throw new Error(`just-bash: ${r.stdout} ${r.stderr}`);
  jb.push(performance.now() - j0);
}
const jbCpu = cpuMs(process.cpuUsage(c0));
const per = (ms: number): string => `${(ms / n).toFixed(0)} ms CPU per run`;
console.log(`first python3 of the engine: ${first.toFixed(0)} ms (${firstCpu.toFixed(0)} ms CPU)`);
console.log(
  summary('warm pool', warm) +
    `, median CPU ${[...warmCpu].sort((a, b) => a - b)[n >> 1]?.toFixed(0)} ms`,
);
console.log(summary('pool drained (back to back)', drained) + `, ${per(burstCpu)}`);
console.log(
  `${n} back-to-back runs: ${burst.toFixed(0)} ms (${burstCpu.toFixed(0)} ms CPU), ${burstRecycled} interpreters booted in recycled workers`,
);
console.log(summary('host python3', host) + `, ${per(hostCpu)}`);
console.log(summary("just-bash's python3", jb) + `, ${per(jbCpu)}`);
console.log(
  `RSS of the runtime and ${pool.options.size} pooled interpreter(s): ${(pooledRss / 1048576).toFixed(0)} MB, ${pooledWorkers} worker thread(s)${gc ? '' : ' (no --expose-gc: garbage included)'} (engine ${(process.memoryUsage().rss / 1048576).toFixed(0)} MB)`,
);
pool.unref();
await sb.destroy();
process.exit(0);
