/**
 * Steps panel: every finished command as a step (a tree by parentId, listed
 * in order with branch depth), details of the selected one, browsing its
 * snapshot read-only and restoring the sandbox to it.
 */
import { useMemo } from 'react';
import type { Step } from '../../src-worker/contract/api.js';
import { useApp } from '../store/index.js';

/** Depth of each step in the tree: a step whose parent is not the previous one starts a branch. */
export function branchDepths(steps: Step[]): Map<string, number> {
  const depth = new Map<string, number>();
  const childCount = new Map<string, number>();
  for (const step of steps) {
    const parentDepth = step.parentId ? (depth.get(step.parentId) ?? 0) : 0;
    const siblings = step.parentId ? (childCount.get(step.parentId) ?? 0) : 0;
    if (step.parentId) childCount.set(step.parentId, siblings + 1);
    depth.set(step.id, parentDepth + (siblings > 0 ? 1 : 0));
  }
  return depth;
}

function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function StepsPanel() {
  const currentId = useApp((s) => s.currentId);
  const steps = useApp((s) => (s.currentId ? s.steps[s.currentId] : undefined));
  const head = useApp((s) => (s.currentId ? s.heads[s.currentId] : null));
  const selectedId = useApp((s) => s.selectedStepId);
  const browse = useApp((s) => s.browse);
  const { selectStep, restoreStep, setBrowse } = useApp.getState();
  const list = useMemo(() => steps ?? [], [steps]);
  const depths = useMemo(() => branchDepths(list), [list]);
  const selected = list.find((s) => s.id === selectedId) ?? null;

  return (
    <section className="pane steps-pane" aria-label="Steps">
      <div className="pane-header">
        <span className="pane-title">Steps</span>
        <span className="count">{list.length}</span>
      </div>
      <ol className="steps-list" aria-label="Step list">
        {list.length === 0 && (
          <li className="empty-hint">{currentId ? 'Commands you run appear here.' : ''}</li>
        )}
        {list.map((step, i) => (
          <li
            key={step.id}
            className={`step ${step.id === selectedId ? 'selected' : ''} ${step.id === head ? 'head' : ''} ${step.status === 0 ? 'ok' : step.status === null ? 'unknown' : 'fail'}`}
            style={{ paddingLeft: 8 + (depths.get(step.id) ?? 0) * 12 }}
            data-step-id={step.id}
            data-status={step.status ?? ''}
            aria-selected={step.id === selectedId}
            onClick={() => selectStep(step.id)}
            tabIndex={0}
            onKeyDown={(e) => e.key === 'Enter' && selectStep(step.id)}
          >
            <span className="step-index">{i + 1}</span>
            <span className="step-status" aria-label={`exit status ${step.status ?? 'unknown'}`}>
              {step.status === 0 ? '✓' : step.status === null ? '?' : step.status}
            </span>
            <code className="step-command">{step.command}</code>
            <span className="step-meta">
              {step.sessionKind === 'terminal' ? 'term' : 'API'} · {formatDuration(step.durationMs)}
            </span>
            {step.id === head && (
              <span className="head-flag" title="The sandbox is at this step">
                ●
              </span>
            )}
          </li>
        ))}
      </ol>
      {selected && (
        <div className="step-details" aria-label="Step details">
          <dl>
            <dt>Command</dt>
            <dd>
              <code>{selected.command}</code>
            </dd>
            <dt>Status</dt>
            <dd data-testid="step-detail-status">{selected.status ?? 'unknown'}</dd>
            <dt>Session</dt>
            <dd>
              {selected.sessionKind} {selected.sessionId}
            </dd>
            <dt>Started</dt>
            <dd>{new Date(selected.startedAt).toLocaleTimeString()}</dd>
            <dt>Duration</dt>
            <dd>{formatDuration(selected.durationMs)}</dd>
            <dt>Snapshot</dt>
            <dd>
              <code>{selected.snapshotId}</code>
            </dd>
          </dl>
          {selected.stdout !== undefined && (
            <>
              <h4>stdout</h4>
              <pre className="output">{selected.stdout || '(empty)'}</pre>
            </>
          )}
          {selected.stderr !== undefined && selected.stderr !== '' && (
            <>
              <h4>stderr</h4>
              <pre className="output err">{selected.stderr}</pre>
            </>
          )}
          <div className="step-actions">
            {browse?.stepId === selected.id ? (
              <button onClick={() => setBrowse(null)}>Back to live</button>
            ) : (
              <button
                onClick={() => setBrowse({ stepId: selected.id, snapshotId: selected.snapshotId })}
              >
                Browse files
              </button>
            )}
            <button
              className="primary"
              title="Restore (Alt+R)"
              onClick={() => {
                if (
                  window.confirm(
                    `Restore the sandbox to the state after “${selected.command}”? Later changes stay reachable as steps.`,
                  )
                )
                  void restoreStep(selected.id);
              }}
            >
              Restore
            </button>
          </div>
        </div>
      )}
    </section>
  );
}
