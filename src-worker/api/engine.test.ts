import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../contract/api.js';
import { LIMITS } from '../contract/constants.js';
import { WorkerPool } from '../proc/node/workerPool.js';
import { defaultProgramsDir } from '../sandbox/sandbox.js';
import { fixtureProgramsDir } from '../sandbox/testPrograms.js';
import { encodeMessage, dispatch } from './dispatch.js';
import { DEFAULT_SETTINGS, SandglassEngine } from './engine.js';

const haveShell = existsSync(join(defaultProgramsDir(), 'shell.wasm'));
const b64 = (s: string) => Buffer.from(s).toString('base64');
const text = (r: { base64: string }) => Buffer.from(r.base64, 'base64').toString();

let engine: SandglassEngine;
afterEach(async () => engine.dispose());
afterAll(async () => {
  expect(await WorkerPool.drained()).toBe(true);
});

/** A client of the engine that records the events it is sent. */
function watcher(role: 'person' | 'agent' = 'person') {
  const events: ApiEvent[] = [];
  const client = engine.connect(role, (e) => events.push(e));
  return { client, events };
}

/** A fresh engine with one sandbox, a subscribed client and an open terminal. */
async function terminalSandbox() {
  engine = new SandglassEngine();
  const sb = await engine.call('createSandbox', { name: 't' });
  const { client, events } = watcher();
  await engine.call('subscribe', { sandboxId: sb.id }, client);
  const { terminalId } = await engine.call('openTerminal', {
    sandboxId: sb.id,
    cols: 80,
    rows: 24,
  });
  return { sb, events, terminalId };
}

/** A wire request, as a transport hands it to dispatch. */
const wire = (id: number, method: string, params: unknown) => ({
  type: 'request',
  id,
  method,
  params,
});

/** A person's approval question in a sandbox, as the network gateway will raise it. */
const approvalIn = (sandboxId: string) =>
  engine.bus.ask({
    sandboxId,
    kind: 'approval',
    title: 'Allow?',
    detail: '',
    answerers: ['person'],
  });

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

