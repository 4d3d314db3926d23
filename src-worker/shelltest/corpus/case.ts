/**
 * The conformance corpus: bash snippets grouped by the sections of the bash
 * reference manual, each run as `bash -c SCRIPT` by the host's bash and by
 * ours, compared on stdout and exit status (and stderr, merged into stdout,
 * when the case says so). Cases are written to be deterministic: no times,
 * pids or $RANDOM values, and every case starts in a fresh empty directory.
 */

export interface CorpusCase {
  /** Unique within its area; defaults to the script itself. */
  readonly name: string;
  readonly script: string;
  /** Merge stderr into stdout (`2>&1` on the whole run) and compare it too. */
  readonly stderr: boolean;
}

export interface Area {
  /** File-name-like id, e.g. `parameter-expansion`. */
  readonly id: string;
  /** The manual's section, e.g. `3.5.3 Shell Parameter Expansion`. */
  readonly section: string;
  readonly cases: readonly CorpusCase[];
}

/** A case as written in an area file: the script alone, or with options. */
export type CaseSpec =
  string | { readonly name?: string; readonly script: string; readonly stderr?: boolean };

/** A case whose diagnostics are part of what is compared. */
export function err(script: string, name?: string): CaseSpec {
  return name === undefined ? { script, stderr: true } : { name, script, stderr: true };
}

/** Builds an area, naming unnamed cases by their script and numbering repeats. */
export function area(id: string, section: string, specs: readonly CaseSpec[]): Area {
  const seen = new Map<string, number>();
  const cases = specs.map((s): CorpusCase => {
    const spec = typeof s === 'string' ? { script: s } : s;
    const base = spec.name ?? spec.script.replace(/\s+/g, ' ').trim().slice(0, 100);
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return {
      name: n === 1 ? base : `${base} (${n})`,
      script: spec.script,
      stderr: spec.stderr ?? false,
    };
  });
  return { id, section, cases };
}

/**
 * An area file (`corpus/<id>.cases`): `@section TITLE` names the manual
 * section; every other non-blank line not starting with `#` is a one-line
 * case; `E| script` merges stderr into what is compared; a block from
 * `>>> [name]` (or `E>> [name]`) to `<<<` is a multi-line case.
 */
export function parseAreaFile(id: string, text: string): { section: string; specs: CaseSpec[] } {
  let section = id;
  const specs: CaseSpec[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.startsWith('@section ')) section = line.slice(9).trim();
    else if (line.startsWith('>>>') || line.startsWith('E>>')) {
      const body: string[] = [];
      const start = i;
      for (i++; i < lines.length && lines[i] !== '<<<'; i++) body.push(lines[i] as string);
      if (i >= lines.length) throw new Error(`${id}.cases:${start + 1}: block without <<<`);
      const name = line.slice(3).trim();
      specs.push({
        ...(name ? { name } : {}),
        script: body.join('\n'),
        stderr: line.startsWith('E'),
      });
    } else if (line.startsWith('E| ')) specs.push(err(line.slice(3)));
    else if (line.trim() !== '' && !line.startsWith('#')) specs.push(line);
  }
  return { section, specs };
}

/** Every combination of the template's `{}` holes filled from the lists, in order. */
export function combos(template: string, ...lists: readonly (readonly string[])[]): string[] {
  let out = [template];
  for (const list of lists) out = out.flatMap((t) => list.map((v) => t.replace('{}', () => v)));
  return out;
}
