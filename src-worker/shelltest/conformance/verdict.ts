/**
 * Judging a corpus case: alike when stdout (with stderr merged, if the case
 * says so) and exit status match bash's; otherwise a one-line reason
 * category, guessed from what our side printed, to group the failures.
 */
import type { CaseRun, RunResult } from './run.js';
import { firstDifference } from '../../base/firstDifference.js';

export type Category =
  | 'timeout'
  | 'crash'
  | 'syntax error'
  | 'command not found'
  | 'unsupported'
  | 'exit status only'
  | 'missing error message'
  | 'extra error message'
  | 'error message text'
  | 'missing output'
  | 'extra output'
  | 'whitespace'
  | 'wrong output';

export interface Verdict {
  readonly pass: boolean;
  readonly category?: Category;
  /** The first differing line, bash's then ours, or the statuses. */
  readonly detail?: string;
}

const text = (b: Buffer): string => b.toString('latin1');

/** Our diagnostics: stderr, or the merged output. */
const diagnostics = (r: RunResult): string => text(r.stderr) + text(r.stdout);

const looksLikeError = (line: string): boolean =>
  /^bash: |^[a-z]+: .*(?:: |invalid|not found|No such|error|usage)|: line \d+: |: not found|: No such /.test(
    line,
  );

export function judge(run: CaseRun): Verdict {
  const { expected, actual } = run;
  const eOut = text(expected.stdout);
  const aOut = text(actual.stdout);
  if (eOut === aOut && expected.status === actual.status) return { pass: true };
  const status = `status: bash ${expected.status}, ours ${actual.status}`;
  const detail = eOut === aOut ? status : firstDifference(eOut, aOut, ['bash', 'ours']);
  const ours = diagnostics(actual);
  const theirs = diagnostics(expected);
  const category = ((): Category => {
    if (actual.status === 124 && expected.status !== 124) return 'timeout';
    if (/panicked|RuntimeError|unreachable|spawn failed/.test(ours)) return 'crash';
    if (/syntax error/.test(ours) && !/syntax error/.test(theirs)) return 'syntax error';
    if (/command not found/.test(ours) && !/command not found/.test(theirs))
      return 'command not found';
    const unsupported = /not (?:supported|implemented)|unsupported|invalid (?:shell )?option/;
    if (unsupported.test(ours) && !unsupported.test(theirs)) return 'unsupported';
    if (eOut === aOut) return 'exit status only';
    const e = eOut.split('\n');
    const a = aOut.split('\n');
    const i = e.findIndex((l, k) => l !== a[k]);
    const eLine = e[i] ?? '';
    const aLine = a[i] ?? '';
    if (looksLikeError(eLine) && looksLikeError(aLine)) return 'error message text';
    if (looksLikeError(eLine)) return 'missing error message';
    if (looksLikeError(aLine)) return 'extra error message';
    if (aOut === '' && eOut !== '') return 'missing output';
    if (eOut === '' && aOut !== '') return 'extra output';
    if (eOut.replace(/\s+/g, '') === aOut.replace(/\s+/g, '')) return 'whitespace';
    return 'wrong output';
  })();
  return { pass: false, category, detail: detail.slice(0, 240) };
}
