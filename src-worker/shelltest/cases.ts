/**
 * Differential test cases: a file of bash snippets, each introduced by a line
 * `#### <title>` and running to the next such line (crates/shell/tests/diff).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

export interface ShellCase {
  /** The file's name without `.sh`, e.g. `arith`. */
  readonly file: string;
  /** 1-based index within the file. */
  readonly index: number;
  readonly title: string;
  readonly script: string;
}

export function parseCases(file: string, text: string): ShellCase[] {
  const cases: ShellCase[] = [];
  let title: string | undefined;
  let lines: string[] = [];
  const flush = (): void => {
    if (title === undefined) return;
    cases.push({ file, index: cases.length + 1, title, script: lines.join('\n') });
  };
  const all = text.split('\n');
  // A trailing newline is a line terminator, not an empty last line.
  if (all[all.length - 1] === '') all.pop();
  for (const line of all) {
    if (line.startsWith('#### ')) {
      flush();
      title = line.slice(5);
      lines = [];
    } else if (title !== undefined) {
      lines.push(line);
    }
  }
  flush();
  // Scripts end with a newline, as the native runner's awk writes them.
  return cases.map((c) => ({ ...c, script: `${c.script}\n` }));
}

/** Every case of every `*.sh` in dir, files in name order. */
export function loadCases(dir: string): ShellCase[] {
  return readdirSync(dir)
    .filter((n) => n.endsWith('.sh'))
    .sort()
    .flatMap((n) => parseCases(basename(n, '.sh'), readFileSync(join(dir, n), 'utf8')));
}