describe('SandglassEngine sandboxes and files', () => {
  it('creates, renames and destroys sandboxes, telling every client the list', async () => {
    engine = new SandglassEngine();
    const { events } = watcher();
    const sb = await engine.call('createSandbox', { name: ' one ' });
    expect(sb.name).toBe('one');
    await engine.call('renameSandbox', { sandboxId: sb.id, name: 'two' });
    expect((await engine.call('listSandboxes', {}))[0]?.name).toBe('two');
    await expect(
      engine.call('renameSandbox', { sandboxId: sb.id, name: '  ' }),
    ).rejects.toMatchObject({ code: 'EINVAL' });
    await engine.call('destroySandbox', { sandboxId: sb.id });
    expect(await engine.call('listSandboxes', {})).toEqual([]);
    expect(events.filter((e) => e.type === 'sandboxes').length).toBe(3);
    await expect(engine.call('stats', { sandboxId: sb.id })).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });

  it('does file operations with modes, and sends batched changes to subscribers only', async () => {
    engine = new SandglassEngine();
    const sb = await engine.call('createSandbox', { name: 'f' });
    const subscribed = watcher();
    await engine.call('subscribe', { sandboxId: sb.id }, subscribed.client);
    const other = watcher();
    const p = '/home/user/p';
    await engine.call('mkdir', { sandboxId: sb.id, path: `${p}/deep/er`, recursive: true });
    await engine.call('writeFile', { sandboxId: sb.id, path: `${p}/a.txt`, base64: b64('one') });
    await engine.call('writeFile', {
      sandboxId: sb.id,
      path: `${p}/run.sh`,
      base64: b64('echo'),
      mode: 0o755,
    });
    expect(text(await engine.call('readFile', { sandboxId: sb.id, path: `${p}/../p/a.txt` }))).toBe(
      'one',
    );
    await engine.call('rename', { sandboxId: sb.id, from: `${p}/a.txt`, to: `${p}/b.txt` });
    const list = await engine.call('readDir', { sandboxId: sb.id, path: p });
    expect(list.map((e) => [e.name, e.path, e.kind, e.size])).toEqual(
      [
        ['deep', `${p}/deep`, 'dir', expect.any(Number)],
        ['run.sh', `${p}/run.sh`, 'file', 4],
        ['b.txt', `${p}/b.txt`, 'file', 3],
      ].sort((x, y) => String(x[0]).localeCompare(String(y[0]))),
    );
    expect((await engine.call('stat', { sandboxId: sb.id, path: `${p}/run.sh` })).mode).toBe(0o755);
    await expect(
      engine.call('remove', { sandboxId: sb.id, path: `${p}/deep`, recursive: false }),
    ).rejects.toMatchObject({ code: 'ENOTEMPTY' });
    await expect(
      engine.call('readFile', { sandboxId: sb.id, path: 'relative' }),
    ).rejects.toMatchObject({ code: 'EINVAL' });
    await expect(
      engine.call('readFile', { sandboxId: sb.id, path: '/nope' }),
    ).rejects.toMatchObject({ code: 'ENOENT' });
    await until(() => subscribed.events.some((e) => e.type === 'fsChange'), 'a change batch');
    await new Promise((r) => setTimeout(r, 80));
    const changes = subscribed.events.flatMap((e) =>
      e.type === 'fsChange' ? e.changes.map((c) => `${c.kind} ${c.path}`) : [],
    );
    expect(changes).toEqual(
      expect.arrayContaining([`created ${p}`, `deleted ${p}/a.txt`, `created ${p}/b.txt`]),
    );
    // Lists (sandboxes, clients) go to everyone; sandbox events only to subscribers.
    expect(other.events.filter((e) => e.type !== 'sandboxes' && e.type !== 'clients')).toEqual([]);
  });

  it('applies new limits to a running sandbox', async () => {
    engine = new SandglassEngine();
    const sb = await engine.call('createSandbox', { name: 'k' });
    const updated = await engine.call('updateSettings', {
      sandboxId: sb.id,
      settings: { ...DEFAULT_SETTINGS, env: { A: '1' }, timeoutMs: 5 },
    });
    expect(updated.settings.env).toEqual({ A: '1' });
    await engine.call('updateSettings', {
      sandboxId: sb.id,
      settings: { ...DEFAULT_SETTINGS, limits: { ...DEFAULT_SETTINGS.limits, fileBytes: 4 } },
    });
    await expect(
      engine.call('writeFile', { sandboxId: sb.id, path: '/tmp/big', base64: btoa('too big') }),
    ).rejects.toMatchObject({ code: 'EFBIG' });
  });

  it('answers bad messages with error replies, never a throw', async () => {
    engine = new SandglassEngine();
    const { client } = watcher();
    expect(
      await dispatch(engine, client, wire(1, 'stats', { sandboxId: 'missing' })),
    ).toMatchObject({ id: 1, ok: false, error: { code: 'ENOENT' } });
    expect(
      await dispatch(
        engine,
        client,
        wire(2, 'writeFile', { sandboxId: 'x', path: '/a', base64: '%%%' }),
      ),
    ).toMatchObject({ ok: false });
    expect(await dispatch(engine, client, null)).toMatchObject({ id: -1, ok: false });
    expect(
      await dispatch(engine, undefined, wire(3, 'subscribe', { sandboxId: 'x' })),
    ).toMatchObject({ id: 3, ok: false, error: { code: 'ENOENT' } });
  });

  it('relays answers to engine requests from the clients they are addressed to', async () => {
    engine = new SandglassEngine();
    const sb = await engine.call('createSandbox', { name: 'q' });
    const person = watcher('person');
    await engine.call('subscribe', { sandboxId: sb.id }, person.client);
    const asked = approvalIn(sb.id);
    const request = person.events.find((e) => e.type === 'request');
    if (request?.type !== 'request') throw new Error('no request event');
    const agent = watcher('agent');
    expect(
      await dispatch(
        engine,
        agent.client,
        wire(1, 'answer', { requestId: request.request.id, answer: { allow: true } }),
      ),
    ).toMatchObject({ ok: false, error: { code: 'EPERM' } });
    await engine.call(
      'answer',
      { requestId: request.request.id, answer: { allow: true } },
      person.client,
    );
    await expect(asked).resolves.toMatchObject({ outcome: 'answered', answer: { allow: true } });
  });

  it('cancels a sandbox’s requests when it is destroyed', async () => {
    engine = new SandglassEngine();
    const sb = await engine.call('createSandbox', { name: 'q' });
    const person = watcher();
    await engine.call('subscribe', { sandboxId: sb.id }, person.client);
    const asked = approvalIn(sb.id);
    await engine.call('destroySandbox', { sandboxId: sb.id });
    await expect(asked).resolves.toMatchObject({ outcome: 'cancelled' });
  });
});

