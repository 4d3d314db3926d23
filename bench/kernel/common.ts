/** Shared setup of the kernel benchmarks: a sandbox over the fixture programs, percentiles. */
import { Sandbox } from '../../src-worker/sandbox/sandbox.js';
import { fixtureProgramsDir } from '../../src-worker/sandbox/testPrograms.js';

export async function benchSandbox(): Promise<Sandbox> {
  const sb = await Sandbox.create({
    programsDir: fixtureProgramsDir(),
    limits: { maxProcesses: 256 },
  });
  await sb.warm();
  return sb;
}

export function percentile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * q) / 100))] ?? NaN;
}

export function summary(label: string, samples: number[]): string {
  const s = [...samples].sort((a, b) => a - b);
  return `${label}: n=${s.length} p50=${percentile(s, 50).toFixed(3)} ms p99=${percentile(s, 99).toFixed(3)} ms`;
}
