/**
 * Two lines of history side by side: where they part is marked, and the
 * steps after it are lined up by position; a pair whose commands differ is
 * highlighted. Clicking a pair opens the diff of those two steps.
 */
import { useMemo } from 'react';
import type { Step } from '../../src-worker/contract/api.js';
import { useApp } from '../store/index.js';
import { compareHistories } from './compare.js';
import { formatDuration, statusClass } from './format.js';

function Cell({ step }: { step: Step | undefined }) {
  if (!step) return <td className="compare-cell empty" />;
  return (
    <td className={`compare-cell ${statusClass(step)}`} data-step-id={step.id}>
      <code>{step.command}</code>
      <span className="meta">
        {step.status ?? '—'} · {formatDuration(step.durationMs)} ·{' '}
        {step.changes.added + step.changes.modified + step.changes.deleted} files
      </span>
    </td>
  );
}

export function CompareDialog() {
  const pair = useApp((s) => s.comparison);
  const steps = useApp((s) => (s.currentId ? s.steps[s.currentId] : undefined));
  const branches = useApp((s) => (s.currentId ? s.branches[s.currentId] : undefined));
  const byId = useMemo(() => new Map((steps ?? []).map((s) => [s.id, s])), [steps]);
  const cmp = useMemo(
    () => (pair ? compareHistories(byId, pair.left, pair.right) : null),
    [byId, pair],
  );
  if (!pair || !cmp) return null;
  const { openComparison, openDiff } = useApp.getState();
  const close = (): void => openComparison(null);
  const branchName = (id: string): string => {
    const step = byId.get(id);
    return branches?.find((b) => b.id === step?.branchId)?.name ?? step?.command ?? id;
  };
  const diverged = cmp.divergedAt ? byId.get(cmp.divergedAt) : undefined;

  return (
    <div className="modal-backdrop" onMouseDown={close}>
      <div
        className="modal compare-dialog"
        role="dialog"
        aria-label="Compare branches"
        onMouseDown={(e) => e.stopPropagation()}
      >
        <h2>Compare branches</h2>
        <p className="divergence" data-testid="divergence">
          {diverged ? (
            <>
              {cmp.shared.length} shared steps; they part after <code>{diverged.command}</code>
            </>
          ) : (
            'No shared step: the two histories start apart.'
          )}
        </p>
        <div className="compare-scroll">
          <table className="compare-table">
            <thead>
              <tr>
                <th>{branchName(pair.left)}</th>
                <th>{branchName(pair.right)}</th>
              </tr>
            </thead>
            <tbody>
              {diverged && (
                <tr className="divergence-row">
                  <td colSpan={2}>⑂ diverged after {diverged.command}</td>
                </tr>
              )}
              {cmp.pairs.map(([l, r], i) => {
                const left = l ? byId.get(l) : undefined;
                const right = r ? byId.get(r) : undefined;
                const same = left && right && left.command === right.command;
                return (
                  <tr
                    key={i}
                    className={`compare-row ${same ? 'same' : left && right ? 'changed' : left ? 'only-left' : 'only-right'}`}
                    title={left && right ? 'Open the diff of these two steps' : undefined}
                    onClick={() => {
                      if (!left || !right) return;
                      close();
                      openDiff({
                        kind: 'pair',
                        from: left.id,
                        to: right.id,
                        title: `“${left.command}” → “${right.command}”`,
                      });
                    }}
                  >
                    <Cell step={left} />
                    <Cell step={right} />
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        <div className="modal-actions">
          <button type="button" onClick={close}>
            Close
          </button>
        </div>
      </div>
    </div>
  );
}