describe('SandglassEngine spawn (the CLI’s way in)', () => {
  it('streams a program’s output and records it as a cli step', async () => {
    engine = new SandglassEngine({ programsDir: fixtureProgramsDir() });
    const sb = await engine.call('createSandbox', { name: 'cli' });
    const { client, events } = watcher();
    await engine.call('subscribe', { sandboxId: sb.id }, client);
    let out = '';
    const p = await engine.spawn(sb.id, '/usr/bin/fixture-cat', ['fixture-cat'], {
      stdin: 'pipe',
      stdout: (d) => (out += Buffer.from(d).toString()),
    });
    await p.stdin?.write('through the engine\n');
    p.stdin?.close();
    const done = await p.wait();
    expect(done.status).toBe(0);
    expect(out).toBe('through the engine\n');
    const { steps } = await engine.call('listSteps', { sandboxId: sb.id });
    expect(steps).toEqual([
      expect.objectContaining({
        id: done.stepId,
        sessionKind: 'cli',
        command: 'fixture-cat',
        status: 0,
        stdout: 'through the engine\n',
        stdoutBytes: 19,
      }),
    ]);
    expect(events.some((e) => e.type === 'step')).toBe(true);
    await expect(engine.spawn(sb.id, '/usr/bin/nope', ['nope'])).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });
});

