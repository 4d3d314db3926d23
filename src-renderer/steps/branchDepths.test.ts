import { describe, expect, it } from 'vitest';
import type { Step } from '../../src-worker/contract/api.js';
import { branchDepths } from './StepsPanel.js';

const step = (id: string, parentId: string | null): Step => ({
  id,
  parentId,
  sandboxId: 's',
  sessionId: 't',
  sessionKind: 'api',
  command: id,
  status: 0,
  startedAt: 0,
  durationMs: 0,
  snapshotId: id,
  branchId: 'b',
  kind: 'command',
  snapshotReleased: false,
  changes: { added: 0, modified: 0, deleted: 0, paths: [], truncated: false },
  network: [],
  recordingBytes: 0,
});

describe('branchDepths', () => {
  it('indents a branch started after a restore', () => {
    const d = branchDepths([
      step('a', null),
      step('b', 'a'),
      step('c', 'b'),
      step('d', 'a'),
      step('e', 'd'),
    ]);
    expect([...d.entries()]).toEqual([
      ['a', 0],
      ['b', 0],
      ['c', 0],
      ['d', 1],
      ['e', 1],
    ]);
  });
});
