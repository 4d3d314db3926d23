/**
 * Shell and coreutils benchmarks: each workload runs in one process against
 * native bash/GNU, the just-bash npm package and a Sandglass sandbox on the
 * same generated data, and reports wall-time ratios measured in that run.
 *
 *   npx tsx bench/compare.ts [--only name,name] [--scale 0.1] [--runs 3] [--no-just-bash] [--no-warmup]
 *                            [--no-engine-warm-up]
 *
 * Each implementation runs a workload once untimed before the timed runs
 * (as hyperfine's --warmup does): Sandglass and just-bash are JIT-compiled
 * JavaScript, whose first pass over new code paths runs in the
 * interpreter. The untimed run is reported too ("sg cold": what the first
 * command in a new sandbox costs). Before the workloads the engine is
 * warmed as a long-lived one warms itself at start (SandglassEngine.warmUp
 * runs sandbox/codeWarmUp.ts); `--no-engine-warm-up` leaves it bare, so the
 * first workload's cold run also pays V8's tier-up.
 *
 * Results also go to bench/results/compare-<date>.json. Not a test: nothing
 * is asserted.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { Bash } from 'just-bash';
import { Sandbox } from '../src-worker/sandbox/sandbox.ts';
import { warmCode } from '../src-worker/sandbox/codeWarmUp.ts';
import { WORKLOADS, type Workload } from './workloads.ts';

interface Args {
  only: string[] | null;
  scale: number;
  runs: number;
  justBash: boolean;
  warmup: boolean;
  engineWarmUp: boolean;
}

function parseArgs(argv: string[]): Args {
  const a: Args = {
    only: null,
    scale: 1,
    runs: 3,
    justBash: true,
    warmup: true,
    engineWarmUp: true,
  };
  for (let i = 0; i < argv.length; i++) {
    const v = argv[i];
    if (v === '--only') a.only = (argv[++i] ?? '').split(',');
    else if (v === '--scale') a.scale = Number(argv[++i]);
    else if (v === '--runs') a.runs = Number(argv[++i]);
    else if (v === '--no-just-bash') a.justBash = false;
    else if (v === '--no-warmup') a.warmup = false;
    else if (v === '--no-engine-warm-up') a.engineWarmUp = false;
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

interface Timing {
  /** Median of the timed runs. */
  ms: number;
  /** Median CPU time (user + system, all threads) of the timed runs. */
  cpuMs: number;
  /** The untimed first run (NaN without warm-up): what a cold engine pays. */
  coldMs: number;
  coldCpuMs: number;
  out: string;
}

// The harness's own garbage (the generated data is hundreds of MB of JS
// strings) must not be collected inside a timed run of a JS-hosted
// implementation: collect it before each one.
v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;

/** What one run printed, and its CPU time when not this process's own (a child's). */
interface RunOut {
  out: string;
  cpuMs?: number;
}

/**
 * Median of `runs` timed runs of `once`, after one warm-up run when asked.
 * CPU time is this process's (`process.cpuUsage`, every thread) unless the
 * run reports its own.
 */
async function timeRuns(
  runs: number,
  warmup: boolean,
  once: () => Promise<RunOut> | RunOut,
): Promise<Timing> {
  let coldMs = NaN;
  let coldCpuMs = NaN;
  let out = '';
  if (warmup) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const r = await once();
    coldMs = performance.now() - t0;
    const c = process.cpuUsage(c0);
    coldCpuMs = r.cpuMs ?? (c.user + c.system) / 1000;
    out = r.out;
  }
  const times: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < runs; i++) {
    collect();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const r = await once();
    times.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpus.push(r.cpuMs ?? (c.user + c.system) / 1000);
    out = r.out;
  }
  return { ms: median(times), cpuMs: median(cpus), coldMs, coldCpuMs, out };
}

