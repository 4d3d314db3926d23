/**
 * Shell and coreutils benchmarks: each workload runs in one process against
 * native bash/GNU, the just-bash npm package and a Sandglass sandbox on the
 * same generated data, and reports wall-time ratios measured in that run.
 *
 *   npx tsx bench/compare.ts [--only name,name] [--scale 0.1] [--runs 3] [--no-just-bash] [--no-warmup]
 *
 * Before timing, the two JavaScript-hosted implementations (Sandglass and
 * just-bash) run each workload once on 1% of its data, so their JIT
 * compilers have seen the code paths, as native binaries need no warming.
 *
 * Results also go to bench/results/compare-<date>.json. Not a test: nothing
 * is asserted.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Bash } from 'just-bash';
import { Sandbox } from '../src-worker/sandbox/sandbox.ts';
import { WORKLOADS, type Workload } from './workloads.ts';

interface Args {
  only: string[] | null;
  scale: number;
  runs: number;
  justBash: boolean;
  warmup: boolean;
}

function parseArgs(argv: string[]): Args {
  const a: Args = { only: null, scale: 1, runs: 3, justBash: true, warmup: true };
  for (let i = 0; i < argv.length; i++) {
    const v = argv[i];
    if (v === '--only') a.only = (argv[++i] ?? '').split(',');
    else if (v === '--scale') a.scale = Number(argv[++i]);
    else if (v === '--runs') a.runs = Number(argv[++i]);
    else if (v === '--no-just-bash') a.justBash = false;
    else if (v === '--no-warmup') a.warmup = false;
    else throw new Error(`unknown option ${v}`);
  }
  return a;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((x, y) => x - y);
  return s[Math.floor(s.length / 2)] ?? NaN;
};

type Files = Record<string, Uint8Array>;

function writeHostFiles(dir: string, files: Files): void {
  for (const [rel, data] of Object.entries(files)) {
    const p = path.join(dir, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, data);
  }
}

function timeNative(w: Workload, files: Files, runs: number): { ms: number; out: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-bench-'));
  writeHostFiles(dir, files);
  const times: number[] = [];
  let out = '';
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const r = spawnSync('bash', ['--norc', '--noprofile', '-c', w.script], {
      cwd: dir,
      encoding: 'utf8',
      maxBuffer: 1 << 30,
      env: { PATH: '/usr/bin:/bin', LC_ALL: 'C', HOME: dir },
    });
    times.push(performance.now() - t0);
    out = r.stdout.trim();
  }
  fs.rmSync(dir, { recursive: true, force: true });
  return { ms: median(times), out };
}

async function writeSandboxFiles(sb: Sandbox, dir: string, files: Files): Promise<void> {
  await sb.mkdir(dir, { recursive: true });
  for (const [rel, data] of Object.entries(files)) {
    await sb.mkdir(path.posix.dirname(`${dir}/${rel}`), { recursive: true });
    await sb.writeFile(`${dir}/${rel}`, data);
  }
}

async function timeSandglass(
  w: Workload,
  files: Files,
  runs: number,
  warm: Files | null,
): Promise<{ ms: number; out: string }> {
  const sb = await Sandbox.create({
    vfsLimits: { maxBytes: 2 * 2 ** 30, maxFileSize: 2 ** 30, maxNodes: 1_000_000 },
    limits: { wallTimeMs: 600_000 },
  });
  try {
    const home = '/home/user/bench';
    await writeSandboxFiles(sb, home, files);
    await sb.run('true', { cwd: home }); // start the session shell outside the timing
    if (warm) {
      await writeSandboxFiles(sb, '/home/user/warm', warm);
      await sb.run(w.script, { cwd: '/home/user/warm', timeoutMs: 600_000 });
    }
    const times: number[] = [];
    let out = '';
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      const r = await sb.run(w.script, { cwd: home, timeoutMs: 600_000 });
      times.push(performance.now() - t0);
      out = r.exitCode === 0 ? r.stdout.trim() : `exit ${r.exitCode}: ${r.stderr.slice(0, 200)}`;
    }
    return { ms: median(times), out };
  } finally {
    await sb.destroy();
  }
}

function newJustBash(files: Files): Bash {
  const home = '/home/user/bench';
  const initial: Record<string, string> = {};
  // just-bash takes text files; binary data goes in as latin1 text.
  for (const [rel, data] of Object.entries(files))
    initial[`${home}/${rel}`] = Buffer.from(data).toString('latin1');
  return new Bash({
    files: initial,
    cwd: home,
    executionLimits: {
      maxCommandCount: 100_000_000,
      maxExecutionTimeMs: 120_000,
      maxFileSystemBytes: 2 * 1024 * 1024 * 1024,
      maxOutputSize: 512 * 1024 * 1024,
      maxArchiveBytes: 1024 * 1024 * 1024,
    },
  });
}

async function timeJustBash(
  w: Workload,
  files: Files,
  runs: number,
  warm: Files | null,
): Promise<{ ms: number; out: string }> {
  if (warm)
    await newJustBash(warm)
      .exec(w.script)
      .catch(() => undefined);
  const bash = newJustBash(files);
  const times: number[] = [];
  let out = '';
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    try {
      const r = await bash.exec(w.script);
      out = r.exitCode === 0 ? r.stdout.trim() : `exit ${r.exitCode}: ${r.stderr.slice(0, 200)}`;
    } catch (e) {
      out = `error: ${(e as Error).message.slice(0, 200)}`;
    }
    times.push(performance.now() - t0);
  }
  return { ms: median(times), out };
}

function fmt(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const rows: Record<string, unknown>[] = [];
  console.log(
    `${'workload'.padEnd(26)} ${'native'.padStart(10)} ${'sandglass'.padStart(10)} ${'just-bash'.padStart(10)}  sg/native  jb/sg  outputs`,
  );
  for (const w of WORKLOADS) {
    if (args.only && !args.only.includes(w.name)) continue;
    const files = w.files(args.scale);
    const runs = w.heavy ? 1 : args.runs;
    const warm = args.warmup ? w.files(args.scale / 100) : null;
    const n = timeNative(w, files, runs);
    const s = await timeSandglass(w, files, runs, warm);
    const j = args.justBash
      ? await timeJustBash(w, files, runs, warm)
      : { ms: NaN, out: '(skipped)' };
    const agree =
      n.out === s.out ? 'sg=native' : `sg DIFFERS (${s.out.slice(0, 60)} vs ${n.out.slice(0, 60)})`;
    const jagree = !args.justBash
      ? ''
      : j.out === n.out
        ? ', jb=native'
        : `, jb differs (${j.out.slice(0, 60)})`;
    console.log(
      `${w.name.padEnd(26)} ${fmt(n.ms).padStart(10)} ${fmt(s.ms).padStart(10)} ${fmt(j.ms).padStart(10)}  ${(s.ms / n.ms).toFixed(2).padStart(8)}x ${(j.ms / s.ms).toFixed(2).padStart(6)}x  ${agree}${jagree}`,
    );
    rows.push({
      name: w.name,
      nativeMs: n.ms,
      sandglassMs: s.ms,
      justBashMs: j.ms,
      outputs: { native: n.out, sandglass: s.out, justBash: j.out },
    });
  }
  const dir = path.join(path.dirname(new URL(import.meta.url).pathname), 'results');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, `compare-${new Date().toISOString().slice(0, 19)}.json`),
    JSON.stringify(rows, null, 1),
  );
  process.exit(0);
}

void main();
