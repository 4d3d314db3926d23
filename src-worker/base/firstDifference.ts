/**
 * The first line where two texts differ, for a failure message that names it: a whole-output
 * comparison otherwise reports only the first few characters of each side.
 */
export function firstDifference(
  expected: string,
  actual: string,
  labels: readonly [string, string] = ['expected', 'actual'],
): string {
  const e = expected.split('\n');
  const a = actual.split('\n');
  for (let i = 0; i < Math.max(e.length, a.length); i++)
    if (e[i] !== a[i])
      return `line ${i + 1}: ${labels[0]} ${JSON.stringify(e[i] ?? null)}, ${labels[1]} ${JSON.stringify(a[i] ?? null)}`;
  return '';
}
