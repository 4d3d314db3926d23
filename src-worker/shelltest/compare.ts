/**
 * Comparing one case's result from bash and from our shell: stdout bytes,
 * stderr with the program-name prefix removed, and the exit status.
 */

export interface CaseResult {
  readonly stdout: Uint8Array;
  readonly stderr: Uint8Array;
  readonly status: number;
}

// bash names itself by the script (`case.sh: line 3: ...`) or `bash:`; ours
// may use either spelling, so the prefix is not part of the comparison.
const PREFIX = /^(?:bash|sh|\/bin\/(?:ba)?sh|[^ :\n]*case\.sh): /gm;

const latin1 = new TextDecoder('latin1');

export function normaliseStderr(stderr: Uint8Array): string {
  return latin1.decode(stderr).replace(PREFIX, '');
}

export interface Difference {
  readonly stream: 'stdout' | 'stderr' | 'status';
  readonly line: number;
  readonly expected: string | undefined;
  readonly actual: string | undefined;
}

function firstLineDiff(
  stream: 'stdout' | 'stderr',
  expected: string,
  actual: string,
): Difference | undefined {
  if (expected === actual) return undefined;
  const e = expected.split('\n');
  const a = actual.split('\n');
  for (let i = 0; i < Math.max(e.length, a.length); i++) {
    if (e[i] !== a[i]) return { stream, line: i + 1, expected: e[i], actual: a[i] };
  }
  // Only possible if the texts differ in a way split hides; report the whole.
  return { stream, line: 1, expected, actual };
}

/** The first difference (stdout, then stderr, then status), or undefined when alike. */
export function compareResults(expected: CaseResult, actual: CaseResult): Difference | undefined {
  return (
    firstLineDiff('stdout', latin1.decode(expected.stdout), latin1.decode(actual.stdout)) ??
    firstLineDiff('stderr', normaliseStderr(expected.stderr), normaliseStderr(actual.stderr)) ??
    (expected.status !== actual.status
      ? {
          stream: 'status',
          line: 0,
          expected: String(expected.status),
          actual: String(actual.status),
        }
      : undefined)
  );
}

export function describeDifference(d: Difference): string {
  const show = (s: string | undefined): string => (s === undefined ? '<none>' : JSON.stringify(s));
  if (d.stream === 'status') return `status: expected ${d.expected}, got ${d.actual}`;
  return `${d.stream} line ${d.line}: expected ${show(d.expected)}, got ${show(d.actual)}`;
}
