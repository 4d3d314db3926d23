/**
 * The soak: N sandboxes in one engine, each running M mixed commands
 * (builtins, coreutils, pipelines, big outputs, commands killed by their
 * time limit, some Python), then destroyed. Measures the engine process's
 * memory and worker threads at baseline, at peak and after everything is
 * destroyed (after a GC and the pool's idle trim), which should come back to
 * the baseline. `runSoak` is shared by the hand-run script (main.ts) and a
 * tiny vitest smoke (soak.test.ts).
 */
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { settledMemory } from '../../src-worker/adversarial/memory.ts';
import { SandglassEngine } from '../../src-worker/api/engine.ts';
import { WorkerPool } from '../../src-worker/proc/node/workerPool.ts';
import { PythonPool } from '../../src-worker/python/node/pythonPool.ts';

export interface SoakOptions {
  readonly sandboxes: number;
  readonly commands: number;
  /** Every how many commands one runs Python (0: never). */
  readonly pythonEvery: number;
  /** How long to wait for the pool's idle trim before the final reading (ms). */
  readonly settleMs: number;
  readonly log?: (line: string) => void;
  /** A folder to write heap snapshots to at baseline and after (`baseline.heapsnapshot`, `after.heapsnapshot`). */
  readonly heapSnapshots?: string;
}

export interface Reading {
  /** MiB. */
  readonly rss: number;
  readonly heap: number;
  /** ArrayBuffers (file contents, wasm memories) outside the JS heap. */
  readonly buffers: number;
  /** Live process and Python worker threads. */
  readonly workers: number;
}

export interface SoakResult {
  readonly baseline: Reading;
  readonly peak: Reading;
  readonly after: Reading;
  readonly commands: number;
  readonly killed: number;
  /** Commands whose output was not what the mix expects (should be 0). */
  readonly wrong: string[];
  readonly wallMs: number;
  /** CPU of this process (all its threads), ms. */
  readonly cpuMs: number;
}

const MiB = 2 ** 20;

export function reading(): Reading {
  const m = process.memoryUsage();
  return {
    rss: m.rss / MiB,
    heap: m.heapUsed / MiB,
    buffers: m.arrayBuffers / MiB,
    workers: WorkerPool.liveWorkers() + PythonPool.liveWorkers(),
  };
}

/** A reading once the collector has finished (see `settledMemory`). */
export async function settledReading(): Promise<Reading> {
  await settledMemory();
  return reading();
}

export const describeReading = (r: Reading): string =>
  `rss ${r.rss.toFixed(0)} MiB, heap ${r.heap.toFixed(0)} MiB, buffers ${r.buffers.toFixed(0)} MiB, ${String(r.workers)} workers`;

/** One command of the mix: what to run, its time limit, and a check of the result. */
interface Mixed {
  readonly command: string;
  readonly timeoutMs?: number;
  readonly check: (stdout: string, status: number) => boolean;
}

function mix(n: number, i: number, pythonEvery: number): Mixed {
  if (pythonEvery > 0 && i % pythonEvery === pythonEvery - 1)
    return {
      command: `python3 -c "print(sum(range(${String(i)})))"`,
      check: (out) => out === `${String((i * (i - 1)) / 2)}\n`,
    };
  switch (i % 10) {
    case 0:
      return {
        command: `x=$((${String(i)} * 3)); for j in 1 2 3; do x=$((x + j)); done; echo $x`,
        check: (out) => out === `${String(i * 3 + 6)}\n`,
      };
    case 1:
      return {
        command: `echo ${String(n)}-${String(i)} >> log; wc -l < log`,
        check: (out, status) => status === 0 && /^\d+\n$/.test(out),
      };
    case 2:
      return {
        command: 'seq 1 500 | sort -rn | head -3 | tr "\\n" " "',
        check: (out) => out === '500 499 498 ',
      };
    case 3:
      return {
        command: `mkdir -p d/${String(i)} && printf 'a\\nb\\n' > d/${String(i)}/f && cat d/${String(i)}/f | wc -l && rm -r d/${String(i)}`,
        check: (out) => out === '2\n',
      };
    case 4:
      // A big output: ~1.1 MB through the API.
      return { command: 'seq 1 160000', check: (out) => out.endsWith('\n160000\n') };
    case 5:
      return {
        command: 'seq 1 20000 | grep 7 | sed s/7/x/g | wc -l',
        check: (out) => out === '6878\n',
      };
    case 6:
      // Killed at its time limit.
      return { command: 'sleep 10', timeoutMs: 150, check: (_out, status) => status !== 0 };
    case 7:
      // A busy pipeline killed at its time limit.
      return {
        command: 'yes soak | cat > /dev/null',
        timeoutMs: 250,
        check: (_out, status) => status !== 0,
      };
    case 8:
      return {
        command: 'head -c 3000000 /dev/zero > big; wc -c < big; rm big',
        check: (out) => out === '3000000\n',
      };
    default:
      return {
        command: 'f() { echo "$1$1"; }; f ab; cd /tmp && pwd; ls /etc | wc -l > /dev/null',
        check: (out) => out === 'abab\n/tmp\n',
      };
  }
}

