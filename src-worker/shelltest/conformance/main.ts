/**
 * The corpus run behind scripts/shell-conformance.mjs and the ratchet test:
 * runs every area, judges, and (on request) writes the report and baseline.
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AREAS } from '../corpus/index.js';
import {
  judgeAll,
  markdown,
  scores,
  toBaseline,
  type AreaScore,
  type Baseline,
  type Judged,
} from './report.js';
import { runCorpus } from './run.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
export const BASELINE_FILE = join(repo, 'src-worker/shelltest/conformance/baseline.json');
export const REPORT_FILE = join(repo, 'docs/shell-conformance.md');
export const RESULTS_FILE = join(repo, 'test-results/shell-conformance.md');

export interface Outcome {
  readonly scores: AreaScore[];
  readonly judged: Judged[];
  readonly elapsedMs: number;
  readonly report: string;
}

export async function conformance(only?: readonly string[]): Promise<Outcome> {
  const areas = only?.length ? AREAS.filter((a) => only.includes(a.id)) : AREAS;
  const t0 = performance.now();
  const judged = judgeAll(await runCorpus(areas));
  const elapsedMs = performance.now() - t0;
  const s = scores(areas, judged);
  return { scores: s, judged, elapsedMs, report: markdown(s, judged, elapsedMs) };
}

export function readBaseline(): Baseline {
  try {
    return JSON.parse(readFileSync(BASELINE_FILE, 'utf8')) as Baseline;
  } catch {
    return {};
  }
}

export async function writeOut(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
}

export async function writeBaseline(s: readonly AreaScore[]): Promise<void> {
  await writeOut(BASELINE_FILE, `${JSON.stringify(toBaseline(s), null, 2)}\n`);
}