async function timeNative(
  w: Workload,
  files: Files,
  runs: number,
  warmup: boolean,
): Promise<Timing> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-bench-'));
  writeHostFiles(dir, files);
  try {
    // GNU time gives the child's CPU time (bash and what it ran).
    const timeOut = path.join(dir, '.cpu');
    const timed = fs.existsSync('/usr/bin/time');
    return await timeRuns(runs, warmup, () => {
      const argv = ['bash', '--norc', '--noprofile', '-c', w.script];
      const r = spawnSync(
        timed ? '/usr/bin/time' : 'bash',
        timed ? ['-f', '%U %S', '-o', timeOut, ...argv] : argv.slice(1),
        {
          cwd: dir,
          encoding: 'utf8',
          maxBuffer: 1 << 30,
          env: { PATH: '/usr/bin:/bin', LC_ALL: 'C', HOME: dir },
        },
      );
      const [u, sys] = timed
        ? fs.readFileSync(timeOut, 'utf8').trim().split(/\s+/).map(Number)
        : [];
      return {
        out: r.stdout.trim(),
        cpuMs: u !== undefined && sys !== undefined ? (u + sys) * 1000 : NaN,
      };
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function timeSandglass(
  w: Workload,
  files: Files,
  runs: number,
  warmup: boolean,
): Promise<Timing> {
  const sb = await Sandbox.create({
    vfsLimits: { maxBytes: 2 * 2 ** 30, maxFileSize: 2 ** 30, maxNodes: 1_000_000 },
    limits: { wallTimeMs: 600_000 },
  });
  try {
    const home = '/home/user/bench';
    await sb.mkdir(home, { recursive: true });
    for (const [rel, data] of Object.entries(files)) {
      await sb.mkdir(path.posix.dirname(`${home}/${rel}`), { recursive: true });
      await sb.writeFile(`${home}/${rel}`, data);
    }
    await sb.run('true', { cwd: home }); // start the session shell outside the timing
    return await timeRuns(runs, warmup, async () => {
      const r = await sb.run(w.script, { cwd: home, timeoutMs: 600_000 });
      return {
        out: r.status === 0 ? r.stdout.trim() : `exit ${r.status}: ${r.stderr.slice(0, 200)}`,
      };
    });
  } finally {
    await sb.destroy();
  }
}

async function timeJustBash(
  w: Workload,
  files: Files,
  runs: number,
  warmup: boolean,
): Promise<Timing> {
  const home = '/home/user/bench';
  const initial: Record<string, string> = {};
  // just-bash takes text files; binary data goes in as latin1 text.
  for (const [rel, data] of Object.entries(files))
    initial[`${home}/${rel}`] = Buffer.from(data).toString('latin1');
  const bash = new Bash({
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
  return timeRuns(runs, warmup, async () => {
    try {
      const r = await bash.exec(w.script);
      return {
        out: r.exitCode === 0 ? r.stdout.trim() : `exit ${r.exitCode}: ${r.stderr.slice(0, 200)}`,
      };
    } catch (e) {
      return { out: `error: ${(e as Error).message.slice(0, 200)}` };
    }
  });
}

function fmt(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const rows: Record<string, unknown>[] = [];
  console.log(
    `bench: workloads in a warm engine against bash/GNU and just-bash (runs ${args.runs}, scale ${args.scale}, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}, engine ${args.engineWarmUp ? 'warmed up at start' : 'bare: no warm-up'})`,
  );
  if (args.engineWarmUp) {
    // As SandglassEngine.warmUp does once the engine listens.
    const sb = await Sandbox.create();
    try {
      await warmCode(sb);
    } finally {
      await sb.destroy();
    }
  }
  console.log(
    `${'workload'.padEnd(26)} ${'native'.padStart(10)} ${'sandglass'.padStart(10)} ${'just-bash'.padStart(10)}  sg/native  jb/sg ${'sg cold'.padStart(10)}  CPU native/sg/jb  outputs`,
  );
  for (const w of WORKLOADS) {
    if (args.only && !args.only.includes(w.name)) continue;
    const files = w.files(args.scale);
    const runs = w.heavy ? 1 : args.runs;
    const n = await timeNative(w, files, runs, args.warmup);
    const s = await timeSandglass(w, files, runs, args.warmup);
    const j: Timing = args.justBash
      ? await timeJustBash(w, files, runs, args.warmup)
      : { ms: NaN, cpuMs: NaN, coldMs: NaN, coldCpuMs: NaN, out: '(skipped)' };
    const agree =
      n.out === s.out ? 'sg=native' : `sg DIFFERS (${s.out.slice(0, 60)} vs ${n.out.slice(0, 60)})`;
    const jagree = !args.justBash
      ? ''
      : j.out === n.out
        ? ', jb=native'
        : `, jb differs (${j.out.slice(0, 60)})`;
    console.log(
      `${w.name.padEnd(26)} ${fmt(n.ms).padStart(10)} ${fmt(s.ms).padStart(10)} ${fmt(j.ms).padStart(10)}  ${(s.ms / n.ms).toFixed(2).padStart(8)}x ${(j.ms / s.ms).toFixed(2).padStart(6)}x ${fmt(s.coldMs).padStart(10)} (CPU ${fmt(s.coldCpuMs)})  ${[n, s, j].map((t) => fmt(t.cpuMs)).join(' / ')}  ${agree}${jagree}`,
    );
    rows.push({
      name: w.name,
      nativeMs: n.ms,
      sandglassMs: s.ms,
      justBashMs: j.ms,
      cpuMs: { native: n.cpuMs, sandglass: s.cpuMs, justBash: j.cpuMs },
      loadAverage: os.loadavg(),
      coldMs: { native: n.coldMs, sandglass: s.coldMs, justBash: j.coldMs },
      coldCpuMs: { native: n.coldCpuMs, sandglass: s.coldCpuMs, justBash: j.coldCpuMs },
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
