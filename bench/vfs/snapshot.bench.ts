/**
 * VFS snapshot benchmark: snapshot/restore/fork time at 1k, 10k and 100k
 * files, the cost of a one-file write right after a snapshot, and heap
 * growth over 1,000 snapshots each changing one small file.
 *
 * Run: node --expose-gc --import tsx bench/vfs/snapshot.bench.ts
 *  (or npx tsx --expose-gc bench/vfs/snapshot.bench.ts)
 */
import { Vfs } from '../../src-worker/vfs/index.js';

const enc = new TextEncoder();
const gc = (globalThis as { gc?: () => void }).gc;

function p50(samples: number[]): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}

function fmtUs(ms: number): string {
  return `${(ms * 1000).toFixed(1)} µs`;
}

/** N files of ~32 bytes, 100 per directory. */
function buildTree(n: number): Vfs {
  const vfs = Vfs.createDefault({ limits: { maxNodes: 2_000_000, maxBytes: 2 ** 31 } });
  for (let i = 0; i < n; i++) {
    if (i % 100 === 0) vfs.mkdir(`/home/user/d${i / 100}`);
    vfs.writeFile(
      `/home/user/d${Math.floor(i / 100)}/f${i}.txt`,
      enc.encode(`file number ${i} with some text\n`),
    );
  }
  return vfs;
}

function timeIt(iterations: number, fn: (i: number) => void): number {
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now();
    fn(i);
    samples.push(performance.now() - t0);
  }
  return p50(samples);
}

const rows: string[][] = [];
for (const n of [1_000, 10_000, 100_000]) {
  const tb = performance.now();
  const vfs = buildTree(n);
  const buildMs = performance.now() - tb;
  const iters = 2000;
  const ids: number[] = [];
  const snap = timeIt(iters, () => {
    ids.push(vfs.snapshot());
  });
  const restore = timeIt(iters, (i) => vfs.restore(ids[i % ids.length] as number));
  const fork = timeIt(iters, () => {
    vfs.fork();
  });
  // One small write right after a snapshot (the first write pays the copy-on-write).
  const target = vfs.resolve(`/home/user/d${Math.floor(n / 200)}/f${Math.floor(n / 2)}.txt`);
  const writeSamples: number[] = [];
  for (let i = 0; i < iters; i++) {
    vfs.snapshot();
    const t0 = performance.now();
    vfs.write(target, 0, enc.encode(`v${i}`));
    writeSamples.push(performance.now() - t0);
  }
  const createSamples: number[] = [];
  for (let i = 0; i < 500; i++) {
    vfs.snapshot();
    const t0 = performance.now();
    vfs.writeFile(`/home/user/d0/new${i}`, enc.encode('x'));
    createSamples.push(performance.now() - t0);
  }
  for (const id of vfs.snapshots()) vfs.dropSnapshot(id);
  rows.push([
    String(n),
    `${buildMs.toFixed(0)} ms`,
    fmtUs(snap),
    fmtUs(restore),
    fmtUs(fork),
    fmtUs(p50(writeSamples)),
    fmtUs(p50(createSamples)),
  ]);
}

function table(head: string[], body: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]): string =>
    '| ' + r.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ') + ' |';
  return [
    line(head),
    '|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|',
    ...body.map(line),
  ].join('\n');
}

console.log('VFS snapshot/restore/fork (p50 of 2000 iterations)\n');
console.log(
  table(
    ['files', 'build', 'snapshot', 'restore', 'fork', 'write after snap', 'create after snap'],
    rows,
  ),
);

// Heap growth: 1,000 snapshots, each after changing one small file.
{
  const vfs = buildTree(10_000);
  gc?.();
  const before = process.memoryUsage().heapUsed;
  let changed = 0;
  for (let i = 0; i < 1000; i++) {
    const body = enc.encode(`revision ${i} of a small config file\n`);
    vfs.writeFile(`/home/user/d${i % 100}/f${(i % 100) * 100 + (i % 7)}.txt`, body);
    changed += body.length;
    vfs.snapshot();
  }
  gc?.();
  const after = process.memoryUsage().heapUsed;
  const growth = after - before;
  console.log(
    '\nHeap after 1,000 snapshots each changing one small file (10k-file tree)' +
      (gc ? '' : ' [run with --expose-gc for exact numbers]'),
  );
  console.log(
    table(
      ['changed bytes', 'heap growth', 'growth / snapshot', 'ratio growth/changed'],
      [
        [
          String(changed),
          `${(growth / 1024).toFixed(0)} KiB`,
          `${(growth / 1000).toFixed(0)} B`,
          (growth / changed).toFixed(1),
        ],
      ],
    ),
  );
}

// Same, but each snapshot rewrites 100 bytes in the middle of one 1 MiB file:
// copy-on-write copies the touched 16 KiB chunk, so growth is per chunk, not per file.
{
  const vfs = Vfs.create();
  const ino = vfs.open('/big.bin', { create: true, write: true });
  vfs.write(ino, 0, new Uint8Array(1024 * 1024).fill(7));
  gc?.();
  const before = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  for (let i = 0; i < 1000; i++) {
    vfs.write(ino, (i * 7919) % (1024 * 1024 - 100), new Uint8Array(100).fill(i & 0xff));
    vfs.snapshot();
  }
  gc?.();
  const after = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  const growth = after - before;
  console.log('\nHeap + buffers after 1,000 snapshots each rewriting 100 bytes of a 1 MiB file');
  console.log(
    table(
      ['changed bytes', 'growth', 'growth / snapshot', 'whole-file copy would be'],
      [
        [
          '100000',
          `${(growth / 1024 / 1024).toFixed(1)} MiB`,
          `${(growth / 1000 / 1024).toFixed(1)} KiB`,
          '1000 MiB',
        ],
      ],
    ),
  );
}
