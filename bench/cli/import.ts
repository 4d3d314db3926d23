/**
 * Host import and export, measured against the host's `cp -r` in the same
 * run: the generated 5,000-file / 50 MiB tree (importTree.ts), first as
 * whole `sandglass run` processes (cold: an engine of their own, start-up
 * included; `echo hi` alone gives the start-up to subtract), then inside
 * this process (warm code) for each way of reading contents. CPU is
 * user+sys (GNU time for processes, process.cpuUsage in-process, all
 * threads), the figure to compare on a loaded machine.
 *
 *   npx tsx bench/cli/import.ts [--runs 5]
 *
 * Not a test: nothing is asserted. Needs a built CLI (`node scripts/build-cli.mjs`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtCliFingerprint, cliSourcesFingerprint } from '../../scripts/build-cli.mjs';
import { Vfs } from '../../src-worker/vfs/index.js';
import { exportTree, importHostDir, type ImportContents } from '../../src-worker/vfs/node/index.js';
import { IMPORT_TREE, settleImportTree, writeImportTree } from './importTree.ts';
import { fmt, median, timeOnce, timeRuns, type Command, type Sample } from './timing.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SANDGLASS = ['node', path.join(root, 'bin/sandglass.mjs'), 'run'];
const COLD = { SANDGLASS_ENGINE: 'off' };

function parseRuns(argv: string[]): number {
  const i = argv.indexOf('--runs');
  const runs = i >= 0 ? Number(argv[i + 1]) : 5;
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs N, N >= 1');
  return runs;
}

/** Runs of a command writing to a fresh target each time (removed untimed); median. */
function timeFresh(runs: number, make: (target: string) => Command, scratch: string): Sample {
  const samples: Sample[] = [];
  for (let i = 0; i <= runs; i++) {
    const target = path.join(scratch, `target-${i}`);
    const s = timeOnce(make(target));
    fs.rmSync(target, { recursive: true, force: true });
    if (i > 0) samples.push(s); // the first run warms the page cache and out/cli
  }
  return {
    wallMs: median(samples.map((x) => x.wallMs)),
    cpuMs: median(samples.map((x) => x.cpuMs)),
    rssMb: median(samples.map((x) => x.rssMb)),
    out: (samples.at(-1) as Sample).out,
  };
}

interface InProcess {
  wallMs: number;
  cpuMs: number;
  /** Until the background reads end ('background' only). */
  pinnedMs?: number;
}

const cpuNow = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** importHostDir into a fresh VFS, then (background) until every file is held. */
async function importOnce(tree: string, contents: ImportContents): Promise<InProcess> {
  const vfs = Vfs.createDefault({ limits: { maxBytes: 1 << 30 } });
  const c0 = cpuNow();
  const t0 = performance.now();
  const res = await importHostDir(vfs, tree, '/data', { contents, readOnly: true });
  const wallMs = performance.now() - t0;
  const cpuMs = cpuNow() - c0;
  if (contents !== 'background') return { wallMs, cpuMs };
  await res.pinned;
  return { wallMs, cpuMs, pinnedMs: performance.now() - t0 };
}

async function exportOnce(tree: string, target: string): Promise<InProcess> {
  const vfs = Vfs.createDefault({ limits: { maxBytes: 1 << 30 } });
  await importHostDir(vfs, tree, '/data', { contents: 'eager' });
  const c0 = cpuNow();
  const t0 = performance.now();
  await exportTree(vfs, '/data', target);
  const r = { wallMs: performance.now() - t0, cpuMs: cpuNow() - c0 };
  fs.rmSync(target, { recursive: true, force: true });
  return r;
}

async function medianOf(runs: number, once: () => Promise<InProcess>): Promise<InProcess> {
  await once(); // JIT warm-up
  const s: InProcess[] = [];
  for (let i = 0; i < runs; i++) s.push(await once());
  const pinned = s.map((x) => x.pinnedMs).filter((x): x is number => x !== undefined);
  return {
    wallMs: median(s.map((x) => x.wallMs)),
    cpuMs: median(s.map((x) => x.cpuMs)),
    ...(pinned.length > 0 ? { pinnedMs: median(pinned) } : {}),
  };
}

function row(name: string, s: { wallMs: number; cpuMs: number; rssMb?: number }, extra = ''): void {
  const rss = s.rssMb !== undefined ? ` / ${s.rssMb.toFixed(0)} MB` : '';
  console.log(`${name.padEnd(58)} ${fmt(s.wallMs).padStart(8)} / ${fmt(s.cpuMs)}${rss}${extra}`);
}

async function main(): Promise<void> {
  const runs = parseRuns(process.argv.slice(2));
  if (builtCliFingerprint() !== cliSourcesFingerprint())
    throw new Error('out/cli is missing or stale: run `node scripts/build-cli.mjs` first');
  // tmpfs when there is one: the figures are then the copy's, not the VM disk's.
  const base = fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();
  const scratch = fs.mkdtempSync(path.join(base, 'sg-importbench-'));
  const tree = path.join(scratch, 'tree');
  try {
    const bytes = writeImportTree(tree);
    await settleImportTree();
    console.log(
      `bench: import/export of ${IMPORT_TREE.files} files, ${(bytes / 2 ** 20).toFixed(0)} MiB ` +
        `in ${base} (runs ${runs}, load ${os.loadavg()[0]?.toFixed(1)}); wall / CPU [/ peak RSS]`,
    );
    console.log('-- whole processes');
    row(
      'host: cp -r TREE DIR',
      timeFresh(runs, (t) => ({ argv: ['cp', '-r', tree, t] }), scratch),
    );
    row(
      'host: find TREE -type f -exec cat {} + (read it all)',
      timeRuns(runs, {
        argv: ['bash', '-c', `find ${tree} -type f -exec cat {} + > /dev/null`],
      }),
    );
    const run = (args: string[], script: string): Command => ({
      argv: [...SANDGLASS, ...args, '-c', script],
      env: COLD,
    });
    const imp = ['--import', `${tree}:/data:ro`];
    row("sandglass run -c 'echo hi' (start-up alone)", timeRuns(runs, run([], 'echo hi')));
    row("sandglass run --import TREE:/data:ro -c 'echo hi'", timeRuns(runs, run(imp, 'echo hi')));
    row(
      "  ... -c 'wc -c < /data/data/table.csv' (reads 20 MiB)",
      timeRuns(runs, run(imp, 'wc -c < /data/data/table.csv')),
    );
    row(
      "  ... -c 'find /data -type f -exec cat {} + | wc -c' (reads all)",
      timeRuns(runs, run(imp, 'find /data -type f -exec cat {} + | wc -c')),
    );
    row(
      'sandglass run --import TREE:/data --export /data:DIR -c true',
      timeFresh(runs, (t) => run([...imp, '--export', `/data:${t}`], 'true'), scratch),
    );
    console.log('-- in this process (warm code): importHostDir into a fresh VFS');
    for (const contents of ['eager', 'lazy', 'background'] as const) {
      const s = await medianOf(runs, () => importOnce(tree, contents));
      const extra =
        s.pinnedMs !== undefined ? `   (all contents held after ${fmt(s.pinnedMs)} wall)` : '';
      row(`importHostDir contents: '${contents}'`, s, extra);
    }
    const s = await medianOf(runs, () => exportOnce(tree, path.join(scratch, 'export')));
    row('exportTree of the imported tree', s);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
