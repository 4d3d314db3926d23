/**
 * Timeline benchmark (issue #18 figures):
 *  1. a step (snapshot + diff against the parent + record) at 1k, 10k and
 *     100k files, each step writing one file: target <= 1 ms;
 *  2. a diff of two steps over 100k files, for 1 .. 1,000 changed files:
 *     proportional to the change, not the tree;
 *  3. a 1,000-step session over a 50 MB tree: save time (<= 5 s), file size
 *     against the deflated size of the distinct content (<= 1.2x), load time
 *     (<= 3 s, validation + rebuilding every step's snapshot).
 *
 * Run: npx tsx --expose-gc bench/timeline/timeline.bench.ts [--quick] [--session]
 * (--session: only part 3)
 */
import { deflateSync } from 'fflate';
import { DEFAULT_SETTINGS } from '../../src-worker/api/settings.js';
import { Vfs } from '../../src-worker/vfs/index.js';
import { buildOrigin, loadSteps } from '../../src-worker/timeline/format/load.js';
import { decodeTimeline } from '../../src-worker/timeline/format/read.js';
import {
  DEFAULT_LEVEL,
  encodeTimeline,
  encodeTimelineAsync,
} from '../../src-worker/timeline/format/write.js';
import { Timeline } from '../../src-worker/timeline/model.js';
import { snapshotStoreOf } from '../../src-worker/timeline/store.js';
import { NO_SESSION_STATES } from './noSessions.js';

const quick = process.argv.includes('--quick');
const sessionOnly = process.argv.includes('--session');
const enc = new TextEncoder();

function p50(samples: number[]): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}

function timeline(vfs: Vfs): Timeline {
  let n = 0;
  return new Timeline({
    sandboxId: 'bench',
    store: snapshotStoreOf(vfs),
    sessions: NO_SESSION_STATES,
    newStepId: () => `st${++n}`,
    newBranchId: () => `br${++n}`,
    budgetBytes: () => 0,
  });
}

const step = (command: string) => ({
  sessionId: 'api',
  sessionKind: 'api' as const,
  command,
  status: 0,
  startedAt: Date.now(),
  durationMs: 0,
});

/** Text-like content: words from a small vocabulary (compresses like source code or logs). */
const WORDS =
  'the of and to in is for on with as by at from this that file line value error data run step'.split(
    ' ',
  );
let seed = 42;
/** mulberry32: a small PRNG whose low bits do not repeat early (an LCG's do). */
function rand(n: number): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) % n;
}
function text(bytes: number): Uint8Array {
  const parts: string[] = [];
  let len = 0;
  while (len < bytes) {
    const w = `${WORDS[rand(WORDS.length)]}${rand(10) === 0 ? `${rand(100000)}\n` : ' '}`;
    parts.push(w);
    len += w.length;
  }
  return enc.encode(parts.join('').slice(0, bytes));
}

function tree(files: number, bytesEach: (i: number) => Uint8Array): Vfs {
  const vfs = Vfs.createDefault({ limits: { maxNodes: 2_000_000, maxBytes: 2 ** 31 } });
  for (let i = 0; i < files; i++) {
    if (i % 100 === 0) vfs.mkdirp(`/home/user/d${i / 100}`);
    vfs.writeFile(`/home/user/d${Math.floor(i / 100)}/f${i}.txt`, bytesEach(i));
  }
  return vfs;
}

// ---------------------------------------------------------------- 1. step time vs tree size
if (!sessionOnly) {
  console.log('## Step time vs tree size (snapshot + diff + record; one file written per step)\n');
  console.log('| files | vfs.snapshot() p50 | whole step p50 | p99 |');
  console.log('|---|---|---|---|');
  for (const n of quick ? [1_000, 10_000] : [1_000, 10_000, 100_000]) {
    const vfs = tree(n, (i) => enc.encode(`file ${i}\n`));
    const snaps: number[] = [];
    for (let i = 0; i < 2000; i++) {
      const t0 = performance.now();
      const id = vfs.snapshot();
      snaps.push(performance.now() - t0);
      vfs.dropSnapshot(id);
    }
    const tl = timeline(vfs);
    const samples: number[] = [];
    for (let i = 0; i < 500; i++) {
      vfs.writeFile(`/home/user/d0/f${i % 100}.txt`, enc.encode(`edit ${i}\n`));
      const t0 = performance.now();
      await tl.record(step(`edit ${i}`));
      samples.push(performance.now() - t0);
    }
    samples.sort((a, b) => a - b);
    console.log(
      `| ${n} | ${(p50(snaps) * 1000).toFixed(1)} µs | ${(p50(samples) * 1000).toFixed(0)} µs | ${((samples[Math.floor(samples.length * 0.99)] ?? 0) * 1000).toFixed(0)} µs |`,
    );
    tl.dispose();
  }

  // ---------------------------------------------------------------- 2. diff time vs change
  console.log('\n## Diff of two steps over 100k files, by files changed\n');
  console.log('| files changed | diffSteps p50 | per changed file |');
  console.log('|---|---|---|');
  {
    const vfs = tree(quick ? 20_000 : 100_000, (i) => enc.encode(`file ${i}\n`));
    const tl = timeline(vfs);
    const base = await tl.record(step('base'));
    for (const k of [1, 10, 100, 1000]) {
      for (let i = 0; i < k; i++)
        vfs.writeFile(
          `/home/user/d${i % 200}/f${(i % 200) * 100 + Math.floor(i / 200)}.txt`,
          enc.encode(`changed ${k}\n`),
        );
      const to = await tl.record(step(`change ${k}`));
      const samples: number[] = [];
      let count = 0;
      for (let r = 0; r < 20; r++) {
        const t0 = performance.now();
        count = tl.diff(base.id, to.id).length;
        samples.push(performance.now() - t0);
      }
      const ms = p50(samples);
      console.log(
        `| ${k} (${count} entries) | ${ms.toFixed(2)} ms | ${((ms / k) * 1000).toFixed(1)} µs |`,
      );
    }
    tl.dispose();
  }
}

