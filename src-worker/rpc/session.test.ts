import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandglassEngine } from '../api/engine.js';
import { METHODS } from '../contract/methods.js';
import { RPC_ERRORS } from './protocol.js';
import { openRpcSession, type RpcSession } from './session.js';

type Json = Record<string, unknown>;

let engine: SandglassEngine;

beforeAll(() => {
  engine = new SandglassEngine();
});

afterAll(async () => {
  await engine.dispose();
});

/** A session whose sent messages are collected, split into replies and notifications. */
function open(): {
  session: RpcSession;
  sent: unknown[];
  replies: () => unknown[];
  events: () => Json[];
} {
  const sent: unknown[] = [];
  const session = openRpcSession(engine, (text) => sent.push(JSON.parse(text)), {
    name: 'test',
    transport: 'test',
  });
  const isEvent = (m: unknown): boolean => (m as Json).method === 'event';
  return {
    session,
    sent,
    replies: () => sent.filter((m) => !isEvent(m)),
    events: () => sent.filter(isEvent).map((m) => (m as { params: Json }).params),
  };
}

async function one(session: RpcSession, sent: unknown[], message: unknown): Promise<Json> {
  const before = sent.length;
  await session.receive(typeof message === 'string' ? message : JSON.stringify(message));
  const replies = sent.slice(before).filter((m) => (m as Json).method !== 'event');
  expect(replies).toHaveLength(1);
  return replies[0] as Json;
}

const req = (id: unknown, method: string, params?: unknown): Json => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params !== undefined ? { params } : {}),
});

