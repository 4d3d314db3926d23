/**
 * The files of a diff as a tree: entries grouped under their folders (only
 * folders that hold a change), folders first, each folder with the totals of
 * what it holds, flattened to rows for a list.
 */
import type { DiffEntry } from '../../src-worker/contract/api.js';

export interface DiffTotals {
  added: number;
  modified: number;
  deleted: number;
  linesAdded: number;
  linesRemoved: number;
}

export type DiffRow =
  | { type: 'dir'; path: string; name: string; depth: number; totals: DiffTotals }
  | { type: 'file'; path: string; name: string; depth: number; entry: DiffEntry };

interface Folder {
  path: string;
  dirs: Map<string, Folder>;
  files: DiffEntry[];
  totals: DiffTotals;
}

const folder = (path: string): Folder => ({
  path,
  dirs: new Map(),
  files: [],
  totals: { added: 0, modified: 0, deleted: 0, linesAdded: 0, linesRemoved: 0 },
});

function count(t: DiffTotals, e: DiffEntry): void {
  t[e.change]++;
  t.linesAdded += e.linesAdded ?? 0;
  t.linesRemoved += e.linesRemoved ?? 0;
}

export function diffRows(entries: readonly DiffEntry[]): { rows: DiffRow[]; totals: DiffTotals } {
  const root = folder('/');
  for (const entry of entries) {
    const parts = entry.path.split('/').filter((p) => p !== '');
    let at = root;
    count(at.totals, entry);
    for (const part of parts.slice(0, -1)) {
      const path = at.path === '/' ? `/${part}` : `${at.path}/${part}`;
      let next = at.dirs.get(part);
      if (!next) {
        next = folder(path);
        at.dirs.set(part, next);
      }
      count(next.totals, entry);
      at = next;
    }
    at.files.push(entry);
  }
  const rows: DiffRow[] = [];
  const walk = (f: Folder, depth: number): void => {
    for (const [name, sub] of [...f.dirs].sort(([a], [b]) => a.localeCompare(b))) {
      rows.push({ type: 'dir', path: sub.path, name, depth, totals: sub.totals });
      walk(sub, depth + 1);
    }
    for (const entry of [...f.files].sort((a, b) => a.path.localeCompare(b.path)))
      rows.push({
        type: 'file',
        path: entry.path,
        name: entry.path.slice(entry.path.lastIndexOf('/') + 1),
        depth,
        entry,
      });
  };
  walk(root, 0);
  return { rows, totals: root.totals };
}
