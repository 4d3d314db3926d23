/**
 * The soak benchmark, run by hand (see soak.ts for what it does):
 *
 *   npx tsx bench/soak/main.ts [--sandboxes 20] [--commands 1000] [--python-every 100]
 *     [--heap-snapshots DIR]   (write and diff heap snapshots at baseline and after)
 *
 * Prints memory and worker counts at baseline, peak and after every sandbox
 * is destroyed, plus wall and CPU time. Not a test: nothing is asserted.
 */
import { describeGrowth } from './heapSnapshot.ts';
import { describeReading, runSoak } from './soak.ts';

function arg(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}
const snapshotsAt = process.argv.indexOf('--heap-snapshots');
const heapSnapshots = snapshotsAt > 0 ? process.argv[snapshotsAt + 1] : undefined;

const r = await runSoak({
  sandboxes: arg('sandboxes', 20),
  commands: arg('commands', 1000),
  pythonEvery: arg('python-every', 100),
  settleMs: arg('settle-ms', 12_000),
  log: (line) => console.log(line),
  ...(heapSnapshots ? { heapSnapshots } : {}),
});
console.log(
  `${String(r.commands)} commands (${String(r.killed)} killed by their time limit) in ` +
    `${(r.wallMs / 1000).toFixed(1)} s wall, ${(r.cpuMs / 1000).toFixed(1)} s CPU ` +
    `(${(r.wallMs / r.commands).toFixed(1)} ms/command wall)`,
);
console.log(`baseline ${describeReading(r.baseline)}`);
console.log(`peak     ${describeReading(r.peak)}`);
console.log(`after    ${describeReading(r.after)}`);
console.log(`unexpected results: ${String(r.wrong.length)}`);
for (const w of r.wrong.slice(0, 10)) console.log(`  ${w}`);
if (heapSnapshots)
  console.log(
    describeGrowth(`${heapSnapshots}/baseline.heapsnapshot`, `${heapSnapshots}/after.heapsnapshot`),
  );
