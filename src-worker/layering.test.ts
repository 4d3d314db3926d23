/**
 * The engine's folder layering, checked from the sources: every non-test
 * .ts file's relative imports make a graph of folders (first path segment
 * under src-worker/). It must have no cycles; base/ imports nothing outside
 * itself (and nothing from Node); guest/ stays usable without WASI or the
 * kernel; the kernel builds no runners (proc/node/ is for whoever creates
 * it). Tests are left out: they may set up a whole sandbox from anywhere.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = dirname(fileURLToPath(import.meta.url));

interface Edge {
  readonly from: string;
  readonly to: string;
  /** Importing file and specifier, for messages. */
  readonly site: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.(ts|mts)$/.test(e.name) && !/\.test\.ts$/.test(e.name) ? [p] : [];
  });
}

/** Path of `file` relative to src-worker with `/` separators. */
function rel(file: string): string {
  return relative(root, file).split(sep).join('/');
}

function folderOf(relPath: string): string {
  const i = relPath.indexOf('/');
  return i < 0 ? '.' : relPath.slice(0, i);
}

/** Every import of every engine file: relative ones resolved, others (node:, packages) as written. */
interface Import {
  readonly file: string;
  readonly spec: string;
  readonly target: string | undefined;
}

let scanned: Import[] | undefined;

function imports(): Import[] {
  return (scanned ??= sourceFiles(root).flatMap((file) => {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    return info.importedFiles.map(({ fileName: spec }) => ({
      file: rel(file),
      spec,
      target: spec.startsWith('.') ? rel(resolve(dirname(file), spec)) : undefined,
    }));
  }));
}

function folderEdges(): Edge[] {
  const edges: Edge[] = [];
  for (const { file, spec, target } of imports()) {
    if (target === undefined) continue;
    const from = folderOf(file);
    const to = folderOf(target);
    if (from !== to) edges.push({ from, to, site: `${file} imports ${spec}` });
  }
  return edges;
}

/** Strongly connected components with more than one folder (Tarjan). */
function cycles(edges: readonly Edge[]): string[][] {
  const adj = new Map<string, Set<string>>();
  for (const e of edges) {
    if (!adj.has(e.from)) adj.set(e.from, new Set());
    if (!adj.has(e.to)) adj.set(e.to, new Set());
    adj.get(e.from)?.add(e.to);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of adj.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
      }
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string | undefined;
      do {
        w = stack.pop();
        if (w === undefined) break;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) out.push(scc.sort());
    }
  };
  for (const v of adj.keys()) if (!index.has(v)) visit(v);
  return out;
}

describe('engine layering', () => {
  const edges = folderEdges();

  it('finds the imports it checks', () => {
    // Guards the checks below against a parser that silently finds nothing.
    expect(edges.some((e) => e.from === 'kernel' && e.to === 'base')).toBe(true);
    expect(edges.some((e) => e.from === 'wasi' && e.to === 'guest')).toBe(true);
  });

  it('has no import cycles between folders', () => {
    const found = cycles(edges).map((scc) => {
      const inside = edges.filter((e) => scc.includes(e.from) && scc.includes(e.to));
      return `${scc.join(' <-> ')}:\n  ${inside.map((e) => e.site).join('\n  ')}`;
    });
    expect(found).toEqual([]);
  });

  it('base/ imports nothing outside base/, not even Node', () => {
    const bad = imports()
      .filter(({ file }) => folderOf(file) === 'base')
      .filter(({ target }) => target === undefined || folderOf(target) !== 'base')
      .map(({ file, spec }) => `${file} imports ${spec}`);
    expect(bad).toEqual([]);
  });

  it('guest/ needs only base/ and the channel (no WASI, no kernel)', () => {
    const allowed = new Set(['base', 'channel', 'guest']);
    const bad = edges.filter((e) => e.from === 'guest' && !allowed.has(e.to)).map((e) => e.site);
    expect(bad).toEqual([]);
  });

  it('the kernel builds no runners: nothing from proc/node/', () => {
    const bad = imports()
      .filter(({ file, target }) => folderOf(file) === 'kernel' && target?.startsWith('proc/node/'))
      .map(({ file, spec }) => `${file} imports ${spec}`);
    expect(bad).toEqual([]);
  });
});

describe('cycle finder', () => {
  it('reports a cycle and only the folders on it', () => {
    const e = (from: string, to: string): Edge => ({ from, to, site: `${from}->${to}` });
    expect(cycles([e('a', 'b'), e('b', 'c'), e('c', 'a'), e('c', 'd')])).toEqual([['a', 'b', 'c']]);
    expect(cycles([e('a', 'b'), e('b', 'c')])).toEqual([]);
  });
});
