import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiEvent, ClientInfo } from '../contract/api.js';
import { SandglassEngine } from './engine.js';

let engine: SandglassEngine;

beforeEach(() => {
  engine = new SandglassEngine();
});

afterEach(async () => {
  await engine.dispose();
});

function settledWithin<T>(p: Promise<T>, ms: number): Promise<boolean> {
  return Promise.race([
    p.then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((r) => setTimeout(() => r(false), ms)),
  ]);
}

describe('client registry', () => {
  it('lists clients with the name they give in hello, their transport and sandboxes', async () => {
    const events: ApiEvent[] = [];
    const person = engine.connect('person', (e) => events.push(e), { transport: 'websocket' });
    const agent = engine.connect('agent', () => undefined, { transport: 'jsonrpc-stdio' });
    const hello = await engine.call(
      'hello',
      { apiVersion: 2, client: { name: 'claude-code', version: '2.1' } },
      agent,
    );
    expect(hello.clientId).toBe(agent.id);
    const { id } = await engine.call('createSandbox', { name: 'a' }, agent);
    const clients = await engine.call('listClients', {}, person);
    expect(clients.find((c) => c.id === agent.id)).toMatchObject({
      role: 'agent',
      name: 'claude-code 2.1',
      transport: 'jsonrpc-stdio',
      sandboxes: [id],
      paused: false,
      running: null,
    });
    await new Promise((r) => setTimeout(r, 120));
    const last = events.filter((e) => e.type === 'clients').at(-1) as { clients: ClientInfo[] };
    expect(last.clients.map((c) => c.name)).toContain('claude-code 2.1');
    agent.close();
    expect((await engine.call('listClients', {})).map((c) => c.id)).toEqual([person.id]);
    person.close();
  });

  it('holds a paused agent’s next call until a person resumes it', async () => {
    const person = engine.connect('person', () => undefined);
    const agent = engine.connect('agent', () => undefined);
    const { id: sandboxId } = await engine.call('createSandbox', { name: 'p' }, agent);
    await engine.call('pauseClient', { clientId: agent.id }, person);
    expect((await engine.call('listClients', {})).find((c) => c.id === agent.id)?.paused).toBe(
      true,
    );
    const run = engine.call('run', { sandboxId, command: 'echo later' }, agent);
    expect(await settledWithin(run, 300)).toBe(false);
    await engine.call('resumeClient', { clientId: agent.id }, person);
    expect((await run).stdout).toBe('later\n');
  });

  it('stops an agent: its running command is killed and its transport closed', async () => {
    const person = engine.connect('person', () => undefined);
    let disconnected = false;
    const agent = engine.connect('agent', () => undefined, {
      disconnect: () => (disconnected = true),
    });
    const { id: sandboxId } = await engine.call('createSandbox', { name: 's' }, agent);
    const run = engine.call('run', { sandboxId, command: 'sleep 30' }, agent);
    // Wait until the shell runs it (stopping a shell still booting cancels the command instead).
    for (let i = 0; i < 200; i++) {
      const { processes } = await engine.call('stats', { sandboxId });
      if (processes.some((p) => p.name === 'sleep' || p.argv[0] === 'sleep')) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect((await engine.call('listClients', {})).find((c) => c.id === agent.id)?.running).toBe(
      'sleep 30',
    );
    const t0 = Date.now();
    await engine.call('disconnectClient', { clientId: agent.id }, person);
    const result = await run;
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(result.status).toBe(137);
    expect(disconnected).toBe(true);
    expect((await engine.call('listClients', {})).map((c) => c.id)).toEqual([person.id]);
    // The sandbox is still usable by people.
    expect((await engine.call('run', { sandboxId, command: 'echo ok' })).stdout).toBe('ok\n');
  });

  it('fails the waiting call of a paused agent that is stopped', async () => {
    const person = engine.connect('person', () => undefined);
    const agent = engine.connect('agent', () => undefined);
    await engine.call('pauseClient', { clientId: agent.id }, person);
    const call = engine.call('listSandboxes', {}, agent);
    await engine.call('disconnectClient', { clientId: agent.id }, person);
    await expect(call).rejects.toMatchObject({ code: 'ECONNRESET' });
  });

  it('lets only people pause, and only agents be paused', async () => {
    const person = engine.connect('person', () => undefined);
    const agent = engine.connect('agent', () => undefined);
    const other = engine.connect('agent', () => undefined);
    await expect(engine.call('pauseClient', { clientId: other.id }, agent)).rejects.toMatchObject({
      code: 'EPERM',
    });
    await expect(engine.call('pauseClient', { clientId: person.id }, person)).rejects.toMatchObject(
      { code: 'EPERM' },
    );
    await expect(
      engine.call('resumeClient', { clientId: 'client99' }, person),
    ).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
