/** The differential suite's report: pass rate per file and overall, then each failing case. */
import type { ShellCase } from './cases.js';
import { describeDifference, type Difference } from './compare.js';

export interface Outcome {
  readonly case: ShellCase;
  readonly difference: Difference | undefined;
}

export interface Summary {
  readonly passed: number;
  readonly total: number;
  /** Percent of cases passing, 0–100. */
  readonly rate: number;
  readonly text: string;
}

const pct = (p: number, t: number): number => (t === 0 ? 0 : (100 * p) / t);

export function summarise(outcomes: readonly Outcome[], elapsedMs: number): Summary {
  const byFile = new Map<string, { passed: number; total: number }>();
  for (const o of outcomes) {
    const f = byFile.get(o.case.file) ?? { passed: 0, total: 0 };
    f.total++;
    if (!o.difference) f.passed++;
    byFile.set(o.case.file, f);
  }
  const lines: string[] = ['shell differential suite: /bin/bash (sandglass) vs host bash', ''];
  for (const [file, f] of byFile)
    lines.push(
      `${file.padEnd(14)} ${String(f.passed).padStart(4)}/${String(f.total).padEnd(4)} ${pct(f.passed, f.total).toFixed(1).padStart(5)}%`,
    );
  const passed = outcomes.filter((o) => !o.difference).length;
  const total = outcomes.length;
  const rate = pct(passed, total);
  lines.push(
    '',
    `overall        ${passed}/${total} ${rate.toFixed(1)}% in ${(elapsedMs / 1000).toFixed(1)} s`,
  );
  const failing = outcomes.filter((o) => o.difference);
  if (failing.length > 0) lines.push('', `cases that differ from bash (${failing.length}):`);
  for (const o of failing)
    lines.push(
      `DIFF ${o.case.file}#${o.case.index} ${o.case.title}`,
      `     ${describeDifference(o.difference as Difference).slice(0, 300)}`,
    );
  return { passed, total, rate, text: `${lines.join('\n')}\n` };
}
