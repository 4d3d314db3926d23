/**
 * Limits bound a whole command, not each process: the time limit ends every
 * process the command started (background jobs and orphans too), and the
 * sandbox's memory limit holds for all processes together.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { WorkerPool } from '../proc/node/workerPool.js';
import { defaultProgramsDir, Sandbox } from './sandbox.js';

const built = existsSync(join(defaultProgramsDir(), 'shell.wasm'));
const sandboxes: Sandbox[] = [];

async function sandbox(limits: Parameters<typeof Sandbox.create>[0] = {}): Promise<Sandbox> {
  const sb = await Sandbox.create(limits);
  sandboxes.push(sb);
  return sb;
}

/** Live processes other than the session shell. */
function others(sb: Sandbox): number {
  return sb.stats().processes.filter((p) => !p.argv.includes('--sandglass-api')).length;
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return check();
}

afterEach(async () => {
  for (const sb of sandboxes.splice(0)) await sb.destroy();
});

describe.skipIf(!built)('command limits', () => {
  it(
    'ends background jobs and orphans of a command at its deadline',
    { timeout: 20_000 },
    async () => {
      const sb = await sandbox();
      const r = await sb.run('(sleep 30 &); sleep 30 & echo started', { timeoutMs: 4000 });
      expect(r).toMatchObject({ stdout: 'started\n', status: 0 });
      expect(others(sb)).toBeGreaterThanOrEqual(2);
      expect(await until(() => others(sb) === 0, 8000)).toBe(true);
      // The session shell survives and serves the next command.
      expect(await sb.run('echo still here')).toMatchObject({ stdout: 'still here\n', status: 0 });
    },
  );

  it(
    'leaves a finished command’s background job alone before the deadline',
    { timeout: 20_000 },
    async () => {
      const sb = await sandbox();
      await sb.run('sleep 2 &', { timeoutMs: 20_000 });
      expect(others(sb)).toBeGreaterThanOrEqual(1);
      await new Promise((r) => setTimeout(r, 1000));
      expect(others(sb)).toBeGreaterThanOrEqual(1);
      expect(await until(() => others(sb) === 0, 8000)).toBe(true);
    },
  );

  it(
    'stops a fork bomb: every process of the command is gone after the deadline',
    { timeout: 30_000 },
    async () => {
      const sb = await sandbox();
      const t0 = performance.now();
      const r = await sb.run('b() { b | b & }; b', { timeoutMs: 2000 });
      expect(performance.now() - t0).toBeLessThan(8000);
      expect(r.status === 0 || r.status === 124).toBe(true);
      expect(await until(() => others(sb) === 0, 10_000)).toBe(true);
      expect(await sb.run('echo ok')).toMatchObject({ stdout: 'ok\n', status: 0 });
    },
  );

  it('kills the largest process when all together pass the sandbox memory limit', async () => {
    const sb = await sandbox({
      limits: { memoryBytes: 192 * 1024 * 1024, sandboxMemoryBytes: 160 * 1024 * 1024 },
    });
    // Each awk holds about 100 MB once its string reaches 32 MiB and then
    // waits: one fits, two together do not.
    const hog = `awk 'BEGIN { s = "x"; while (length(s) < 33554432) s = s s; system("sleep 3") }'`;
    const r = await sb.run(`${hog} & ${hog} & wait; echo done`, { timeoutMs: 20_000 });
    expect(r.stderr).toContain(
      'sandglass: killed: sandbox memory limit of 160 MiB exceeded by all processes together',
    );
    expect(r.stdout).toBe('done\n');
    expect(await until(() => others(sb) === 0, 5000)).toBe(true);
    const held = sb.stats().processes.reduce((n, p) => n + p.memoryBytes, 0);
    expect(held).toBeLessThan(64 * 1024 * 1024);
  }, 30_000);
});

afterAll(async () => {
  expect(await WorkerPool.drained()).toBe(true);
});
