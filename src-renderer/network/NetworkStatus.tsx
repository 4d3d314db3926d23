/** Status bar item: processes of the current sandbox waiting for a network approval. */
import { useApp } from '../store/index.js';
import { useApprovals } from './approvals.js';

export function NetworkStatus() {
  const currentId = useApp((s) => s.currentId);
  const pending = useApprovals((s) => s.pending);
  const waiting = pending.filter((r) => r.sandboxId === currentId);
  const first = waiting[0]?.network;
  if (!first) return null;
  return (
    <span className="approval-waiting" role="status" data-testid="approval-waiting">
      ⏸ {first.argv[0] ?? 'a program'} waiting for approval: {first.method} {first.host}
      {waiting.length > 1 ? ` (+${waiting.length - 1})` : ''}
    </span>
  );
}
