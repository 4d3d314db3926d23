/** Short texts the timeline shows for a step: duration, status, changes, network. */
import type { Step } from '../../src-worker/contract/api.js';

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** What a step's row says: its command, or for a fork's root where it came from. */
export function stepLabel(step: Step): string {
  const o = step.origin;
  return step.kind === 'fork' && o ? `forked from ${o.sandboxName}/${o.stepId}` : step.command;
}

export function statusClass(step: Step): 'ok' | 'fail' | 'none' {
  return step.status === null ? 'none' : step.status === 0 ? 'ok' : 'fail';
}

export function filesChanged(step: Step): number {
  const c = step.changes;
  return c.added + c.modified + c.deleted;
}

/** Requests a step raised, those denied, and those a person decided. */
export function networkCounts(step: Step): { requests: number; denied: number; approvals: number } {
  let denied = 0;
  let approvals = 0;
  for (const r of step.network) {
    if (r.decision === 'deny') denied++;
    if (r.decidedBy !== 'policy') approvals++;
  }
  return { requests: step.network.length, denied, approvals };
}

/** Terminal text without escape sequences, for showing a recording as plain text. */
export function plainText(data: string): string {
  return (
    data
      // CSI, OSC (BEL or ST ended) and two-byte escapes.
      // eslint-disable-next-line no-control-regex -- matching terminal control bytes is the point.
      .replace(/\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g, '')
      .replace(/\r\n/g, '\n')
      // eslint-disable-next-line no-control-regex -- the remaining control bytes but newline and tab.
      .replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '')
  );
}
