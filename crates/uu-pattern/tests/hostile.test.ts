/**
 * Hostile input to the text and pattern utilities, run in a real sandbox:
 * catastrophic regular expressions must end quickly with a clear error,
 * and `sort` on a big input either sorts it within the process memory limit
 * or says "memory exhausted" (never a trap). Needs the built coreutils.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { defaultProgramsDir, Sandbox } from '../../../src-worker/sandbox/sandbox.ts';

const built = existsSync(join(defaultProgramsDir(), 'coreutils.wasm'));
const enc = new TextEncoder();
const MB = 1024 * 1024;

/** `n` bytes of short unsorted lines ("line <number>\n"). */
function unsortedLines(n: number): Uint8Array {
  const out = new Uint8Array(n);
  let off = 0;
  let x = 12345;
  while (off < n) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    const line = enc.encode(`line ${x} ${x % 977}\n`);
    const take = Math.min(line.length, n - off);
    out.set(line.subarray(0, take), off);
    off += take;
  }
  out[n - 1] = 10;
  return out;
}

describe.skipIf(!built)('hostile input (pattern and text utilities)', () => {
  let sb: Sandbox;
  const home = '/home/user/h';

  beforeAll(async () => {
    sb = await Sandbox.create({
      // Memory is what these test; a 200 MB sort took past 120 s on a loaded CI machine.
      limits: { wallTimeMs: 240_000 },
      vfsLimits: { maxBytes: 1024 * MB, maxFileSize: 512 * MB },
    });
    await sb.mkdir(home, { recursive: true });
    await sb.writeFile(`${home}/evil.txt`, enc.encode(`${'a'.repeat(40)}b\n`));
  });

  afterAll(async () => {
    await sb?.destroy();
  });

  it('grep -P with exponential backtracking gives up with an error', async () => {
    const t0 = performance.now();
    const r = await sb.run("grep -P '(?=a)(a+)+$' evil.txt", { cwd: home });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("grep: exceeded PCRE's backtracking limit");
    expect(performance.now() - t0).toBeLessThan(30_000);
  });

  it('grep with a back-reference blow-up gives up with an error', async () => {
    const r = await sb.run("grep -E '(a*)*\\1c' evil.txt", { cwd: home });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('backtracking limit');
  });

  it('sed with a back-reference blow-up stops with an error, not wrong output', async () => {
    const r = await sb.run("sed -E 's/(a*)*\\1c/X/' evil.txt", { cwd: home });
    expect(r.status).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^sed: line 1: regex backtracking limit exceeded/);
  });

  it('a linear-engine pattern stays fast on the same input', async () => {
    const r = await sb.run("grep -cE '(a+)+$' evil.txt; sed -E 's/(a|aa)+b/X/' evil.txt", {
      cwd: home,
    });
    expect(r.stdout).toBe('0\nX\n');
    expect(r.status).toBe(0);
  });

  it('sort of 200 MB sorts within the default memory limit', async () => {
    await sb.writeFile(`${home}/big.txt`, unsortedLines(200 * MB));
    // One sort (it dominates the time); tail and wc read its output file.
    const r = await sb.run('sort big.txt > sorted.txt && tail -n 1 sorted.txt && wc -l < sorted.txt', {
      cwd: home,
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const [last, count] = r.stdout.trim().split('\n');
    expect(last).toMatch(/^line \d+ \d+$/);
    expect(Number(count)).toBeGreaterThan(5_000_000);
  }, 300_000);

  it('sort past a small memory limit says "memory exhausted"', async () => {
    const small = await Sandbox.create({
      limits: { wallTimeMs: 120_000, memoryBytes: 64 * MB },
      vfsLimits: { maxBytes: 1024 * MB, maxFileSize: 512 * MB },
    });
    try {
      await small.mkdir(home, { recursive: true });
      await small.writeFile(`${home}/big.txt`, unsortedLines(100 * MB));
      const r = await small.run('sort big.txt > out.txt; echo "status $?"', { cwd: home });
      expect(r.stderr).toBe('sort: memory exhausted\n');
      expect(r.stdout).toBe('status 2\n');
      const again = await small.run('echo usable', { cwd: home });
      expect(again.stdout).toBe('usable\n');
    } finally {
      await small.destroy();
    }
  }, 300_000);
});
