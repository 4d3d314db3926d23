/**
 * The engine's network: settings → policy, approvals put to people over the
 * bus (never agents), remembered answers, the audit per step. A wasm
 * program (fixture-fetch) makes the requests to a loopback server; the URL
 * names `localhost` (not listed, so it is asked about) and the policy lists
 * 127.0.0.1 as an address entry (so the approved name may resolve to it).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ApiEvent, EngineRequest } from '../contract/api.js';
import { fixtureProgramsDir } from '../sandbox/testPrograms.js';
import { defaultProgramsDir } from '../sandbox/sandbox.js';
import { startLoopbackServer, type LoopbackServer } from '../net/testing/loopbackServer.js';
import { DEFAULT_SETTINGS, SandglassEngine } from './engine.js';
import { hostEntryOf, maskHeaders } from './network.js';

let server: LoopbackServer;
let engine: SandglassEngine;
const dec = new TextDecoder();

beforeAll(async () => {
  server = await startLoopbackServer();
});
afterAll(async () => server.close());
afterEach(async () => engine.dispose());

async function setup(allowed: string[] = ['127.0.0.1'], programsDir = fixtureProgramsDir()) {
  engine = new SandglassEngine({ programsDir });
  const sb = await engine.call('createSandbox', {
    name: 'n',
    settings: { ...DEFAULT_SETTINGS, network: { allowedHosts: allowed, blockedHosts: [] } },
  });
  return sb;
}

function person(sandboxId: string, answer?: (r: EngineRequest) => unknown) {
  const events: ApiEvent[] = [];
  const client = engine.connect('person', (e) => {
    events.push(e);
    if (e.type === 'request' && answer) {
      const a = answer(e.request);
      if (a) void engine.call('answer', { requestId: e.request.id, answer: a as never }, client);
    }
  });
  client.subscribe(sandboxId);
  return { client, events };
}

async function fetch(sandboxId: string, args: string[]) {
  let out = '';
  let err = '';
  const p = await engine.spawn(sandboxId, '/usr/bin/fixture-fetch', ['fixture-fetch', ...args], {
    stdout: (d) => (out += dec.decode(d)),
    stderr: (d) => (err += dec.decode(d)),
  });
  const r = await p.wait();
  return { ...r, out, err };
}

describe('network approvals through the engine', () => {
  it('asks a person with the request details, secrets masked', async () => {
    const sb = await setup();
    const url = `http://localhost:${server.port}/hello`;
    const { events } = person(sb.id, () => ({ allow: true }));
    const r = await fetch(sb.id, ['-H', 'Authorization: Bearer abc123', '-H', 'X-Plain: 1', url]);
    expect(r.err).toBe('');
    expect(r.out).toBe('hello\n');
    const asked = events.find((e) => e.type === 'request');
    expect(asked?.type === 'request' && asked.request.network).toMatchObject({
      url,
      method: 'GET',
      host: `localhost:${server.port}`,
      argv: [
        'fixture-fetch',
        '-H',
        'Authorization: Bearer •••••• (13 chars, hidden)',
        '-H',
        'X-Plain: 1',
        url,
      ],
      hop: 0,
    });
    const headers = asked?.type === 'request' ? asked.request.network?.headers : undefined;
    expect(headers?.['authorization']).toBe('Bearer •••••• (13 chars, hidden)');
    expect(headers?.['x-plain']).toBe('1');
    // Neither the question nor the audit shows the secret.
    const shown = events.filter((e) => e.type === 'request' || e.type === 'network');
    expect(shown.length).toBeGreaterThan(1);
    expect(JSON.stringify(shown)).not.toContain('abc123');
  });

  it("shows the agent's reason: run's networkReason, or SANDGLASS_NET_REASON by hand", async () => {
    // The shipped programs: a shell session and curl.
    const sb = await setup(['127.0.0.1'], defaultProgramsDir());
    const reasons: (string | null | undefined)[] = [];
    person(sb.id, (r) => {
      reasons.push(r.network?.reason);
      return { allow: true };
    });
    const agent = engine.connect('agent', () => undefined);
    const url = `http://localhost:${server.port}/hello`;
    const run = (command: string, networkReason?: string) =>
      engine.call(
        'run',
        { sandboxId: sb.id, command, ...(networkReason ? { networkReason } : {}) },
        agent,
      );
    expect((await run(`curl -sS ${url}`, 'read the\nAPI docs')).stdout).toBe('hello\n');
    expect((await run(`SANDGLASS_NET_REASON='check the mirror' curl -sS ${url}`)).stdout).toBe(
      'hello\n',
    );
    expect((await run(`curl -sS ${url}`)).stdout).toBe('hello\n');
    // The variable was for that command only.
    expect(reasons).toEqual(['read the API docs', 'check the mirror', null]);
  });

  it('a denial reaches the program with its exit status', async () => {
    const sb = await setup();
    person(sb.id, () => ({ allow: false }));
    const r = await fetch(sb.id, [`http://localhost:${server.port}/hello`]);
    expect(r.status).toBe(7);
    expect(r.err).toBe(
      `fixture-fetch: network policy denied localhost:${server.port}: denied by person\n`,
    );
  });

  it('without a person connected, an unlisted request is denied with a clear message', async () => {
    const sb = await setup();
    // An agent is never asked.
    const agent = engine.connect('agent', () => undefined);
    agent.subscribe(sb.id);
    const r = await fetch(sb.id, [`http://localhost:${server.port}/hello`]);
    expect(r.status).toBe(7);
    expect(r.err).toContain(
      'no allowedHosts entry matches and no person is connected to approve it',
    );
  });

  it('"always" saves the host in the settings; later requests are not asked', async () => {
    const sb = await setup();
    let asked = 0;
    person(sb.id, () => {
      asked++;
      return { allow: true, remember: 'always' };
    });
    const url = `http://localhost:${server.port}/hello`;
    expect((await fetch(sb.id, [url])).out).toBe('hello\n');
    const [info] = await engine.call('listSandboxes', {});
    expect(info?.settings.network?.allowedHosts).toEqual(['127.0.0.1', `localhost:${server.port}`]);
    expect((await fetch(sb.id, [url])).out).toBe('hello\n');
    expect(asked).toBe(1);
  });

  it('"session" allows the host until the engine stops, without saving it', async () => {
    const sb = await setup();
    let asked = 0;
    person(sb.id, () => {
      asked++;
      return { allow: true, remember: 'session' };
    });
    const url = `http://localhost:${server.port}/hello`;
    await fetch(sb.id, [url]);
    await fetch(sb.id, [url]);
    expect(asked).toBe(1);
    const [info] = await engine.call('listSandboxes', {});
    expect(info?.settings.network?.allowedHosts).toEqual(['127.0.0.1']);
  });

  it('"always deny" blocks the host from then on', async () => {
    const sb = await setup();
    person(sb.id, () => ({ allow: false, remember: 'always' }));
    const url = `http://localhost:${server.port}/hello`;
    await fetch(sb.id, [url]);
    const [info] = await engine.call('listSandboxes', {});
    expect(info?.settings.network?.blockedHosts).toEqual([`localhost:${server.port}`]);
    const again = await fetch(sb.id, [url]);
    expect(again.err).toContain(`blockedHosts entry "localhost:${server.port}"`);
  });

  it('audits every request on its step, exportable', async () => {
    const sb = await setup([`127.0.0.1:${server.port}`]);
    const { events } = person(sb.id);
    const r = await fetch(sb.id, [`http://127.0.0.1:${server.port}/hello`]);
    const denied = await fetch(sb.id, ['http://10.1.2.3/']);
    const all = await engine.call('networkAudit', { sandboxId: sb.id });
    expect(all).toHaveLength(2);
    expect(all[0]).toMatchObject({
      stepId: r.stepId,
      decision: 'allow',
      decidedBy: 'policy',
      status: 200,
      bytesReceived: 6,
      method: 'GET',
      argv: ['fixture-fetch', `http://127.0.0.1:${server.port}/hello`],
    });
    expect(all[1]).toMatchObject({ stepId: denied.stepId, decision: 'deny', status: null });
    expect(await engine.call('networkAudit', { sandboxId: sb.id, stepId: denied.stepId })).toEqual([
      all[1],
    ]);
    expect(events.filter((e) => e.type === 'network')).toHaveLength(2);
  });

  it('refuses a settings change with a bad entry, naming it', async () => {
    const sb = await setup();
    await expect(
      engine.call('updateSettings', {
        sandboxId: sb.id,
        settings: {
          ...DEFAULT_SETTINGS,
          network: { allowedHosts: ['foo.*.com'], blockedHosts: [] },
        },
      }),
    ).rejects.toMatchObject({ code: 'EINVAL', message: expect.stringContaining('foo.*.com') });
  });
});

describe('who may change the network settings', () => {
  it('an agent may block hosts but not allow them; leaving network out keeps it', async () => {
    const sb = await setup(['127.0.0.1']);
    const agent = engine.connect('agent', () => undefined);
    const net = (allowedHosts: string[], blockedHosts: string[] = []) => ({
      ...DEFAULT_SETTINGS,
      network: { allowedHosts, blockedHosts },
    });
    await expect(
      engine.call('updateSettings', { sandboxId: sb.id, settings: net(['127.0.0.1', '*']) }, agent),
    ).rejects.toMatchObject({ code: 'EPERM', message: expect.stringContaining('*') });
    await expect(
      engine.call('createSandbox', { name: 'x', settings: net(['*']) }, agent),
    ).rejects.toMatchObject({ code: 'EPERM' });
    const tightened = await engine.call(
      'updateSettings',
      { sandboxId: sb.id, settings: net([], ['evil.test']) },
      agent,
    );
    expect(tightened.settings.network).toEqual({ allowedHosts: [], blockedHosts: ['evil.test'] });
    await expect(
      engine.call('updateSettings', { sandboxId: sb.id, settings: net([], []) }, agent),
    ).rejects.toMatchObject({ code: 'EPERM' });
    const { network: _omitted, ...withoutNetwork } = DEFAULT_SETTINGS;
    const kept = await engine.call('updateSettings', {
      sandboxId: sb.id,
      settings: { ...withoutNetwork, timeoutMs: 5000 },
    });
    expect(kept.settings.network?.blockedHosts).toEqual(['evil.test']);
  });
});

describe('helpers', () => {
  it('names the host an answer remembers', () => {
    expect(hostEntryOf('https://Example.COM/x')).toBe('example.com');
    expect(hostEntryOf('http://example.com:8080/')).toBe('example.com:8080');
    expect(hostEntryOf('http://[::1]:8080/')).toBe('[::1]:8080');
  });

  it('masks secrets but keeps ordinary headers', () => {
    expect(maskHeaders({ cookie: 'a=b', 'x-auth-token': 'zzz', accept: '*/*' })).toEqual({
      cookie: '•••••• (3 chars, hidden)',
      'x-auth-token': '•••••• (3 chars, hidden)',
      accept: '*/*',
    });
  });
});
