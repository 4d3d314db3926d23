/**
 * Running the corpus: each case is `bash -c SCRIPT` in a fresh directory of
 * the same absolute path on both sides, with the same environment (caseEnv).
 * The host side runs one driver bash per area that starts every case in turn
 * (one Node spawn per area instead of per case); our side runs the cases in a
 * few sandboxes at once, one shell process per case.
 */
import { spawn } from 'node:child_process';
import { chown, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Sandbox } from '../../sandbox/sandbox.js';
import type { Area, CorpusCase } from '../corpus/case.js';
import { caseEnv, CASE_TIMEOUT_MS } from '../runners.js';

export interface RunResult {
  readonly stdout: Buffer;
  /** Empty when the case merges stderr into stdout. */
  readonly stderr: Buffer;
  readonly status: number;
}

export interface CaseRun {
  readonly area: Area;
  readonly case: CorpusCase;
  readonly expected: RunResult;
  readonly actual: RunResult;
}

/** What bash -c receives: the same bytes on both sides ($(<file) drops trailing newlines). */
const argvScript = (c: CorpusCase): string => c.script.replace(/\n+$/, '');

const caseDir = (base: string, area: Area, i: number): string => join(base, area.id, String(i));

/**
 * The sandbox runs programs as uid/gid 1000; when this runner is root the
 * host side drops to the same ids, so permission checks (`[ -w f ]` after
 * `chmod 0`) and `id` agree.
 */
const RUN_ID = 1000;
const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const dropRoot = asRoot ? { uid: RUN_ID, gid: RUN_ID } : {};

/** Wall time for one area's driver on the host. */
const DRIVER_TIMEOUT_MS = 120_000;

const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * One bash process runs every case of the area; outputs land in `io`. The
 * driver starts from caseEnv and unsets what it would itself pass on, so
 * each `bash -c` sees what the sandbox's gets. A CPU-time limit stops a
 * spinning case without a `timeout` process per case; the whole driver has
 * a wall-time limit.
 */
async function runAreaOnHost(base: string, io: string, area: Area): Promise<RunResult[]> {
  const dir = join(io, area.id);
  await mkdir(dir, { recursive: true });
  if (asRoot) await chown(dir, RUN_ID, RUN_ID);
  const lines: string[] = ['unset SHLVL OLDPWD', `ulimit -t ${Math.ceil(CASE_TIMEOUT_MS / 1000)}`];
  for (const [i, c] of area.cases.entries()) {
    await writeFile(join(dir, `${i}.sh`), argvScript(c));
    const cwd = shellQuote(caseDir(base, area, i));
    const out = shellQuote(join(dir, `${i}.out`));
    const errTo = c.stderr ? '2>&1' : `2>${shellQuote(join(dir, `${i}.err`))}`;
    lines.push(
      `mkdir -p ${cwd} && cd ${cwd}`,
      `HOME=${cwd} bash -c "$(<${shellQuote(join(dir, `${i}.sh`))})" >${out} ${errTo} </dev/null`,
      `echo $? >${shellQuote(join(dir, `${i}.st`))}`,
    );
  }
  await writeFile(join(dir, 'driver.sh'), `${lines.join('\n')}\n`);
  const env = { ...caseEnv(base) } as Record<string, string>;
  delete env['HOME'];
  await new Promise<void>((resolve, reject) => {
    const p = spawn('bash', ['--norc', '--noprofile', join(dir, 'driver.sh')], {
      stdio: 'ignore',
      env,
      cwd: '/',
      ...dropRoot,
    });
    const timer = setTimeout(() => p.kill('SIGKILL'), DRIVER_TIMEOUT_MS);
    p.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    p.on('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  const read = (name: string): Promise<Buffer> =>
    readFile(join(dir, name)).catch(() => Buffer.alloc(0));
  return Promise.all(
    area.cases.map(async (c, i) => {
      const st = (await read(`${i}.st`)).toString().trim();
      return {
        stdout: await read(`${i}.out`),
        stderr: c.stderr ? Buffer.alloc(0) : await read(`${i}.err`),
        // Killed for CPU time (SIGKILL after SIGXCPU), or never run: a timeout.
        status: st === '' || st === '137' || st === '152' ? 124 : Number(st),
      };
    }),
  );
}

async function runInSandbox(sb: Sandbox, base: string, area: Area, i: number): Promise<RunResult> {
  const c = area.cases[i] as CorpusCase;
  const cwd = caseDir(base, area, i);
  await sb.mkdir(cwd, { recursive: true });
  const out: Uint8Array[] = [];
  const err: Uint8Array[] = [];
  try {
    const p = await sb.spawn('/bin/bash', ['bash', '-c', argvScript(c)], {
      cwd,
      env: caseEnv(cwd),
      replaceEnv: true,
      stdout: (d) => out.push(d.slice()),
      stderr: (d) => (c.stderr ? out : err).push(d.slice()),
      timeoutMs: CASE_TIMEOUT_MS,
    });
    const r = await p.wait();
    return { stdout: Buffer.concat(out), stderr: Buffer.concat(err), status: r.status };
  } catch (e) {
    return {
      stdout: Buffer.concat(out),
      stderr: Buffer.from(`spawn failed: ${String(e)}`),
      status: -1,
    };
  }
}

export interface RunOptions {
  /** Sandboxes running cases at once. */
  readonly sandboxes?: number;
  /** Host driver processes at once. */
  readonly hostDrivers?: number;
}

/** Runs every case of every area on both sides. */
export async function runCorpus(areas: readonly Area[], opts: RunOptions = {}): Promise<CaseRun[]> {
  const base = await mkdtemp(join(tmpdir(), 'sg-corpus-'));
  const io = await mkdtemp(join(tmpdir(), 'sg-corpus-io-'));
  if (asRoot) for (const d of [base, io]) await chown(d, RUN_ID, RUN_ID);
  try {
    const hostResults = new Map<Area, RunResult[]>();
    let nextArea = 0;
    const hostWorker = async (): Promise<void> => {
      for (let a = nextArea++; a < areas.length; a = nextArea++) {
        const area = areas[a] as Area;
        hostResults.set(area, await runAreaOnHost(base, io, area));
      }
    };
    const jobs = areas.flatMap((area) => area.cases.map((_, i) => ({ area, i })));
    const actual = new Array<RunResult>(jobs.length);
    let nextJob = 0;
    const sandboxWorker = async (): Promise<void> => {
      const sb = await Sandbox.create();
      try {
        for (let j = nextJob++; j < jobs.length; j = nextJob++) {
          const job = jobs[j] as (typeof jobs)[number];
          actual[j] = await runInSandbox(sb, base, job.area, job.i);
        }
      } finally {
        await sb.destroy();
      }
    };
    await Promise.all([
      ...Array.from({ length: opts.hostDrivers ?? 1 }, hostWorker),
      ...Array.from({ length: opts.sandboxes ?? 3 }, sandboxWorker),
    ]);
    return jobs.map((job, j) => ({
      area: job.area,
      case: job.area.cases[job.i] as CorpusCase,
      expected: (hostResults.get(job.area) as RunResult[])[job.i] as RunResult,
      actual: actual[j] as RunResult,
    }));
  } finally {
    await rm(base, { recursive: true, force: true });
    await rm(io, { recursive: true, force: true });
  }
}
