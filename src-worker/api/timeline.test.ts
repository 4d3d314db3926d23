/**
 * The timeline through the engine's methods, with real shells: terminal
 * steps with recordings, restore bringing back files and the shell's cwd and
 * variables, branches, diffs across branches, file operations as steps,
 * forks, and save/load into a read-only replay that goes live on restore.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent, Step } from '../contract/api.js';
import { WorkerPool } from '../proc/node/workerPool.js';
import { defaultProgramsDir } from '../sandbox/sandbox.js';
import { SandglassEngine } from './engine.js';

const haveShell = existsSync(join(defaultProgramsDir(), 'shell.wasm'));
const b64 = (s: string) => Buffer.from(s).toString('base64');
const text = (r: { base64: string }) => Buffer.from(r.base64, 'base64').toString();

let engine: SandglassEngine;
afterEach(async () => engine.dispose());
afterAll(async () => {
  expect(await WorkerPool.drained()).toBe(true);
});

async function until(check: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 30000;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function setup() {
  engine = new SandglassEngine();
  const events: ApiEvent[] = [];
  const client = engine.connect('person', (e) => events.push(e));
  const sb = await engine.call('createSandbox', { name: 'tl' }, client);
  const steps = () => events.filter((e): e is ApiEvent & { type: 'step' } => e.type === 'step');
  let output = '';
  const { terminalId } = await engine.call('openTerminal', {
    sandboxId: sb.id,
    cols: 80,
    rows: 24,
  });
  engine
    .connect('person', (e) => {
      if (e.type === 'terminalData' && e.terminalId === terminalId) output += e.data;
    })
    .subscribe(sb.id);
  /** Types a line in the terminal and waits for its step. */
  const type = async (line: string): Promise<Step> => {
    const n = steps().length;
    await engine.call('terminalWrite', { terminalId, data: `${line}\r` });
    await until(
      () =>
        steps()
          .slice(n)
          .some((e) => e.step.sessionKind === 'terminal'),
      line,
    );
    return (
      steps()
        .slice(n)
        .find((e) => e.step.sessionKind === 'terminal') as { step: Step }
    ).step;
  };
  return { sb, events, client, type, output: () => output };
}

