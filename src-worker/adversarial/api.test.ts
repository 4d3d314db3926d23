/**
 * API message abuse through `dispatch`, as every transport hands raw
 * messages to the engine: malformed, mistyped, oversized and unknown
 * requests, wrong sandbox and step ids, huge pages, answers from the wrong
 * role. Each gets an error reply with a code (never an exception), and the
 * reply always encodes.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ServerMessage } from '../contract/api.js';
import { dispatch, encodeMessage } from '../api/dispatch.js';
import { defaultProgramsDir } from '../sandbox/sandbox.js';
import { useArena, type Arena } from './arena.js';

const built = existsSync(join(defaultProgramsDir(), 'shell.wasm'));

const req = (method: unknown, params: unknown, id: unknown = 1) => ({
  type: 'request',
  id,
  method,
  params,
});

/**
 * A raw message, built with the arena's ids, the error code its reply must
 * carry, and who sends it (default: an agent).
 */
type Abuse = readonly [raw: (a: Arena) => unknown, code: string, role?: 'person' | 'agent'];

const cyclic: Record<string, unknown> = {};
cyclic.self = cyclic;

const MESSAGES: Record<string, Abuse> = {
  'null message': [() => null, 'EBADMSG'],
  'a string, not an object': [() => 'listSandboxes', 'EBADMSG'],
  'an array of requests': [() => [req('hello', { apiVersion: 1 })], 'EBADMSG'],
  'no type': [() => ({ id: 1, method: 'hello', params: {} }), 'EBADMSG'],
  'type response from a client': [() => ({ type: 'response', id: 1, ok: true }), 'EBADMSG'],
  'id as a string': [() => req('hello', { apiVersion: 1 }, '1'), 'EBADMSG'],
  'id beyond safe integers': [() => req('hello', { apiVersion: 1 }, 2 ** 60), 'EBADMSG'],
  'id NaN': [() => req('hello', { apiVersion: 1 }, Number.NaN), 'EBADMSG'],
  'unknown method': [() => req('rm -rf /', {}), 'ENOSYS'],
  'method from Object.prototype': [() => req('constructor', {}), 'ENOSYS'],
  'method __proto__': [() => req('__proto__', {}), 'ENOSYS'],
  'method toString': [() => req('toString', {}), 'ENOSYS'],
  'method as a number': [() => req(42, {}), 'EBADMSG'],
  'params missing': [() => ({ type: 'request', id: 1, method: 'listSandboxes' }), 'EBADMSG'],
  'params as an array': [() => req('readFile', ['x']), 'EINVAL'],
  'extra param smuggled in': [
    (a) => req('readFile', { sandboxId: a.target.id, path: '/etc/hostname', host: true }),
    'EINVAL',
  ],
  '__proto__ in params': [
    (a) => req('stats', JSON.parse(`{"sandboxId":"${a.target.id}","__proto__":{"admin":true}}`)),
    'EINVAL',
  ],
  'sandboxId as an object': [() => req('stats', { sandboxId: { $ne: null } }), 'EINVAL'],
  'unknown sandbox id': [() => req('stats', { sandboxId: 'sb999999' }), 'ENOENT'],
  'sandbox id of another kind (a step id)': [() => req('stats', { sandboxId: 'st1' }), 'ENOENT'],
  'empty sandbox id': [() => req('readDir', { sandboxId: '', path: '/' }), 'ENOENT'],
  'relative path': [(a) => req('readDir', { sandboxId: a.target.id, path: 'etc' }), 'EINVAL'],
  'path as a number': [(a) => req('stat', { sandboxId: a.target.id, path: 7 }), 'EINVAL'],
  'writeFile with invalid base64': [
    (a) => req('writeFile', { sandboxId: a.target.id, path: '/tmp/x', base64: '!!!***' }),
    'EINVAL',
  ],
  'writeFile with mode 0o17777': [
    (a) => req('writeFile', { sandboxId: a.target.id, path: '/tmp/x', base64: '', mode: 0o17777 }),
    'EINVAL',
  ],
  'writeFile over the file limit': [
    (a) =>
      req('writeFile', {
        sandboxId: a.target.id,
        path: '/tmp/huge',
        base64: Buffer.alloc(3 * 1024 * 1024).toString('base64'),
      }),
    'EFBIG',
  ],
  'run with a negative time limit': [
    (a) => req('run', { sandboxId: a.target.id, command: 'true', timeoutMs: -1 }),
    'EINVAL',
  ],
  'run with an Infinity time limit': [
    (a) => req('run', { sandboxId: a.target.id, command: 'true', timeoutMs: Infinity }),
    'EINVAL',
  ],
  'run with an invalid env name': [
    (a) => req('run', { sandboxId: a.target.id, command: 'true', env: { 'A=B;rm': 'x' } }),
    'EINVAL',
  ],
  'listSteps with a negative offset': [
    (a) => req('listSteps', { sandboxId: a.target.id, offset: -5 }),
    'EINVAL',
  ],
  'listSteps with a limit of 1e12': [
    (a) => req('listSteps', { sandboxId: a.target.id, limit: 1e12 }),
    'OK',
  ],
  'listSteps with a fractional limit': [
    (a) => req('listSteps', { sandboxId: a.target.id, limit: 1.5 }),
    'EINVAL',
  ],
  'getStep of an unknown step': [
    (a) => req('getStep', { sandboxId: a.target.id, stepId: 'st999999' }),
    'ENOENT',
  ],
  'getStep of the other sandbox’s step': [
    (a) => req('getStep', { sandboxId: a.target.id, stepId: 'bystander-step' }),
    'ENOENT',
  ],
  'restoreStep of an unknown step': [
    (a) => req('restoreStep', { sandboxId: a.target.id, stepId: '../../st1' }),
    'ENOENT',
  ],
  'forkSandbox of an unknown step': [
    (a) => req('forkSandbox', { sandboxId: a.target.id, stepId: 'nope' }),
    'ENOENT',
  ],
  'diffSteps with a huge limit': [
    (a) => req('diffSteps', { sandboxId: a.target.id, from: 'nope', limit: 1e15 }),
    'ENOENT',
  ],
  'readFile of a snapshot that does not exist': [
    (a) => req('readFile', { sandboxId: a.target.id, path: '/etc/hostname', snapshotId: 'x' }),
    'ENOENT',
  ],
  'hello with a wrong API version': [() => req('hello', { apiVersion: 999 }), 'EVERSION'],
  'hello with a 1 MB client name': [
    () => req('hello', { apiVersion: 1, client: { name: 'n'.repeat(1 << 20) } }),
    'EINVAL',
  ],
  'createSandbox with a negative limit': [
    () =>
      req('createSandbox', {
        name: 'x',
        settings: {
          limits: {
            totalBytes: -1,
            fileBytes: 0,
            nodeCount: 0,
            processCount: 0,
            outputBytes: 0,
          },
          env: {},
          timeoutMs: 0,
        },
      }),
    'EINVAL',
  ],
  'updateSettings with a bad host entry': [
    (a) =>
      req('updateSettings', {
        sandboxId: a.target.id,
        settings: {
          limits: {
            totalBytes: 0,
            fileBytes: 0,
            nodeCount: 0,
            processCount: 0,
            outputBytes: 0,
          },
          env: {},
          timeoutMs: 0,
          network: { allowedHosts: ['http://[::1'], blockedHosts: [] },
        },
      }),
    'EINVAL',
    'person',
  ],
  'answer to a request that does not exist': [
    () => req('answer', { requestId: 'rq404', answer: { allow: true } }),
    'ENOENT',
  ],
  'loadTimeline with garbage bytes': [
    () => req('loadTimeline', { name: 'x', base64: Buffer.from('not a zip').toString('base64') }),
    'EBADTIMELINE',
  ],
  'pauseClient of an unknown client': [
    () => req('pauseClient', { clientId: 'cl999' }),
    'ENOENT',
    'person',
  ],
  'a cyclic params object': [() => req('stats', cyclic), 'EINVAL'],
};

