/**
 * The selected step: what ran, how it ended, what it changed, its network
 * requests and decisions, its terminal output as recorded; and what can be
 * done from it: see its changes, continue from here (restore, after the diff
 * confirm), fork into a new sandbox, diff or compare with a second step.
 */
import { useEffect, useState } from 'react';
import type { Step } from '../../src-worker/contract/api.js';
import { api } from '../store/apiHandle.js';
import { useApp } from '../store/index.js';
import { describeError } from '../store/notifySlice.js';
import { formatDuration, plainText, stepLabel } from './format.js';

/** Most characters of recorded output shown inline. */
const OUTPUT_CHARS = 20_000;

function useRecordedOutput(step: Step): { text: string | null; error: string | null } {
  const [state, setState] = useState<{ id: string; text: string | null; error: string | null }>({
    id: '',
    text: null,
    error: null,
  });
  useEffect(() => {
    let live = true;
    // Without a recording the API previews (stdout/stderr) are shown instead.
    if (step.recordingBytes === 0) return;
    api()
      .getRecording({ sandboxId: step.sandboxId, stepId: step.id })
      .then((rec) => {
        if (!live) return;
        const text = plainText(rec.frames.map((f) => f.data).join(''));
        setState({
          id: step.id,
          text: text.length > OUTPUT_CHARS ? `…${text.slice(-OUTPUT_CHARS)}` : text,
          error: null,
        });
      })
      .catch(
        (err: unknown) => live && setState({ id: step.id, text: null, error: describeError(err) }),
      );
    return () => {
      live = false;
    };
  }, [step.id, step.sandboxId, step.recordingBytes]);
  return state.id === step.id ? state : { text: null, error: null };
}

export function StepDetails(props: { step: Step; other: Step | null; replay: boolean }) {
  const { step, other, replay } = props;
  const branch = useApp((s) => s.branches[step.sandboxId]?.find((b) => b.id === step.branchId));
  const head = useApp((s) => s.heads[step.sandboxId] ?? null);
  const output = useRecordedOutput(step);
  const origin = step.kind === 'fork' ? step.origin : undefined;
  const sourceLive = useApp((s) => !!origin && s.sandboxes.some((b) => b.id === origin.sandboxId));
  const { openDiff, askRestore, forkSandbox, openComparison } = useApp.getState();
  const released = step.snapshotReleased;
  const c = step.changes;

  return (
    <div className="step-details" aria-label="Step details" data-step-id={step.id}>
      <dl>
        <dt>Command</dt>
        <dd>
          <code>{step.command}</code>
        </dd>
        {origin && (
          <>
            <dt>Forked from</dt>
            <dd data-testid="step-detail-origin">
              {origin.sandboxName} ({origin.sandboxId}), step {origin.stepId}
              {sourceLive && (
                <button
                  className="link"
                  title="Show the sandbox this one was forked from"
                  onClick={() => void useApp.getState().selectSandbox(origin.sandboxId)}
                >
                  open
                </button>
              )}
            </dd>
          </>
        )}
        <dt>Status</dt>
        <dd data-testid="step-detail-status">{step.status ?? '—'}</dd>
        <dt>Branch</dt>
        <dd>{branch?.name ?? step.branchId}</dd>
        <dt>Started</dt>
        <dd>
          {new Date(step.startedAt).toLocaleTimeString()} · {formatDuration(step.durationMs)} ·{' '}
          {step.sessionKind}
        </dd>
        <dt>Files</dt>
        <dd data-testid="step-detail-files">
          <span className="added">+{c.added}</span> <span className="modified">~{c.modified}</span>{' '}
          <span className="deleted">−{c.deleted}</span>
        </dd>
      </dl>
      <div className="step-actions">
        <button
          onClick={() =>
            openDiff({ kind: 'step', stepId: step.id, title: `Changes in “${stepLabel(step)}”` })
          }
        >
          Changes in this step
        </button>
        {!replay && head && head !== step.id && (
          <button
            onClick={() =>
              openDiff({
                kind: 'pair',
                from: step.id,
                to: null,
                title: 'From this step to the live sandbox',
              })
            }
          >
            Diff with live
          </button>
        )}
        {!replay && (
          <button
            className="primary"
            disabled={released}
            title="Restore the whole sandbox to this step; later steps stay as a branch (Enter)"
            onClick={() => askRestore(step.id)}
          >
            Continue from here
          </button>
        )}
        <button
          className={replay ? 'primary' : ''}
          disabled={released}
          title="A new sandbox from this step, with the same settings"
          onClick={() => void forkSandbox(step.id)}
        >
          {replay ? 'Continue from here (new sandbox)' : 'Fork into new sandbox'}
        </button>
      </div>
      {released && (
        <p className="hint">This step’s snapshot was released to stay within the memory budget.</p>
      )}
      {other && (
        <div className="step-actions compare-actions">
          <span>
            and <code>{other.command}</code>:
          </span>
          <button
            onClick={() =>
              openDiff({
                kind: 'pair',
                from: step.id,
                to: other.id,
                title: 'Changes between the two selected steps',
              })
            }
          >
            Diff
          </button>
          <button onClick={() => openComparison({ left: step.id, right: other.id })}>
            Compare branches
          </button>
        </div>
      )}
      {step.network.length > 0 && (
        <>
          <h4>Network</h4>
          <ul className="net-records">
            {step.network.map((r, i) => (
              <li key={i} className={r.decision}>
                <span className="decision">{r.decision}</span> {r.method} <code>{r.url}</code>
                {r.status !== null && ` → ${r.status}`}
                <span className="who">
                  {' '}
                  ({r.decidedBy}
                  {r.rule ? `, ${r.rule}` : ''})
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
      {output.text !== null && (
        <>
          <h4>Terminal output</h4>
          <pre className="output" data-testid="step-output">
            {output.text || '(no output)'}
          </pre>
        </>
      )}
      {output.error && <p className="hint">Output unavailable: {output.error}</p>}
      {step.recordingBytes === 0 && step.stdout === undefined && (
        <p className="hint" data-testid="step-no-output">
          No terminal output was recorded for this step.
        </p>
      )}
      {output.text === null && step.stdout !== undefined && (
        <>
          <h4>stdout</h4>
          <pre className="output" data-testid="step-output">
            {step.stdout || '(empty)'}
          </pre>
        </>
      )}
      {step.stderr !== undefined && step.stderr !== '' && (
        <>
          <h4>stderr</h4>
          <pre className="output err">{step.stderr}</pre>
        </>
      )}
    </div>
  );
}
