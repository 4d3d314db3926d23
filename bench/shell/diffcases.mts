/**
 * Runs chosen differential case files (crates/shell/tests/diff/*.sh) under the
 * host's bash and our shell in a sandbox and prints each difference: a quick
 * loop for shell work (the full suite is src-worker/shelltest/differential.test.ts).
 * Usage: npx tsx bench/shell/diffcases.mts FILE.sh [FILE.sh...] [--only N]
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseCases } from '../../src-worker/shelltest/cases.ts';
import { compareResults, describeDifference } from '../../src-worker/shelltest/compare.ts';
import { runInSandbox, runOnHost } from '../../src-worker/shelltest/runners.ts';
import { Sandbox } from '../../src-worker/sandbox/sandbox.ts';

const args = process.argv.slice(2);
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? Number(args[onlyAt + 1]) : undefined;
const files = args.filter((a, i) => a.endsWith('.sh') && (onlyAt < 0 || i !== onlyAt + 1));
const sb = await Sandbox.create();
const base = await mkdtemp(join(tmpdir(), 'sg-diffcases-'));
await sb.mkdir(base, { recursive: true });
let pass = 0;
let fail = 0;
for (const f of files) {
  for (const c of parseCases(basename(f, '.sh'), readFileSync(f, 'utf8'))) {
    if (only !== undefined && c.index !== only) continue;
    const dir = join(base, `${c.file}-${c.index}`);
    const [bash, ours] = await Promise.all([
      runOnHost(dir, c.script),
      runInSandbox(sb, dir, c.script),
    ]);
    const d = compareResults(bash, ours);
    if (!d) {
      pass++;
      continue;
    }
    fail++;
    console.log(`FAIL ${c.file}#${c.index} ${c.title}: ${describeDifference(d)}`);
  }
}
console.log(`${pass} passed, ${fail} failed`);
await sb.destroy();
await rm(base, { recursive: true, force: true });
