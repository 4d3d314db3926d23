/**
 * The corpus run behind scripts/shell-conformance.mjs and the ratchet test:
 * runs every area, judges, and (on request) writes the report and baseline.
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Area } from '../corpus/case.js';
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

/**
 * Runs again the failing cases of the given areas and counts those that now
 * agree: a case slowed past its timeout by a loaded machine must not trip
 * the ratchet. A case that fails twice stays failed.
 */
export async function retryFailures(out: Outcome, ids: readonly string[]): Promise<Outcome> {
  const areas = out.scores.map((x) => x.area);
  const retry: Area[] = areas
    .filter((a) => ids.includes(a.id))
    .map((a) => ({
      ...a,
      cases: out.judged.filter((j) => j.run.area === a && !j.verdict.pass).map((j) => j.run.case),
    }));
  const t0 = performance.now();
  const again = judgeAll(await runCorpus(retry));
  const key = (j: Judged): string => `${j.run.area.id}\0${j.run.case.name}`;
  const fixed = new Set(again.filter((j) => j.verdict.pass).map(key));
  const judged = out.judged.map((j) =>
    fixed.has(key(j)) ? { run: j.run, verdict: { pass: true } } : j,
  );
  const elapsedMs = out.elapsedMs + performance.now() - t0;
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
