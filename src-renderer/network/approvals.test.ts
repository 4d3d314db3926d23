import { beforeEach, describe, expect, it } from 'vitest';
import type { EngineRequest } from '../../src-worker/contract/api.js';
import { choiceForKey, setAnswerSender, useApprovals } from './approvals.js';

const req = (id: string): EngineRequest => ({
  id,
  sandboxId: 'sb1',
  kind: 'approval',
  title: 't',
  detail: 'd',
  raisedAt: 0,
  expiresAt: null,
});

beforeEach(() => useApprovals.setState({ pending: [], sending: new Set() }));

describe('approval queue', () => {
  it('queues in order, ignores repeats, drops closed requests', () => {
    const s = useApprovals.getState();
    s.add(req('r1'));
    s.add(req('r2'));
    s.add(req('r1'));
    expect(useApprovals.getState().pending.map((r) => r.id)).toEqual(['r1', 'r2']);
    s.closed('r1');
    expect(useApprovals.getState().pending.map((r) => r.id)).toEqual(['r2']);
  });

  it('sends the answer and leaves the request when the engine took it', async () => {
    const sent: unknown[] = [];
    setAnswerSender(async (id, a) => sent.push([id, a]));
    useApprovals.getState().add(req('r1'));
    await useApprovals.getState().answer('r1', { allow: true, remember: 'session' });
    expect(sent).toEqual([['r1', { allow: true, remember: 'session' }]]);
    expect(useApprovals.getState().pending).toEqual([]);
  });

  it('keeps the request when sending failed', async () => {
    setAnswerSender(() => Promise.reject(new Error('gone')));
    useApprovals.getState().add(req('r1'));
    await useApprovals.getState().answer('r1', { allow: false });
    expect(useApprovals.getState().pending).toHaveLength(1);
    expect(useApprovals.getState().sending.size).toBe(0);
  });

  it('maps keys to answers', () => {
    expect(choiceForKey('Enter')?.answer).toEqual({ allow: true, remember: 'once' });
    expect(choiceForKey('Escape')?.answer).toEqual({ allow: false, remember: 'once' });
    expect(choiceForKey('W')?.answer).toEqual({ allow: true, remember: 'always' });
    expect(choiceForKey('n')?.answer).toEqual({ allow: false, remember: 'always' });
    expect(choiceForKey('x')).toBeUndefined();
  });
});
