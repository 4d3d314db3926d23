/**
 * The shell differential suite: every case of crates/shell/tests/diff/*.sh
 * runs under the host's bash and under our shell in a sandbox; stdout,
 * stderr (without the program-name prefix) and exit status must agree. The
 * pass rate must not fall below PASS_RATE_FLOOR; the report goes to
 * test-results/shell-diff.txt and the console.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WorkerPool } from '../proc/node/workerPool.js';
import { defaultProgramsDir, Sandbox } from '../sandbox/sandbox.js';
import { loadCases } from './cases.js';
import { compareResults } from './compare.js';
import { summarise, type Outcome } from './report.js';
import { runInSandbox, runOnHost } from './runners.js';

/**
 * Measured pass rates rounded down; raise them when the shell gets better.
 * Many cases call cat, sort, touch...: without coreutils.wasm they fail for
 * that reason alone, so that setup has its own floor.
 */
const PASS_RATE_FLOOR = 99;
const PASS_RATE_FLOOR_WITHOUT_COREUTILS = 79;
/** Sandboxes running cases at once (the machine has 2 cores). */
const POOL = 3;

const repo = fileURLToPath(new URL('../../', import.meta.url));
const casesDir = join(repo, 'crates/shell/tests/diff');
const reportFile = join(repo, 'test-results/shell-diff.txt');
const shellBuilt = existsSync(join(defaultProgramsDir(), 'shell.wasm'));
const coreutilsBuilt = ((): boolean => {
  try {
    const manifest = JSON.parse(
      readFileSync(join(defaultProgramsDir(), 'manifest.json'), 'utf8'),
    ) as { programs?: { name?: string }[] };
    return (manifest.programs ?? []).some((p) => p.name === 'coreutils');
  } catch {
    return false;
  }
})();
const hostBash = ((): boolean => {
  try {
    execFileSync('bash', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

if (!shellBuilt)
  console.warn('shell differential suite skipped: resources/wasm/shell.wasm is not built');
if (!hostBash) console.warn('shell differential suite skipped: no bash on the host');

afterAll(async () => {
  expect(await WorkerPool.drained()).toBe(true);
});

describe.skipIf(!shellBuilt || !hostBash)('shell differential suite', () => {
  it('agrees with bash on at least the recorded share of cases', { timeout: 300_000 }, async () => {
    const cases = loadCases(casesDir);
    expect(cases.length).toBeGreaterThan(0);
    const base = await mkdtemp(join(tmpdir(), 'sg-shelldiff-'));
    const t0 = performance.now();
    const outcomes: Outcome[] = new Array<Outcome>(cases.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      const sb = await Sandbox.create();
      try {
        await sb.mkdir(base, { recursive: true });
        for (let i = next++; i < cases.length; i = next++) {
          const c = cases[i] as (typeof cases)[number];
          const dir = join(base, `${c.file}-${c.index}`);
          const [expected, actual] = await Promise.all([
            runOnHost(join(dir, 'host'), c.script),
            runInSandbox(sb, join(dir, 'host'), c.script),
          ]);
          outcomes[i] = { case: c, difference: compareResults(expected, actual) };
        }
      } finally {
        await sb.destroy();
      }
    };
    try {
      await Promise.all(Array.from({ length: POOL }, worker));
    } finally {
      await rm(base, { recursive: true, force: true });
    }
    const summary = summarise(outcomes, performance.now() - t0);
    if (!coreutilsBuilt) console.warn('coreutils.wasm is not built: cases calling utilities fail');
    await mkdir(join(repo, 'test-results'), { recursive: true });
    await writeFile(reportFile, summary.text);
    console.log(summary.text);
    expect(summary.rate).toBeGreaterThanOrEqual(
      coreutilsBuilt ? PASS_RATE_FLOOR : PASS_RATE_FLOOR_WITHOUT_COREUTILS,
    );
  });
});
