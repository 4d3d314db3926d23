/**
 * The diff of two steps (or of one step against its parent): a tree of
 * added, modified and deleted files with +/- line counts; a text file opens
 * in Monaco's diff editor, a binary one shows sizes and hashes. Opened before
 * a restore, it lists what the restore will change and asks to go on.
 */
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import type { DiffEntry, DiffPage, FileDiff } from '../../src-worker/contract/api.js';
import { formatBytes } from '../editor/fileKind.js';
import { api } from '../store/apiHandle.js';
import { useApp } from '../store/index.js';
import { describeError } from '../store/notifySlice.js';
import type { DiffRequest } from '../store/timelineSlice.js';
import { diffRows, type DiffRow } from './diffTree.js';
// Monaco loads when a diff is first shown, not with the page.
const MonacoDiff = lazy(() => import('./MonacoDiff.js').then((m) => ({ default: m.MonacoDiff })));

/** Most entries listed; the counts above the list stay exact. */
const MAX_ENTRIES = 10_000;

interface Loaded {
  entries: DiffEntry[];
  counts: { added: number; modified: number; deleted: number; total: number };
}

async function loadDiff(sandboxId: string, request: DiffRequest): Promise<Loaded> {
  const entries: DiffEntry[] = [];
  let first: DiffPage | null = null;
  let offset: number | null = 0;
  while (offset !== null && entries.length < MAX_ENTRIES) {
    const page: DiffPage =
      request.kind === 'step'
        ? await api().stepChanges({ sandboxId, stepId: request.stepId, offset })
        : await api().diffSteps(
            request.to === null
              ? { sandboxId, from: request.from, offset }
              : { sandboxId, from: request.from, to: request.to, offset },
          );
    first ??= page;
    entries.push(...page.entries);
    offset = page.nextOffset;
  }
  return {
    entries,
    counts: first
      ? { added: first.added, modified: first.modified, deleted: first.deleted, total: first.total }
      : { added: 0, modified: 0, deleted: 0, total: 0 },
  };
}

/** The two steps a file is compared between for a request. */
function endsOf(
  request: DiffRequest,
  parentOf: (id: string) => string | null,
): { from: string | null; to: string | null } {
  if (request.kind === 'pair') return { from: request.from, to: request.to };
  return { from: parentOf(request.stepId), to: request.stepId };
}

export function DiffDialog() {
  const request = useApp((s) => s.diff);
  return request ? <DiffView request={request} /> : null;
}

function DiffView({ request }: { request: DiffRequest }) {
  const sandboxId = useApp((s) => s.currentId);
  const steps = useApp((s) => (s.currentId ? s.steps[s.currentId] : undefined));
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [picked, setPicked] = useState<DiffEntry | null>(null);
  const close = (): void => useApp.getState().openDiff(null);

  useEffect(() => {
    if (!sandboxId) return;
    let live = true;
    loadDiff(sandboxId, request)
      .then((l) => {
        if (!live) return;
        setLoaded(l);
        setPicked(l.entries.find((e) => e.kind === 'file') ?? null);
      })
      .catch((err: unknown) => live && setError(describeError(err)));
    return () => {
      live = false;
    };
  }, [sandboxId, request]);

  const { rows } = useMemo(() => diffRows(loaded?.entries ?? []), [loaded]);
  const parentOf = (id: string): string | null => steps?.find((s) => s.id === id)?.parentId ?? null;
  const ends = endsOf(request, parentOf);
  const restore = request.restoreStepId;

  return (
    <div className="modal-backdrop" onMouseDown={close}>
      <div
        className="modal diff-dialog"
        role="dialog"
        aria-label={request.title}
        onMouseDown={(e) => e.stopPropagation()}
      >
        <h2>{request.title}</h2>
        {loaded && (
          <p className="diff-summary" data-testid="diff-summary">
            <span className="added">{loaded.counts.added} added</span> ·{' '}
            <span className="modified">{loaded.counts.modified} modified</span> ·{' '}
            <span className="deleted">{loaded.counts.deleted} deleted</span>
            {loaded.entries.length < loaded.counts.total &&
              ` (first ${loaded.entries.length} listed)`}
          </p>
        )}
        {error && <p className="error-text">{error}</p>}
        <div className="diff-body">
          <ul className="diff-tree" role="tree" aria-label="Changed files">
            {!loaded && !error && <li className="empty-hint">Loading…</li>}
            {loaded && rows.length === 0 && <li className="empty-hint">No file changes.</li>}
            {rows.map((row) => (
              <DiffTreeRow
                key={`${row.type}:${row.path}`}
                row={row}
                picked={picked?.path === row.path}
                pick={setPicked}
              />
            ))}
          </ul>
          <div className="diff-file">
            {picked && sandboxId ? (
              <FileView
                key={picked.path}
                sandboxId={sandboxId}
                entry={picked}
                from={ends.from}
                to={ends.to}
              />
            ) : (
              <div className="empty-hint">Pick a file.</div>
            )}
          </div>
        </div>
        <div className="modal-actions">
          <button type="button" onClick={close}>
            {restore ? 'Cancel' : 'Close'}
          </button>
          {restore && (
            <button
              type="button"
              className="primary"
              autoFocus
              onClick={() => {
                close();
                void useApp.getState().restoreStep(restore);
              }}
            >
              Restore
            </button>
          )}
        </div>
      </div>
    </div>
  );
}

