/**
 * The network approval dialog: the oldest pending request of any sandbox,
 * with who asks (sandbox, program and arguments, command, step), what
 * (method, URL, headers with secrets masked by the engine) and why, and
 * five answers. Keyboard-first: Enter allows once, Escape denies, letters
 * pick the others; focus goes back where it was once the queue is empty.
 */
import { useEffect, useRef } from 'react';
import type { EngineRequest } from '../../src-worker/contract/api.js';
import { useApp } from '../store/index.js';
import { CHOICES, choiceForKey, useApprovals } from './approvals.js';

export function ApprovalDialog() {
  const pending = useApprovals((s) => s.pending);
  const first = pending[0];
  const returnFocus = useRef<HTMLElement | null>(null);
  const open = first !== undefined;
  useEffect(() => {
    if (!open) return;
    if (document.activeElement instanceof HTMLElement) returnFocus.current = document.activeElement;
    return () => {
      const el = returnFocus.current;
      returnFocus.current = null;
      if (el?.isConnected) el.focus();
    };
  }, [open]);
  if (!first) return null;
  return <ApprovalCard key={first.id} request={first} queued={pending.length} />;
}

function ApprovalCard({ request, queued }: { request: EngineRequest; queued: number }) {
  const sandboxName = useApp(
    (s) => s.sandboxes.find((b) => b.id === request.sandboxId)?.name ?? request.sandboxId,
  );
  const sending = useApprovals((s) => s.sending.has(request.id));
  const answer = useApprovals((s) => s.answer);
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => first.current?.focus(), []);
  const net = request.network;
  const headers = Object.entries(net?.headers ?? {});
  const onKeyDown = (e: React.KeyboardEvent): void => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    // Enter on a focused button is that button's; elsewhere it allows once.
    if (e.key === 'Enter' && e.target instanceof HTMLButtonElement) return;
    if (e.key === 'Tab') return;
    const choice = choiceForKey(e.key);
    e.stopPropagation();
    if (!choice) return;
    e.preventDefault();
    if (!sending) void answer(request.id, choice.answer);
  };
  return (
    <div className="modal-backdrop approval-backdrop">
      <div
        className="modal approval"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="approval-title"
        aria-describedby="approval-url"
        onKeyDown={onKeyDown}
        data-testid="approval-dialog"
      >
        <h2 id="approval-title">
          Network request from {net?.argv[0] ?? 'a program'}
          {queued > 1 && <span className="approval-queue"> (1 of {queued} waiting)</span>}
        </h2>
        <dl className="approval-facts">
          <dt>Sandbox</dt>
          <dd>{sandboxName}</dd>
          {net && (
            <>
              <dt>Program</dt>
              <dd>
                <code data-testid="approval-argv">{net.argv.join(' ')}</code>
                {net.pid !== null && <span className="muted"> (pid {net.pid})</span>}
              </dd>
              {net.command && (
                <>
                  <dt>Command</dt>
                  <dd>
                    <code>{net.command}</code>
                  </dd>
                </>
              )}
              <dt>Step</dt>
              <dd>{net.stepId ?? 'the command running now'}</dd>
              <dt>Request</dt>
              <dd id="approval-url">
                <strong>{net.method}</strong> <code data-testid="approval-url">{net.url}</code>
                {net.hop > 0 && <span className="muted"> (redirect {net.hop})</span>}
              </dd>
              <dt>Host</dt>
              <dd>
                <code>{net.host}</code>
              </dd>
              {net.reason && (
                <>
                  <dt>Agent’s reason</dt>
                  <dd data-testid="approval-reason">
                    <q>{net.reason}</q>
                  </dd>
                </>
              )}
            </>
          )}
          {!net && (
            <>
              <dt>Request</dt>
              <dd id="approval-url">{request.detail}</dd>
            </>
          )}
        </dl>
        {headers.length > 0 && (
          <details className="approval-headers">
            <summary>Headers ({headers.length})</summary>
            <table>
              <tbody>
                {headers.map(([name, value]) => (
                  <tr key={name}>
                    <th>{name}</th>
                    <td>
                      <code>{value}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        )}
        <div className="modal-actions approval-actions">
          {CHOICES.map((c, i) => (
            <button
              key={c.key}
              ref={i === 0 ? first : undefined}
              className={i === 0 ? 'primary' : c.answer.allow ? '' : 'danger'}
              disabled={sending}
              aria-keyshortcuts={i === 0 ? 'Enter A' : i === 3 ? 'Escape D' : c.key.toUpperCase()}
              onClick={() => void answer(request.id, c.answer)}
            >
              {c.label} <kbd>{i === 0 ? '↵' : i === 3 ? 'Esc' : c.key.toUpperCase()}</kbd>
            </button>
          ))}
        </div>
      </div>
    </div>
  );
}