describe('JSON-RPC 2.0 conformance', () => {
  it('answers a call with its id and result', async () => {
    const { session, sent } = open();
    const reply = await one(session, sent, req(1, 'hello', { apiVersion: 2 }));
    expect(reply).toMatchObject({ jsonrpc: '2.0', id: 1, result: { apiVersion: 2 } });
    expect(Object.keys(reply).sort()).toEqual(['id', 'jsonrpc', 'result']);
    session.close();
  });

  it('keeps string and null ids as given', async () => {
    const { session, sent } = open();
    expect(await one(session, sent, req('a-1', 'listSandboxes'))).toMatchObject({ id: 'a-1' });
    expect(await one(session, sent, req(null, 'listSandboxes'))).toMatchObject({ id: null });
    session.close();
  });

  it('replies -32700 with a null id to text that is not JSON', async () => {
    const { session, sent } = open();
    const reply = await one(session, sent, '{"jsonrpc": "2.0", "method"');
    expect(reply).toMatchObject({ id: null, error: { code: RPC_ERRORS.parseError } });
    session.close();
  });

  it.each([
    ['a number', 5, null],
    ['no jsonrpc member', { id: 3, method: 'hello' }, 3],
    ['jsonrpc 1.0', { jsonrpc: '1.0', id: 3, method: 'hello' }, 3],
    ['a numeric method', { jsonrpc: '2.0', id: 3, method: 1 }, 3],
    ['string params', { jsonrpc: '2.0', id: 3, method: 'hello', params: 'x' }, 3],
    ['an object id', { jsonrpc: '2.0', id: {}, method: 'hello' }, null],
  ])('replies -32600 to a request with %s', async (_what, message, id) => {
    const { session, sent } = open();
    const reply = await one(session, sent, message);
    expect(reply).toMatchObject({ id, error: { code: RPC_ERRORS.invalidRequest } });
    session.close();
  });

  it('replies -32601 to an unknown method, with the engine code in data', async () => {
    const { session, sent } = open();
    const reply = await one(session, sent, req(2, 'noSuchMethod', {}));
    expect(reply).toMatchObject({
      id: 2,
      error: { code: RPC_ERRORS.methodNotFound, data: { code: 'ENOSYS' } },
    });
    session.close();
  });

  it('replies -32602 to params that do not match the schema', async () => {
    const { session, sent } = open();
    const missing = await one(session, sent, req(1, 'createSandbox', {}));
    expect(missing).toMatchObject({
      error: { code: RPC_ERRORS.invalidParams, data: { code: 'EINVAL' } },
    });
    expect((missing.error as Json).message).toMatch(/missing parameter "name"/);
    const wrongType = await one(session, sent, req(2, 'createSandbox', { name: 3 }));
    expect((wrongType.error as Json).message).toMatch(/name must be a string/);
    const positional = await one(session, sent, req(3, 'createSandbox', ['x']));
    expect(positional).toMatchObject({ error: { code: RPC_ERRORS.invalidParams } });
    const unknown = await one(session, sent, req(4, 'listSandboxes', { extra: 1 }));
    expect((unknown.error as Json).message).toMatch(/unknown parameter "extra"/);
    session.close();
  });

  it('maps engine errors to -32000 with {code, message} in data', async () => {
    const { session, sent } = open();
    const reply = await one(session, sent, req(1, 'stats', { sandboxId: 'nope' }));
    expect(reply).toMatchObject({
      error: {
        code: RPC_ERRORS.engineError,
        data: { code: 'ENOENT', message: 'no sandbox "nope"' },
      },
    });
    const version = await one(session, sent, req(2, 'hello', { apiVersion: 99 }));
    expect(version).toMatchObject({ error: { code: -32000, data: { code: 'EVERSION' } } });
    session.close();
  });

  it('runs a notification without replying', async () => {
    const { session, replies } = open();
    await session.receive(
      JSON.stringify({ jsonrpc: '2.0', method: 'createSandbox', params: { name: 'quiet' } }),
    );
    expect(replies()).toEqual([]);
    const made = (await engine.call('listSandboxes', {})).find((s) => s.name === 'quiet');
    expect(made).toBeDefined();
    await engine.call('destroySandbox', { sandboxId: made!.id });
    // Even a failing notification stays silent.
    await session.receive(JSON.stringify({ jsonrpc: '2.0', method: 'nope' }));
    expect(replies()).toEqual([]);
    session.close();
  });

  it('answers a batch with one array, leaving out notifications', async () => {
    const { session, replies } = open();
    await session.receive(
      JSON.stringify([
        req(1, 'hello', { apiVersion: 2 }),
        { jsonrpc: '2.0', method: 'listSandboxes' },
        req(2, 'nope'),
        7,
        req(3, 'stats', {}),
      ]),
    );
    const [batch] = replies() as Json[][];
    expect(replies()).toHaveLength(1);
    expect(batch).toHaveLength(4);
    expect(batch!.map((r) => [r.id, (r.error as Json | undefined)?.code ?? 'ok'])).toEqual([
      [1, 'ok'],
      [2, RPC_ERRORS.methodNotFound],
      [null, RPC_ERRORS.invalidRequest],
      [3, RPC_ERRORS.invalidParams],
    ]);
    session.close();
  });

  it('sends nothing for a batch of notifications, and -32600 for an empty batch', async () => {
    const { session, sent } = open();
    await session.receive(JSON.stringify([{ jsonrpc: '2.0', method: 'listSandboxes' }]));
    expect(sent).toEqual([]);
    const reply = await one(session, sent, '[]');
    expect(reply).toMatchObject({ id: null, error: { code: RPC_ERRORS.invalidRequest } });
    session.close();
  });

  it('publishes every method and event in rpc.discover', async () => {
    const { session, sent } = open();
    const reply = await one(session, sent, req(1, 'rpc.discover'));
    const result = reply.result as { methods: Record<string, Json>; events: Json };
    for (const name of Object.keys(METHODS)) {
      expect(result.methods[name]).toMatchObject({ params: { type: 'object' } });
    }
    expect(JSON.stringify(result.events)).toContain('"clients"');
    session.close();
  });

  it('runs commands in the sandbox it created and notifies its events', async () => {
    const { session, sent, events } = open();
    const made = await one(session, sent, req(1, 'createSandbox', { name: 'rpc' }));
    const sandboxId = (made.result as { id: string }).id;
    const run = await one(
      session,
      sent,
      req(2, 'run', {
        sandboxId,
        command: 'echo "$GREETING" world; cd /tmp',
        env: { GREETING: 'hi' },
      }),
    );
    expect(run.result).toMatchObject({ stdout: 'hi world\n', status: 0 });
    const pwd = await one(session, sent, req(3, 'run', { sandboxId, command: 'pwd' }));
    expect(pwd.result).toMatchObject({ stdout: '/tmp\n' });
    await one(session, sent, req(4, 'destroySandbox', { sandboxId }));
    expect(events().some((e) => e.type === 'step')).toBe(true);
    session.close();
  });

  it('refuses a message over the size bound as an invalid request', async () => {
    const { session, sent } = open();
    session.refuse('message is larger than 10 characters');
    expect(sent[0]).toMatchObject({ id: null, error: { code: RPC_ERRORS.invalidRequest } });
    session.close();
  });

  it('maps the seed’s snapshot.create, snapshot.restore and sandbox.fork onto the timeline', async () => {
    const { session, sent } = open();
    const made = await one(session, sent, req(1, 'createSandbox', { name: 'seed' }));
    const sandboxId = (made.result as { id: string }).id;
    const write = (id: number, text: string) =>
      one(session, sent, req(id, 'run', { sandboxId, command: `echo ${text} > /tmp/f` }));
    await write(2, 'one');
    const snap = await one(session, sent, req(3, 'snapshot.create', { sandboxId }));
    const snapshotId = (snap.result as { id: string }).id;
    expect(snapshotId).toMatch(/\S/);
    await write(4, 'two');
    const forked = await one(session, sent, req(5, 'sandbox.fork', { sandboxId }));
    const forkId = (forked.result as { sandboxId: string }).sandboxId;
    expect(forkId).not.toBe(sandboxId);
    const restored = await one(
      session,
      sent,
      req(6, 'snapshot.restore', { sandboxId, id: snapshotId }),
    );
    expect(restored.result).toEqual({ ok: true });
    const cat = (id: number, sb: string) =>
      one(session, sent, req(id, 'run', { sandboxId: sb, command: 'cat /tmp/f' }));
    expect((await cat(7, sandboxId)).result).toMatchObject({ stdout: 'one\n' });
    expect((await cat(8, forkId)).result).toMatchObject({ stdout: 'two\n' });
    const bad = await one(session, sent, req(9, 'snapshot.restore', { sandboxId }));
    expect(bad).toMatchObject({ error: { code: RPC_ERRORS.invalidParams } });
    const unknown = await one(
      session,
      sent,
      req(10, 'snapshot.restore', { sandboxId, id: 'st999' }),
    );
    expect(unknown).toMatchObject({
      error: { code: RPC_ERRORS.engineError, data: { code: 'ENOENT' } },
    });
    // A sandbox with no step yet still has a state to name.
    const empty = await one(session, sent, req(11, 'createSandbox', { name: 'empty' }));
    const emptyId = (empty.result as { id: string }).id;
    expect(
      (await one(session, sent, req(12, 'snapshot.create', { sandboxId: emptyId }))).result,
    ).toMatchObject({ id: expect.any(String) });
    for (const id of [sandboxId, forkId, emptyId])
      await one(session, sent, req(13, 'destroySandbox', { sandboxId: id }));
    const discovered = await one(session, sent, req(14, 'rpc.discover'));
    expect(Object.keys((discovered.result as { methods: object }).methods)).toEqual(
      expect.arrayContaining([
        'snapshot.create',
        'snapshot.restore',
        'sandbox.fork',
        'forkSandbox',
      ]),
    );
    session.close();
  });
});
