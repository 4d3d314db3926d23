/**
 * The timeline through the engine's methods, with real shells: terminal
 * steps with recordings, restore bringing back files and the shell's cwd and
 * variables, branches, diffs across branches, file operations as steps,
 * forks, and save/load into a read-only replay that goes live on restore.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

/** Waits well inside the test's own timeout, so a stuck wait names what it waited for. */
async function until(check: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 20_000;
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

  it('starts a fork’s history at the forked step, which names where it came from', async () => {
    const { sb, client, type } = await setup();
    const network = { allowedHosts: ['example.org'], blockedHosts: ['bad.example'] };
    const settings = (await engine.call('listSandboxes', {}))[0]?.settings;
    if (!settings) throw new Error('no settings');
    await engine.call('updateSettings', { sandboxId: sb.id, settings: { ...settings, network } });
    const at = await type('cd /tmp; X=forked; echo data > f.txt');
    await type('echo more > g.txt');
    const fork = await engine.call('forkSandbox', { sandboxId: sb.id, stepId: at.id }, client);
    const origin = { sandboxId: sb.id, sandboxName: 'tl', stepId: at.id };
    expect(fork.origin).toEqual(origin);
    expect(fork.settings.network).toEqual(network);
    expect((await engine.call('listSandboxes', {})).find((s) => s.id === fork.id)?.origin).toEqual(
      origin,
    );
    const root = (await engine.call('listSteps', { sandboxId: fork.id })).steps;
    expect(root).toHaveLength(1);
    expect(root[0]).toMatchObject({
      kind: 'fork',
      sessionKind: 'fork',
      parentId: null,
      command: `forked from ${sb.id}/${at.id}`,
      origin,
      snapshotReleased: false,
      changes: { added: 0, modified: 0, deleted: 0 },
    });
    const rootId = root[0]?.id ?? '';
    expect((await engine.call('getTimeline', { sandboxId: fork.id })).headStepId).toBe(rootId);
    // Work in the fork grows from the root; the source does not see it.
    const next = await engine.call('run', { sandboxId: fork.id, command: 'echo fork > /tmp/h' });
    expect(next.status).toBe(0);
    const steps = (await engine.call('listSteps', { sandboxId: fork.id })).steps;
    expect(steps.map((s) => s.parentId)).toEqual([null, rootId]);
    const diff = await engine.call('diffSteps', {
      sandboxId: fork.id,
      from: rootId,
      to: steps[1]?.id ?? '',
    });
    expect(diff.entries.map((e) => [e.path, e.change])).toEqual([['/tmp/h', 'added']]);
    // The fork's first terminal is where the forked step left its shell.
    const { terminalId } = await engine.call('openTerminal', {
      sandboxId: fork.id,
      cols: 80,
      rows: 24,
    });
    let out = '';
    let terminalSteps = 0;
    engine
      .connect('person', (e) => {
        if (e.type === 'terminalData' && e.terminalId === terminalId) out += e.data;
        if (e.type === 'step' && e.step.sessionKind === 'terminal') terminalSteps += 1;
      })
      .subscribe(fork.id);
    await engine.call('terminalWrite', { terminalId, data: 'echo "[$PWD:$X]"; cd /; X=gone\r' });
    await until(() => out.includes('[/tmp:forked]'), 'the forked shell state');
    // The whole line must have run (its step recorded) before the restore, or
    // its `cd /; X=gone` could land after the restored state.
    await until(() => terminalSteps > 0, 'the step of the line typed in the fork');
    // The root restores like any step, shell state included.
    await engine.call('restoreStep', { sandboxId: fork.id, stepId: rootId });
    out = '';
    await engine.call('terminalWrite', { terminalId, data: 'echo "<$PWD:$X>"; ls /tmp\r' });
    await until(() => out.includes('</tmp:forked>') && /f\.txt/.test(out), 'restored root');
    expect(out).not.toMatch(/g\.txt/);
    // A saved fork keeps its origin.
    const saved = await engine.call('saveTimeline', { sandboxId: fork.id });
    const loaded = await engine.call('loadTimeline', { name: 'r', base64: saved.base64 }, client);
    const first = (await engine.call('listSteps', { sandboxId: loaded.sandbox.id })).steps[0];
    expect(first).toMatchObject({ kind: 'fork', origin });
  }, 60_000);

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
  it('starts the history of a sandbox given a host import after it; a later import is a step', async () => {
    engine = new SandglassEngine();
    const dir = mkdtempSync(join(tmpdir(), 'sg-tl-import-'));
    try {
      mkdirSync(join(dir, 'src'));
      for (let i = 0; i < 30; i++) writeFileSync(join(dir, 'src', `f${i}.txt`), `file ${i}\n`);
      const sb = await engine.call('createSandbox', { name: 'imp' });
      await engine.importHostDir(sb.id, dir, '/data', { readOnly: true, contents: 'lazy' });
      expect((await engine.call('listSteps', { sandboxId: sb.id })).steps).toEqual([]);
      const run = await engine.call('run', { sandboxId: sb.id, command: 'echo x > /tmp/x' });
      const first = { stepId: run.stepId ?? '' };
      const step = await engine.call('getStep', { sandboxId: sb.id, stepId: first.stepId });
      // Only the command's own change: the imported files are where the history starts.
      expect(step.changes.paths.map((c) => c.path)).toEqual(['/tmp/x']);
      // Restore, fork and save/load all see the imported files.
      await engine.call('run', { sandboxId: sb.id, command: 'echo y > /tmp/y' });
      await engine.call('restoreStep', { sandboxId: sb.id, stepId: first.stepId });
      const cat = await engine.call('run', { sandboxId: sb.id, command: 'cat /data/src/f7.txt' });
      expect(cat.stdout).toBe('file 7\n');
      const fork = await engine.call('forkSandbox', { sandboxId: sb.id, stepId: first.stepId });
      const inFork = await engine.call('run', {
        sandboxId: fork.id,
        command: 'ls /data/src | wc -l',
      });
      expect(inFork.stdout.trim()).toBe('30');
      const saved = await engine.call('saveTimeline', { sandboxId: sb.id });
      const loaded = await engine.call('loadTimeline', { name: 'r', base64: saved.base64 });
      const [loadedFirst] = (await engine.call('listSteps', { sandboxId: loaded.sandbox.id }))
        .steps;
      const replay = await engine.call('readFile', {
        sandboxId: loaded.sandbox.id,
        path: '/data/src/f29.txt',
        snapshotId: loadedFirst?.snapshotId ?? '',
      });
      expect(text(replay)).toBe('file 29\n');
      // Once the sandbox has steps, an import is recorded as a step of its own.
      const n = (await engine.call('listSteps', { sandboxId: sb.id })).steps.length;
      await engine.importHostDir(sb.id, join(dir, 'src'), '/more', { contents: 'lazy' });
      const steps = (await engine.call('listSteps', { sandboxId: sb.id })).steps;
      expect(steps).toHaveLength(n + 1);
      expect(steps.at(-1)).toMatchObject({ kind: 'import', changes: { added: 31 } });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