function DiffTreeRow(props: { row: DiffRow; picked: boolean; pick(entry: DiffEntry): void }) {
  const { row, picked, pick } = props;
  const indent = { paddingLeft: 6 + row.depth * 14 };
  if (row.type === 'dir')
    return (
      <li
        className="diff-row dir"
        style={indent}
        role="treeitem"
        aria-expanded
        data-path={row.path}
      >
        {row.name}/
      </li>
    );
  const e = row.entry;
  return (
    <li
      className={`diff-row file change-${e.change}${picked ? ' selected' : ''}`}
      style={indent}
      role="treeitem"
      aria-selected={picked}
      data-path={row.path}
      data-change={e.change}
      onClick={() => pick(e)}
    >
      <span className="change-mark">
        {e.change === 'added' ? 'A' : e.change === 'modified' ? 'M' : 'D'}
      </span>
      <span className="name">{row.name}</span>
      {e.text && e.linesAdded !== undefined ? (
        <span className="lines">
          <span className="added">+{e.linesAdded}</span>{' '}
          <span className="deleted">−{e.linesRemoved ?? 0}</span>
        </span>
      ) : (
        <span className="lines">{e.kind === 'file' ? (e.text ? 'large' : 'binary') : e.kind}</span>
      )}
    </li>
  );
}

function FileView(props: {
  sandboxId: string;
  entry: DiffEntry;
  from: string | null;
  to: string | null;
}) {
  const { sandboxId, entry, from, to } = props;
  const [diff, setDiff] = useState<FileDiff | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    // A step with no parent: compare against nothing (the entry is an addition).
    const base = from ?? to;
    if (base === null) return;
    const params =
      to === null
        ? { sandboxId, from: base, path: entry.path }
        : { sandboxId, from: base, to, path: entry.path };
    api()
      .diffFile(params)
      .then((d) => live && setDiff(from === null ? { ...d, before: null } : d))
      .catch((err: unknown) => live && setError(describeError(err)));
    return () => {
      live = false;
    };
  }, [sandboxId, entry.path, from, to]);

  if (error) return <p className="error-text">{error}</p>;
  if (!diff) return <div className="empty-hint">Loading…</div>;
  const before = entry.change === 'added' ? null : diff.before;
  const after = entry.change === 'deleted' ? null : diff.after;
  const textual =
    (before === null || before.text !== undefined) && (after === null || after.text !== undefined);
  if (entry.kind === 'file' && textual)
    return (
      <Suspense fallback={<div className="empty-hint">Loading…</div>}>
        <MonacoDiff path={entry.path} before={before?.text ?? ''} after={after?.text ?? ''} />
      </Suspense>
    );
  return (
    <table className="binary-diff" data-testid="binary-diff">
      <thead>
        <tr>
          <th />
          <th>Before</th>
          <th>After</th>
        </tr>
      </thead>
      <tbody>
        <tr>
          <th>Size</th>
          <td>{before ? formatBytes(before.size) : '—'}</td>
          <td>{after ? formatBytes(after.size) : '—'}</td>
        </tr>
        <tr>
          <th>SHA-256</th>
          <td>
            <code>{before?.sha256 ?? '—'}</code>
          </td>
          <td>
            <code>{after?.sha256 ?? '—'}</code>
          </td>
        </tr>
        <tr>
          <th>Content</th>
          <td>{before?.omitted ?? (before ? 'text' : '—')}</td>
          <td>{after?.omitted ?? (after ? 'text' : '—')}</td>
        </tr>
      </tbody>
    </table>
  );
}
