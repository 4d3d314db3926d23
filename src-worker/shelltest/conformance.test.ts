/**
 * The conformance ratchet: the whole corpus (src-worker/shelltest/corpus/)
 * runs against the host's bash; no area may pass fewer cases than
 * conformance/baseline.json records. The report goes to
 * test-results/shell-conformance.md.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { WorkerPool } from '../proc/node/workerPool.js';
import { defaultProgramsDir } from '../sandbox/sandbox.js';
import {
  conformance,
  readBaseline,
  RESULTS_FILE,
  retryFailures,
  writeOut,
} from './conformance/main.js';
import { ratchet } from './conformance/report.js';

const shellBuilt = existsSync(join(defaultProgramsDir(), 'shell.wasm'));
const hostBash = ((): boolean => {
  try {
    return execFileSync('bash', ['-c', 'echo $BASH_VERSION'], { encoding: 'utf8' }).startsWith(
      '5.2',
    );
  } catch {
    return false;
  }
})();

if (!shellBuilt) console.warn('shell conformance skipped: resources/wasm/shell.wasm is not built');
if (!hostBash) console.warn('shell conformance skipped: the host has no bash 5.2');

afterAll(async () => {
  expect(await WorkerPool.drained()).toBe(true);
});

describe.skipIf(!shellBuilt || !hostBash)('shell conformance corpus', () => {
  it(
    'passes at least the recorded number of cases in every area',
    { timeout: 900_000 },
    async () => {
      const baseline = readBaseline();
      let out = await conformance();
      const first = ratchet(out.scores, baseline);
      if (first.droppedIds.length) out = await retryFailures(out, first.droppedIds);
      await writeOut(RESULTS_FILE, out.report);
      const { dropped, raised } = ratchet(out.scores, baseline);
      if (raised.length)
        console.log(
          `shell conformance improved (${raised.join('; ')}): raise the baseline with ` +
            '`node scripts/shell-conformance.mjs --write --update-baseline` and commit it',
        );
      expect(dropped, `areas below baseline; see ${RESULTS_FILE}`).toEqual([]);
    },
  );
});
