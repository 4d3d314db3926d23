/**
 * A CPU-bound pure-Python workload (bench/python/cpu.py) in a sandbox and with
 * the host's python3, alternated in one run so both see the same machine load.
 * Reports the workload's own time (perf_counter inside Python, start-up
 * excluded) and CPU time: for the host process from /usr/bin/time, for the
 * sandbox the engine process's CPU for the run minus that of `python3 -c pass`
 * (the pool is off so no background boot is counted).
 * Run: npx tsx bench/python/cpu.ts [rounds] [scale]
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Sandbox } from '../../src-worker/sandbox/sandbox.js';
import { runProgram } from '../../src-worker/sandbox/testUtil.js';

const rounds = Number(process.argv[2] ?? 3);
const scale = process.argv[3] ?? '1';
// No pool: no interpreter boots in the background while the workload runs.
process.env.SANDGLASS_PYTHON_POOL = '0';
const sb = await Sandbox.create();
await sb.warm();
await sb.writeFile('/tmp/cpu.py', readFileSync(new URL('./cpu.py', import.meta.url)));

const cpuMs = (u: NodeJS.CpuUsage): number => (u.user + u.system) / 1000;
async function sandbox(args: string[]): Promise<{ out: string; cpu: number }> {
  const c0 = process.cpuUsage();
  const r = await runProgram(sb, '/usr/bin/python3', ['python3', ...args]);
  if (r.status !== 0) throw new Error(`python3 ${args.join(' ')}: ${r.status} ${r.stderr}`);
  return { out: r.stdout.trim(), cpu: cpuMs(process.cpuUsage(c0)) };
}
function host(): { out: string; cpu: number } {
  const r = spawnSync('/usr/bin/time', ['-f', '%U %S', 'python3', 'bench/python/cpu.py', scale], {
    encoding: 'utf8',
  });
  const [u, s] = r.stderr.trim().split('\n').pop()!.split(' ').map(Number);
  return { out: r.stdout.trim(), cpu: ((u ?? 0) + (s ?? 0)) * 1000 };
}

const rows: { sbT: number; sbCpu: number; hT: number; hCpu: number }[] = [];
for (let i = 0; i < rounds; i++) {
  const base = await sandbox(['-c', 'pass']);
  const s = await sandbox(['/tmp/cpu.py', scale]);
  const h = host();
  const [sbT, sbCheck] = [Number(s.out.split(' ')[0]), s.out.slice(s.out.indexOf(' ') + 1)];
  const [hT, hCheck] = [Number(h.out.split(' ')[0]), h.out.slice(h.out.indexOf(' ') + 1)];
  if (sbCheck !== hCheck) throw new Error(`different results: ${sbCheck} vs ${hCheck}`);
  rows.push({ sbT, sbCpu: s.cpu - base.cpu, hT, hCpu: h.cpu });
  console.log(
    `round ${i + 1}: sandbox ${sbT.toFixed(2)} s (cpu ${(s.cpu - base.cpu).toFixed(0)} ms), host ${hT.toFixed(2)} s (cpu ${h.cpu.toFixed(0)} ms)`,
  );
}
const med = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const ratioT = med(rows.map((r) => r.sbT / r.hT));
const ratioC = med(rows.map((r) => r.sbCpu / r.hCpu));
console.log(
  `sandbox / host: workload time ${ratioT.toFixed(2)}x, CPU ${ratioC.toFixed(2)}x (median of ${rounds})`,
);
await sb.destroy();
process.exit(0);