describe.skipIf(!haveShell)('timeline through the engine', () => {
  it('restores files and the terminal shell’s cwd and variables, on a new branch', async () => {
    const { sb, type, output } = await setup();
    const first = await type('cd /tmp; x=one; echo one > f.txt');
    expect(first.changes.paths).toEqual([{ path: '/tmp/f.txt', change: 'added', kind: 'file' }]);
    const rec = await engine.call('getRecording', { sandboxId: sb.id, stepId: first.id });
    expect(rec.truncated).toBe(false);
    await type('cd /; x=two; echo two > /tmp/f.txt; echo more > /tmp/g.txt');
    const restore = await engine.call('restoreStep', { sandboxId: sb.id, stepId: first.id });
    expect(restore.kind).toBe('restore');
    const check = await type('echo "at=$(pwd) x=$x"');
    await until(() => output().includes('at=/tmp x=one'), 'the restored shell state');
    expect(check.parentId).toBe(restore.id);
    const live = await engine.call('readFile', { sandboxId: sb.id, path: '/tmp/f.txt' });
    expect(text(live)).toBe('one\n');
    const info = await engine.call('getTimeline', { sandboxId: sb.id });
    expect(info).toMatchObject({ headStepId: check.id, branchCount: 2, replay: false });
  });

  it('diffs two steps across branches, file by file, and records file operations as steps', async () => {
    const { sb } = await setup();
    const write = (path: string, body: string) =>
      engine.call('writeFile', { sandboxId: sb.id, path, base64: b64(body) });
    await write('/tmp/a.txt', 'l1\nl2\nl3\n');
    const base = await engine.call('getTimeline', { sandboxId: sb.id });
    const baseStep = base.headStepId ?? '';
    await write('/tmp/a.txt', 'l1\nL2\nl3\nl4\n');
    await engine.call('mkdir', { sandboxId: sb.id, path: '/tmp/d' });
    await engine.call('rename', { sandboxId: sb.id, from: '/tmp/d', to: '/tmp/e' });
    const onMain = (await engine.call('getTimeline', { sandboxId: sb.id })).headStepId ?? '';
    await engine.call('restoreStep', { sandboxId: sb.id, stepId: baseStep });
    await engine.call('remove', { sandboxId: sb.id, path: '/tmp/a.txt', recursive: false });
    await write('/tmp/bin', '\0\x01binary');
    const onBranch = (await engine.call('getTimeline', { sandboxId: sb.id })).headStepId ?? '';
    const { steps } = await engine.call('listSteps', { sandboxId: sb.id });
    expect(steps.map((s) => [s.kind, s.command])).toEqual([
      ['write', 'write /tmp/a.txt'],
      ['write', 'write /tmp/a.txt'],
      ['mkdir', 'mkdir /tmp/d'],
      ['rename', 'rename /tmp/d /tmp/e'],
      ['restore', `restore ${baseStep}`],
      ['remove', 'remove /tmp/a.txt'],
      ['write', 'write /tmp/bin'],
    ]);
    const diff = await engine.call('diffSteps', { sandboxId: sb.id, from: onMain, to: onBranch });
    expect(diff.entries.map((e) => [e.path, e.change])).toEqual([
      ['/tmp/a.txt', 'deleted'],
      ['/tmp/bin', 'added'],
      ['/tmp/e', 'deleted'],
    ]);
    const bin = diff.entries.find((e) => e.path === '/tmp/bin');
    expect(bin).toMatchObject({ text: false, sizeAfter: 8 });
    expect(bin?.hashAfter).toMatch(/^[0-9a-f]{64}$/);
    const own = await engine.call('stepChanges', { sandboxId: sb.id, stepId: steps[1]?.id ?? '' });
    expect(own.entries).toEqual([
      expect.objectContaining({
        path: '/tmp/a.txt',
        change: 'modified',
        linesAdded: 2,
        linesRemoved: 1,
      }),
    ]);
    const file = await engine.call('diffFile', {
      sandboxId: sb.id,
      from: baseStep,
      to: onMain,
      path: '/tmp/a.txt',
    });
    expect([file.before?.text, file.after?.text]).toEqual(['l1\nl2\nl3\n', 'l1\nL2\nl3\nl4\n']);
    // Against the live tree when `to` is left out.
    const toLive = await engine.call('diffSteps', { sandboxId: sb.id, from: baseStep });
    expect(toLive.total).toBe(2);
    await expect(
      engine.call('diffSteps', { sandboxId: sb.id, from: 'st999' }),
    ).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('forks a step into a new sandbox, O(1), with the same settings', async () => {
    const { sb, client } = await setup();
    await engine.call('writeFile', { sandboxId: sb.id, path: '/tmp/x', base64: b64('at fork') });
    const at = (await engine.call('getTimeline', { sandboxId: sb.id })).headStepId ?? '';
    await engine.call('writeFile', { sandboxId: sb.id, path: '/tmp/x', base64: b64('later') });
    const fork = await engine.call('forkSandbox', { sandboxId: sb.id, stepId: at }, client);
    expect(fork.settings).toEqual((await engine.call('listSandboxes', {}))[0]?.settings);
    const r = await engine.call('run', { sandboxId: fork.id, command: 'cat /tmp/x' });
    expect(r.stdout).toBe('at fork');
    const orig = await engine.call('readFile', { sandboxId: sb.id, path: '/tmp/x' });
    expect(text(orig)).toBe('later');
  });

  it('saves a timeline and loads it as a read-only replay that a restore makes live', async () => {
    const { sb, client, type } = await setup();
    await type('echo hello > /tmp/h.txt; echo printed');
    await engine.call('run', { sandboxId: sb.id, command: 'echo api > /tmp/api.txt' });
    const saved = await engine.call('saveTimeline', { sandboxId: sb.id });
    expect(saved.summary).toMatchObject({ formatVersion: 1, steps: 2, branches: 1 });
    const loaded = await engine.call(
      'loadTimeline',
      { name: 'replay', base64: saved.base64 },
      client,
    );
    const rid = loaded.sandbox.id;
    const { steps } = await engine.call('listSteps', { sandboxId: rid });
    expect(steps.map((s) => s.command)).toEqual([
      'echo hello > /tmp/h.txt; echo printed',
      'echo api > /tmp/api.txt',
    ]);
    const rec = await engine.call('getRecording', { sandboxId: rid, stepId: steps[0]?.id ?? '' });
    expect(rec.frames.map((f) => f.data).join('')).toContain('printed');
    const first = await engine.call('readFile', {
      sandboxId: rid,
      path: '/tmp/h.txt',
      snapshotId: steps[0]?.snapshotId ?? '',
    });
    expect(text(first)).toBe('hello\n');
    expect((await engine.call('getTimeline', { sandboxId: rid })).replay).toBe(true);
    await expect(engine.call('run', { sandboxId: rid, command: 'true' })).rejects.toMatchObject({
      code: 'EROFS',
    });
    await expect(
      engine.call('writeFile', { sandboxId: rid, path: '/tmp/z', base64: '' }),
    ).rejects.toThrow(/replays a saved timeline/);
    await engine.call('restoreStep', { sandboxId: rid, stepId: steps[0]?.id ?? '' });
    const r = await engine.call('run', { sandboxId: rid, command: 'cat /tmp/h.txt; ls /tmp' });
    expect(r.stdout).toBe('hello\nh.txt\n');
    await expect(
      engine.call('loadTimeline', { name: 'bad', base64: b64('not a zip') }),
    ).rejects.toMatchObject({ code: 'EBADTIMELINE' });
  });
});
