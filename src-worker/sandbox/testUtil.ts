/** Test helpers: run a program in a sandbox and collect its output. */
import type { Sandbox, SpawnOptions } from './sandbox.js';

export interface Ran {
  readonly stdout: string;
  readonly stderr: string;
  readonly status: number;
  readonly signal: number | undefined;
  readonly ms: number;
}

export async function runProgram(
  sb: Sandbox,
  path: string,
  argv: readonly string[],
  opts: Omit<SpawnOptions, 'stdout' | 'stderr'> = {},
): Promise<Ran> {
  const dec = new TextDecoder();
  let stdout = '';
  let stderr = '';
  const t0 = performance.now();
  const p = await sb.spawn(path, argv, {
    ...opts,
    stdout: (d) => (stdout += dec.decode(d, { stream: true })),
    stderr: (d) => (stderr += dec.decode(d, { stream: true })),
  });
  const r = await p.wait();
  return { stdout, stderr, status: r.status, signal: r.signal, ms: performance.now() - t0 };
}