// ---------------------------------------------------------------- 3. 1,000-step session over 50 MB
const totalMb = quick ? 10 : 50;
const stepsN = quick ? 200 : 1000;
console.log(`\n## ${stepsN}-step session over a ${totalMb} MB tree\n`);
{
  const files = 1000;
  const each = Math.floor((totalMb * 1024 * 1024) / files);
  const vfs = tree(files, () => text(each));
  const tl = timeline(vfs);
  const t0 = performance.now();
  for (let i = 0; i < stepsN; i++) {
    // Each step edits one or two files: a rewrite of a small config, an append to a log.
    vfs.writeFile(`/home/user/config${i % 20}.txt`, text(200 + rand(2000)));
    const f = rand(files);
    const path = `/home/user/d${Math.floor(f / 100)}/f${f}.txt`;
    if (i % 3 === 0) vfs.write(vfs.resolve(path), 0, text(400), { append: true });
    await tl.record(step(`step ${i}`));
  }
  const recordMs = performance.now() - t0;
  (globalThis as { gc?: () => void }).gc?.();

  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  const cpu = (from: NodeJS.CpuUsage): number => {
    const u = process.cpuUsage(from);
    return (u.user + u.system) / 1000;
  };
  const source = {
    name: 'bench',
    settings: DEFAULT_SETTINGS,
    timeline: tl,
    store: snapshotStoreOf(vfs),
  };
  const oneThread: string[] = [];
  const inOneThread = (level: number): void => {
    const t = performance.now();
    const c = process.cpuUsage();
    const size = encodeTimeline({ ...source, level }).bytes.length;
    oneThread.push(
      `| save in one thread, level ${level} (wall / CPU) | ${((performance.now() - t) / 1000).toFixed(2)} s / ${(cpu(c) / 1000).toFixed(2)} s (${mb(size)}) | |`,
    );
  };
  // First (content hashes not cached yet, as the save measured before): one
  // thread at level 6, the earlier default.
  inOneThread(6);
  // What the engine does (saveTimeline): blobs deflated on libuv's thread pool.
  const s0 = performance.now();
  const c0 = process.cpuUsage();
  const saved = await encodeTimelineAsync(source);
  const saveMs = performance.now() - s0;
  const saveCpu = cpu(c0);
  inOneThread(DEFAULT_LEVEL);

  // Reference: the distinct contents, each deflated on its own at level 6.
  const data = decodeTimeline(saved.bytes);
  let deflated = 0;
  for (const b of data.blobs.values()) deflated += deflateSync(b, { level: 6 }).length;

  const l0 = performance.now();
  const c1 = process.cpuUsage();
  const decoded = decodeTimeline(saved.bytes);
  const fresh = Vfs.createDefault({ limits: { maxNodes: 2_000_000, maxBytes: 2 ** 31 } });
  buildOrigin(fresh, decoded);
  const loaded = timeline(fresh);
  loadSteps(loaded, fresh, decoded);
  const loadMs = performance.now() - l0;
  const loadCpu = cpu(c1);

  console.log('| measure | value | target |');
  console.log('|---|---|---|');
  console.log(
    `| record ${stepsN} steps | ${(recordMs / 1000).toFixed(2)} s (${(recordMs / stepsN).toFixed(2)} ms/step) | |`,
  );
  console.log(
    `| save, level ${DEFAULT_LEVEL}, blobs deflated on the thread pool (wall / CPU of all threads) | ${(saveMs / 1000).toFixed(2)} s / ${(saveCpu / 1000).toFixed(2)} s | <= 5 s |`,
  );
  for (const line of oneThread) console.log(line);
  console.log(
    `| distinct content | ${mb(saved.summary.contentBytes)} in ${saved.summary.blobs} blobs | |`,
  );
  console.log(`| file size | ${mb(saved.bytes.length)} | |`);
  console.log(`| deflated distinct content | ${mb(deflated)} | |`);
  console.log(
    `| file / deflated content | ${(saved.bytes.length / deflated).toFixed(3)}x | <= 1.2x |`,
  );
  console.log(
    `| load: validate + rebuild ${loaded.size} snapshots (wall / CPU) | ${(loadMs / 1000).toFixed(2)} s / ${(loadCpu / 1000).toFixed(2)} s | <= 3 s |`,
  );
}
