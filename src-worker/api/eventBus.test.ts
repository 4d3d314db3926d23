import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiEvent } from '../contract/api.js';
import { EventBus, type AskOptions } from './eventBus.js';

function client(bus: EventBus, role: 'person' | 'agent', ...sandboxes: string[]) {
  const events: ApiEvent[] = [];
  const c = bus.connect(role, (e) => events.push(e));
  for (const s of sandboxes) c.subscribe(s);
  const requests = () => events.flatMap((e) => (e.type === 'request' ? [e.request] : []));
  return { c, events, requests };
}

const approval = (over: Partial<AskOptions> = {}): AskOptions => ({
  sandboxId: 'sb1',
  kind: 'approval',
  title: 'Allow example.com?',
  detail: 'curl wants https://example.com/',
  answerers: ['person'],
  ...over,
});

afterEach(() => vi.useRealTimers());

describe('EventBus subscriptions', () => {
  it('sends sandbox events only to subscribers and the list to everyone', () => {
    const bus = new EventBus();
    const a = client(bus, 'person', 'sb1');
    const b = client(bus, 'person', 'sb2');
    bus.publish('sb1', { type: 'restored', sandboxId: 'sb1', stepId: 'st1', restoreStepId: 'st1' });
    bus.broadcast({ type: 'sandboxes', sandboxes: [] });
    expect(a.events.map((e) => e.type)).toEqual(['restored', 'sandboxes']);
    expect(b.events.map((e) => e.type)).toEqual(['sandboxes']);
    a.c.unsubscribe('sb1');
    bus.publish('sb1', { type: 'restored', sandboxId: 'sb1', stepId: 'st2', restoreStepId: 'st2' });
    expect(a.events).toHaveLength(2);
  });

  it('keeps delivering when one client’s transport throws, and not after close', () => {
    const bus = new EventBus();
    bus
      .connect('person', () => {
        throw new Error('socket gone');
      })
      .subscribe('sb1');
    const ok = client(bus, 'person', 'sb1');
    bus.publish('sb1', { type: 'restored', sandboxId: 'sb1', stepId: 'x', restoreStepId: 'x' });
    expect(ok.events).toHaveLength(1);
    ok.c.close();
    bus.publish('sb1', { type: 'restored', sandboxId: 'sb1', stepId: 'y', restoreStepId: 'y' });
    expect(ok.events).toHaveLength(1);
  });
});

describe('EventBus requests', () => {
  it('asks the allowed subscribers and resolves with the first answer', async () => {
    const bus = new EventBus();
    const person = client(bus, 'person', 'sb1');
    const other = client(bus, 'person', 'sb2');
    const agent = client(bus, 'agent', 'sb1');
    const asked = bus.ask(approval());
    const [req] = person.requests();
    expect(req).toMatchObject({ sandboxId: 'sb1', kind: 'approval', expiresAt: null });
    expect(other.requests()).toEqual([]);
    expect(agent.requests()).toEqual([]);
    expect(() => bus.answer(agent.c.id, req!.id, { allow: true })).toThrow(
      expect.objectContaining({ code: 'EPERM' }),
    );
    bus.answer(person.c.id, req!.id, { allow: true });
    await expect(asked).resolves.toEqual({
      outcome: 'answered',
      answer: { allow: true },
      clientId: person.c.id,
    });
    expect(person.events.at(-1)).toMatchObject({ type: 'requestClosed', outcome: 'answered' });
    expect(() => bus.answer(person.c.id, req!.id, { allow: false })).toThrow(
      expect.objectContaining({ code: 'ENOENT' }),
    );
    expect(bus.openRequests).toBe(0);
  });

  it('never lets an agent answer a request its own command raised', async () => {
    const bus = new EventBus();
    const agent = client(bus, 'agent', 'sb1');
    const helper = client(bus, 'agent', 'sb1');
    const asked = bus.ask(approval({ answerers: ['agent'], originClientId: agent.c.id }));
    expect(agent.requests()).toEqual([]);
    const [req] = helper.requests();
    expect(() => bus.answer(agent.c.id, req!.id, { allow: true })).toThrow(
      expect.objectContaining({ code: 'EPERM' }),
    );
    bus.answer(helper.c.id, req!.id, { allow: false });
    await expect(asked).resolves.toMatchObject({ outcome: 'answered', answer: { allow: false } });
    // Alone, the agent gets no question at all.
    helper.c.close();
    await expect(
      bus.ask(approval({ answerers: ['agent'], originClientId: agent.c.id })),
    ).resolves.toEqual({ outcome: 'cancelled', reason: 'no client can answer' });
    expect(agent.requests()).toEqual([]);
  });

  it('is cancelled at once when nobody may answer', async () => {
    const bus = new EventBus();
    client(bus, 'agent', 'sb1');
    await expect(bus.ask(approval())).resolves.toEqual({
      outcome: 'cancelled',
      reason: 'no client can answer',
    });
  });

  it('is cancelled when the requester is gone (its process killed)', async () => {
    const bus = new EventBus();
    const person = client(bus, 'person', 'sb1');
    const killed = new AbortController();
    const asked = bus.ask(approval({ signal: killed.signal }));
    killed.abort();
    await expect(asked).resolves.toMatchObject({ outcome: 'cancelled' });
    expect(person.events.at(-1)).toMatchObject({ type: 'requestClosed', outcome: 'cancelled' });
    const already = new AbortController();
    already.abort();
    await expect(bus.ask(approval({ signal: already.signal }))).resolves.toMatchObject({
      outcome: 'cancelled',
    });
    expect(person.requests()).toHaveLength(1);
  });

  it('is cancelled when its sandbox is destroyed', async () => {
    const bus = new EventBus();
    const person = client(bus, 'person', 'sb1');
    const asked = bus.ask(approval());
    bus.dropSandbox('sb1');
    await expect(asked).resolves.toEqual({
      outcome: 'cancelled',
      reason: 'the sandbox was destroyed',
    });
    expect(person.c.isSubscribed('sb1')).toBe(false);
  });

  it('is cancelled when every client that could answer is gone, not before', async () => {
    const bus = new EventBus();
    const first = client(bus, 'person', 'sb1');
    const second = client(bus, 'person', 'sb1');
    const asked = bus.ask(approval());
    let settled = false;
    void asked.then(() => (settled = true));
    first.c.close();
    await Promise.resolve();
    expect(settled).toBe(false);
    second.c.unsubscribe('sb1');
    await expect(asked).resolves.toEqual({
      outcome: 'cancelled',
      reason: 'every client that could answer is gone',
    });
    expect(first.events.some((e) => e.type === 'requestClosed')).toBe(false);
  });

  it('times out by policy', async () => {
    vi.useFakeTimers({ now: 1000 });
    const bus = new EventBus();
    const person = client(bus, 'person', 'sb1');
    const asked = bus.ask(approval({ timeoutMs: 5000 }));
    expect(person.requests()[0]?.expiresAt).toBe(6000);
    vi.advanceTimersByTime(4999);
    expect(bus.openRequests).toBe(1);
    vi.advanceTimersByTime(1);
    await expect(asked).resolves.toEqual({
      outcome: 'timedOut',
      reason: 'no answer within 5000 ms',
    });
    expect(person.events.at(-1)).toMatchObject({ type: 'requestClosed', outcome: 'timedOut' });
  });

  it('cancels everything open when disposed', async () => {
    const bus = new EventBus();
    client(bus, 'person', 'sb1');
    const asked = bus.ask(approval());
    bus.dispose();
    await expect(asked).resolves.toMatchObject({ outcome: 'cancelled' });
  });
});