describe.skipIf(!built)('API message abuse', () => {
  const arena = useArena({
    settings: {
      limits: {
        totalBytes: 16 << 20,
        fileBytes: 2 << 20,
        nodeCount: 0,
        processCount: 0,
        outputBytes: 0,
      },
      env: {},
      timeoutMs: 10_000,
    },
  });

  async function send(
    a: Arena,
    raw: unknown,
    role: 'person' | 'agent' = 'agent',
  ): Promise<ServerMessage> {
    const client = a.engine.connect(role, () => undefined);
    try {
      const reply = await dispatch(a.engine, client, raw);
      // Whatever came back can be sent.
      expect(() => JSON.parse(encodeMessage(reply)) as unknown).not.toThrow();
      return reply;
    } finally {
      client.close();
    }
  }

  it.each(Object.entries(MESSAGES))('%s', async (_name, [raw, code, role]) => {
    const a = arena();
    const reply = await send(a, raw(a), role);
    expect(reply.type).toBe('response');
    if (reply.type !== 'response') return;
    if (code === 'OK') expect(reply.ok).toBe(true);
    else expect(reply).toMatchObject({ ok: false, error: { code } });
    if (!reply.ok) expect(reply.error.message.length).toBeGreaterThan(0);
  });

  it('run with a cwd that does not exist fails clearly', async () => {
    const a = arena();
    const r = await a.call('run', { sandboxId: a.target.id, command: 'pwd', cwd: '/no/such/dir' });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('No such file or directory');
  });

  it('listSteps never returns a page larger than its cap, however many steps', async () => {
    const a = arena();
    for (let i = 0; i < 5; i++) await a.run('head -c 900000 /dev/zero | tr "\\0" x');
    const page = await a.call('listSteps', { sandboxId: a.target.id, limit: 1e9 });
    const chars = JSON.stringify(page).length;
    // Step output is a bounded preview, not the whole 900 kB of each step.
    expect(chars).toBeLessThan(2 * 1024 * 1024);
  });

  it('an agent cannot answer an approval meant for people', async () => {
    const a = arena();
    const asked: string[] = [];
    const person = a.engine.connect('person', (e) => {
      if (e.type === 'request') asked.push(e.request.id);
    });
    person.subscribe(a.target.id);
    const agent = a.engine.connect('agent', () => undefined);
    agent.subscribe(a.target.id);
    const stop = new AbortController();
    const result = a.engine.bus.ask({
      sandboxId: a.target.id,
      kind: 'approval',
      title: 'Allow?',
      detail: '',
      answerers: ['person'],
      signal: stop.signal,
    });
    try {
      const requestId = asked[0];
      if (requestId === undefined) throw new Error('no request was raised');
      const reply = await dispatch(
        a.engine,
        agent,
        req('answer', { requestId, answer: { allow: true } }),
      );
      expect(reply).toMatchObject({ ok: false, error: { code: expect.stringMatching(/^E/) } });
    } finally {
      stop.abort();
      agent.close();
      person.close();
    }
    await expect(result).resolves.toMatchObject({ outcome: 'cancelled' });
  });

  it('an agent cannot pause, resume or disconnect people', async () => {
    const a = arena();
    const agent = a.engine.connect('agent', () => undefined);
    try {
      for (const method of ['pauseClient', 'resumeClient', 'disconnectClient'])
        expect(
          await dispatch(a.engine, agent, req(method, { clientId: a.person.id })),
        ).toMatchObject({ ok: false, error: { code: 'EPERM' } });
    } finally {
      agent.close();
    }
  });

  it('an agent cannot open the network of a sandbox it runs in', async () => {
    const a = arena();
    const agent = a.engine.connect('agent', () => undefined);
    try {
      const current = (await a.call('listSandboxes', {})).find((s) => s.id === a.target.id);
      if (!current) throw new Error('no target');
      const reply = await dispatch(
        a.engine,
        agent,
        req('updateSettings', {
          sandboxId: a.target.id,
          settings: { ...current.settings, network: { allowedHosts: ['*'], blockedHosts: [] } },
        }),
      );
      expect(reply).toMatchObject({ ok: false, error: { code: 'EPERM' } });
    } finally {
      agent.close();
    }
  });

  it('1,000 concurrent bad requests, then a good one', async () => {
    const a = arena();
    const replies = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => send(a, req('stats', { sandboxId: `sb${i}x` }, i))),
    );
    expect(replies.every((r) => r.type === 'response' && !r.ok)).toBe(true);
    expect(await send(a, req('listSandboxes', {}))).toMatchObject({ ok: true });
  });

  it('destroying a sandbox while a command runs in it', async () => {
    const a = arena();
    const victim = await a.call('createSandbox', { name: 'victim' });
    const running = a.engine.call('run', { sandboxId: victim.id, command: 'sleep 30' });
    await new Promise((r) => setTimeout(r, 300));
    await a.call('destroySandbox', { sandboxId: victim.id });
    // Either the run ends with a status or it fails with a code: never hangs.
    const ended = await running.then(
      (r) => ({ status: r.status }),
      (err: unknown) => ({ code: (err as { code?: string }).code }),
    );
    expect(ended).toEqual(
      'status' in ended ? { status: expect.any(Number) } : { code: 'ESHUTDOWN' },
    );
    await expect(a.call('stats', { sandboxId: victim.id })).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });

  it('closing a client in the middle of its run kills nothing of another client', async () => {
    const a = arena();
    const agent = a.engine.connect('agent', () => undefined);
    const pending = dispatch(
      a.engine,
      agent,
      req('run', { sandboxId: a.target.id, command: 'sleep 0.5; echo done' }),
    );
    agent.close();
    const reply = await pending;
    expect(reply.type).toBe('response');
  });
});