async function sandboxRun(
  engine: SandglassEngine,
  n: number,
  opts: SoakOptions,
  wrong: string[],
): Promise<number> {
  const { id } = await engine.call('createSandbox', { name: `soak-${String(n)}` });
  let killed = 0;
  for (let i = 0; i < opts.commands; i++) {
    const m = mix(n, i, opts.pythonEvery);
    const r = await engine.call('run', {
      sandboxId: id,
      command: m.command,
      ...(m.timeoutMs !== undefined ? { timeoutMs: m.timeoutMs } : {}),
    });
    if (m.timeoutMs !== undefined && r.status !== 0) killed++;
    if (!m.check(r.stdout, r.status))
      wrong.push(
        `${m.command}: status ${String(r.status)} ${JSON.stringify(r.stdout.slice(-80))} ${r.stderr.slice(0, 200)}`,
      );
  }
  await engine.call('destroySandbox', { sandboxId: id });
  opts.log?.(`sandbox ${String(n)} done: ${describeReading(reading())}`);
  return killed;
}

export async function runSoak(opts: SoakOptions): Promise<SoakResult> {
  const log = opts.log ?? (() => undefined);
  const engine = new SandglassEngine();
  const wrong: string[] = [];
  try {
    // Warm-up: one sandbox through the whole mix, so pools and compiled modules exist.
    await sandboxRun(
      engine,
      -1,
      { ...opts, commands: Math.min(opts.commands, opts.pythonEvery || 20) },
      wrong,
    );
    await new Promise((r) => setTimeout(r, opts.settleMs));
    const baseline = await settledReading();
    log(`baseline: ${describeReading(baseline)}`);
    if (opts.heapSnapshots) writeHeapSnapshot(join(opts.heapSnapshots, 'baseline.heapsnapshot'));
    let peak = baseline;
    const sampler = setInterval(() => {
      const r = reading();
      if (r.rss > peak.rss) peak = { ...r, workers: Math.max(r.workers, peak.workers) };
      else if (r.workers > peak.workers) peak = { ...peak, workers: r.workers };
    }, 100);
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const killed = await Promise.all(
      Array.from({ length: opts.sandboxes }, (_, n) => sandboxRun(engine, n, opts, wrong)),
    );
    const wallMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    clearInterval(sampler);
    log(`peak: ${describeReading(peak)}`);
    // Destroyed; now let the idle trim run and the GC collect.
    await new Promise((r) => setTimeout(r, opts.settleMs));
    const after = await settledReading();
    log(`after: ${describeReading(after)}`);
    if (opts.heapSnapshots) writeHeapSnapshot(join(opts.heapSnapshots, 'after.heapsnapshot'));
    return {
      baseline,
      peak,
      after,
      commands: opts.sandboxes * opts.commands,
      killed: killed.reduce((a, b) => a + b, 0),
      wrong,
      wallMs,
      cpuMs: (cpu.user + cpu.system) / 1000,
    };
  } finally {
    await engine.dispose();
  }
}