describe.skipIf(!haveShell)('SandglassEngine runs, steps and terminals', () => {
  it('records API runs as steps with a snapshot; restore brings files back and branches', async () => {
    engine = new SandglassEngine();
    const sb = await engine.call('createSandbox', { name: 's' });
    const run = (command: string) => engine.call('run', { sandboxId: sb.id, command });
    const first = await run('echo v1 > /tmp/out.txt; echo ran v1');
    expect(first).toMatchObject({ stdout: 'ran v1\n', status: 0 });
    const second = await run('echo v2 > /tmp/out.txt');
    const failed = await run('echo boom >&2; exit 3');
    expect(failed.status).toBe(3);
    const { steps, total, nextOffset } = await engine.call('listSteps', { sandboxId: sb.id });
    expect([total, nextOffset]).toEqual([3, null]);
    expect(steps.map((s) => [s.status, s.parentId, s.sessionKind])).toEqual([
      [0, null, 'api'],
      [0, first.stepId, 'api'],
      [3, second.stepId, 'api'],
    ]);
    expect(steps[2]).toMatchObject({ stderr: 'boom\n', stderrBytes: 5 });
    const restore = await engine.call('restoreStep', {
      sandboxId: sb.id,
      stepId: first.stepId ?? '',
    });
    expect(restore).toMatchObject({ kind: 'restore', restoredFrom: first.stepId });
    const now = await engine.call('readFile', { sandboxId: sb.id, path: '/tmp/out.txt' });
    expect(text(now)).toBe('v1\n');
    const old = await engine.call('readFile', {
      sandboxId: sb.id,
      path: '/tmp/out.txt',
      snapshotId: steps[1]?.snapshotId ?? '',
    });
    expect(text(old)).toBe('v2\n');
    const branch = await run('true');
    const page = await engine.call('listSteps', { sandboxId: sb.id, offset: 3 });
    expect(page.steps.map((s) => [s.id, s.parentId])).toEqual([
      [restore.id, first.stepId],
      [branch.stepId, restore.id],
    ]);
    // The restore started a second branch; the first keeps its three steps.
    const branches = await engine.call('listBranches', { sandboxId: sb.id });
    expect(branches.map((b) => [b.name, b.stepCount, b.forkedFrom])).toEqual([
      ['main', 3, null],
      ['branch-2', 2, first.stepId],
    ]);
    await expect(
      engine.call('restoreStep', { sandboxId: sb.id, stepId: 'st999' }),
    ).rejects.toMatchObject({ code: 'ENOENT' });
  });

  // Issue 20, item 2: six runs of 16 MB made listSteps a ~576 M character reply whose
  // JSON.stringify threw inside an unguarded send and ended the process.
  it('keeps step output as a bounded preview, so listSteps stays small (issue 20 #2)', async () => {
    engine = new SandglassEngine();
    const sb = await engine.call('createSandbox', { name: 'big' });
    for (let i = 0; i < 2; i++) {
      const r = await engine.call('run', {
        sandboxId: sb.id,
        command: 'head -c 16000000 /dev/zero',
      });
      expect(r.stdout.length).toBe(16_000_000);
    }
    const reply = await dispatch(engine, undefined, wire(1, 'listSteps', { sandboxId: sb.id }));
    const json = encodeMessage(reply);
    expect(json.length).toBeLessThan(200_000);
    const page = JSON.parse(json) as {
      result: { steps: { stdout: string; stdoutBytes: number }[] };
    };
    for (const step of page.result.steps) {
      expect(step.stdoutBytes).toBe(16_000_000);
      expect(step.stdout.length).toBeLessThan(2 * LIMITS.outputPreviewBytes + 100);
      expect(step.stdout).toContain('bytes not kept');
    }
  });

  it('turns the shell’s prompt marks into terminal steps and sends output to subscribers', async () => {
    const { events, terminalId } = await terminalSandbox();
    await engine.call('terminalWrite', { terminalId, data: 'false\r' });
    await until(() => events.some((e) => e.type === 'step'), 'a terminal step');
    expect(events.find((e) => e.type === 'step')).toMatchObject({
      step: { command: 'false', status: 1, sessionKind: 'terminal', sessionId: terminalId },
    });
    expect(events.some((e) => e.type === 'terminalData' && e.terminalId === terminalId)).toBe(true);
    await expect(
      engine.call('terminalWrite', { terminalId: 'nope', data: 'x' }),
    ).rejects.toMatchObject({ code: 'ENOENT' });
    await engine.call('terminalWrite', { terminalId, data: 'exit 5\r' });
    await until(() => events.some((e) => e.type === 'terminalExit'), 'the terminal exit');
    expect(events.find((e) => e.type === 'terminalExit')).toMatchObject({ status: 5 });
  });

  // Issue 20, item 1: a huge cursor move in echoed input grew an array to the cursor
  // position and V8 died with "invalid size".
  it('survives a huge cursor move printed in a terminal (issue 20 #1)', async () => {
    const { sb, events, terminalId } = await terminalSandbox();
    await engine.call('terminalWrite', {
      terminalId,
      data: "printf '\\033]133;B\\007\\033[2000000000Cx\\033]133;C\\007'; echo done-$((6*7))\r",
    });
    const output = () => events.map((e) => (e.type === 'terminalData' ? e.data : '')).join('');
    await until(() => output().includes('done-42'), 'the command to finish');
    expect(await engine.call('run', { sandboxId: sb.id, command: 'echo alive' })).toMatchObject({
      stdout: 'alive\n',
    });
  });

  it('reports the running command and processes in one stats shape', async () => {
    engine = new SandglassEngine();
    const sb = await engine.call('createSandbox', { name: 'st' });
    const running = engine.call('run', { sandboxId: sb.id, command: 'sleep 0.5' });
    await until(() => true, 'nothing');
    let stats = await engine.call('stats', { sandboxId: sb.id });
    for (let i = 0; i < 40 && stats.running === null; i++) {
      await new Promise((r) => setTimeout(r, 10));
      stats = await engine.call('stats', { sandboxId: sb.id });
    }
    expect(stats.running).toBe('sleep 0.5');
    expect(stats.processes.length).toBeGreaterThan(0);
    expect(stats.files).toBeGreaterThan(10);
    await running;
    expect((await engine.call('stats', { sandboxId: sb.id })).running).toBeNull();
  });
});
