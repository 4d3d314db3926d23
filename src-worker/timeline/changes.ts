/**
 * What changed between two snapshots, in the contract's terms: a step's own
 * summary (counts and a bounded list), diff pages with +/- line counts and
 * hashes, and one file's two sides. Everything starts from the VFS's diff,
 * whose cost follows the change, not the tree.
 */
import { createHash } from 'node:crypto';
import type {
  ChangedPath,
  DiffEntry,
  DiffPage,
  FileDiff,
  FileKind,
  FileSide,
  StepChanges,
} from '../contract/api.js';
import { LIMITS } from '../contract/constants.js';
import {
  pathToUtf8,
  type FileContents,
  type NodeKind,
  type VfsContentChange,
} from '../vfs/index.js';

type ChangeType = ChangedPath['change'];

/** One changed path (a rename shows as its old path deleted and its new path added). */
export interface PathChange {
  path: string;
  change: ChangeType;
  kind: FileKind;
  before?: VfsContentChange['before'];
  after?: VfsContentChange['after'];
}

export function fileKind(kind: NodeKind): FileKind {
  return kind === 'file' || kind === 'dir' || kind === 'symlink' ? kind : 'other';
}

/** The VFS's changes as added/modified/deleted paths, sorted by path. */
export function pathChanges(changes: readonly VfsContentChange[]): PathChange[] {
  const out: PathChange[] = [];
  for (const c of changes) {
    const kind = fileKind(c.kind);
    const path = pathToUtf8(c.path);
    if (c.type === 'renamed') {
      out.push({
        path: pathToUtf8(c.oldPath ?? c.path),
        change: 'deleted',
        kind,
        before: c.before,
      });
      out.push({ path, change: 'added', kind, after: c.after });
    } else {
      const change: ChangeType =
        c.type === 'created' ? 'added' : c.type === 'deleted' ? 'deleted' : 'modified';
      out.push({ path, change, kind, before: c.before, after: c.after });
    }
  }
  out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return out;
}

function count(
  changes: readonly PathChange[],
): Pick<StepChanges, 'added' | 'modified' | 'deleted'> {
  let added = 0;
  let modified = 0;
  let deleted = 0;
  for (const c of changes) {
    if (c.change === 'added') added++;
    else if (c.change === 'modified') modified++;
    else deleted++;
  }
  return { added, modified, deleted };
}

/** A step's own record of what it changed: counts and the first paths. */
export function summarize(changes: readonly PathChange[]): StepChanges {
  const paths = changes
    .slice(0, LIMITS.stepChangedPaths)
    .map(({ path, change, kind }) => ({ path, change, kind }));
  return { ...count(changes), paths, truncated: changes.length > paths.length };
}

export const NO_CHANGES: StepChanges = {
  added: 0,
  modified: 0,
  deleted: 0,
  paths: [],
  truncated: false,
};

const hashes = new WeakMap<object, string>();

/** sha256 hex of immutable contents (cached by their identity). */
export function contentHash(contents: FileContents): string {
  let h = hashes.get(contents.identity);
  if (h === undefined) {
    h = sha256(contents.read());
    hashes.set(contents.identity, h);
  }
  return h;
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The text of bytes that are UTF-8 without NUL, else null. */
export function textOf(bytes: Uint8Array): string | null {
  if (bytes.includes(0)) return null;
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * Lines of a text, as diff and `wc -l` see them: a final newline ends the
 * last line rather than starting an empty one. A last line without its
 * newline keeps a mark (a `\n`, which no split line contains), so `x` and
 * `x\n` differ by one line removed and one added, as diff reports.
 */
function lines(text: string): string[] {
  if (text === '') return [];
  const all = text.split('\n');
  if (all[all.length - 1] === '') all.pop();
  else all[all.length - 1] += '\n';
  return all;
}

/**
 * Lines added and removed, as counts of the lines each side has that the
 * other lacks (a multiset difference after the common head and tail): the
 * numbers a line diff gives, except that moved lines count as unchanged.
 */
export function lineCounts(before: string, after: string): { added: number; removed: number } {
  const a = lines(before);
  const b = lines(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const left = new Map<string, number>();
  for (let i = start; i < endA; i++) left.set(a[i] as string, (left.get(a[i] as string) ?? 0) + 1);
  let added = 0;
  for (let i = start; i < endB; i++) {
    const line = b[i] as string;
    const n = left.get(line) ?? 0;
    if (n > 0) left.set(line, n - 1);
    else added++;
  }
  let removed = 0;
  for (const n of left.values()) removed += n;
  return { added, removed };
}

/** One diff entry with sizes, hashes and, for text within bounds, line counts. */
export function diffEntry(c: PathChange): DiffEntry {
  const entry: DiffEntry = { path: c.path, change: c.change, kind: c.kind, text: false };
  const b = c.before?.contents ?? null;
  const a = c.after?.contents ?? null;
  if (c.before) entry.sizeBefore = c.before.size;
  if (c.after) entry.sizeAfter = c.after.size;
  if (b) entry.hashBefore = contentHash(b);
  if (a) entry.hashAfter = contentHash(a);
  if (!a && !b) return entry;
  const small = (x: FileContents | null): boolean => !x || x.size <= LIMITS.diffLineBytes;
  if (!small(a) || !small(b)) return entry;
  const tb = b ? textOf(b.read()) : '';
  const ta = a ? textOf(a.read()) : '';
  if (tb === null || ta === null) return entry;
  entry.text = true;
  if (c.kind === 'file') {
    const { added, removed } = lineCounts(c.before && !b ? '' : tb, c.after && !a ? '' : ta);
    entry.linesAdded = added;
    entry.linesRemoved = removed;
  }
  return entry;
}

/** A page of diff entries; only the page's entries are hashed and counted. */
export function diffPage(changes: readonly PathChange[], offset = 0, limit?: number): DiffPage {
  const n = Math.min(Math.max(1, limit ?? LIMITS.diffPageDefault), LIMITS.diffPageMax);
  const slice = changes.slice(offset, offset + n);
  const end = offset + slice.length;
  return {
    entries: slice.map(diffEntry),
    ...count(changes),
    total: changes.length,
    nextOffset: end < changes.length ? end : null,
  };
}

/** One side of a file diff: its text when text and within bounds. */
export function fileSide(bytes: Uint8Array): FileSide {
  const side: FileSide = { size: bytes.length, sha256: sha256(bytes) };
  if (bytes.length > LIMITS.diffFileBytes) return { ...side, omitted: 'tooLarge' };
  const text = textOf(bytes);
  return text === null ? { ...side, omitted: 'binary' } : { ...side, text };
}

/** A file at two points (null where it is absent or not a regular file). */
export function fileDiff(
  path: string,
  before: Uint8Array | null,
  after: Uint8Array | null,
): FileDiff {
  return {
    path,
    before: before ? fileSide(before) : null,
    after: after ? fileSide(after) : null,
  };
}
