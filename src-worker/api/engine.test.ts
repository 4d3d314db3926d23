import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../contract/api.js';
import { BackendError, type BackendTerminal } from './backend.js';
import { SandglassEngine } from './engine.js';
import { MemoryBackend } from './memoryBackend.js';

/** A memory sandbox with a scripted terminal and a run() that writes a file. */
class ScriptedBackend extends MemoryBackend {
  dataListener: ((chunk: Uint8Array | string) => void) | null = null;
  written: string[] = [];
  override async run(command: string) {
    if (command === 'fail') return { stdout: '', stderr: 'boom\n', status: 3 };
    await this.writeFile('/out.txt', new TextEncoder().encode(command));
    return { stdout: `ran ${command}\n`, stderr: '', status: 0 };
  }
  override async openTerminal(): Promise<BackendTerminal> {
    return {
      write: (d) => this.written.push(d),
      resize: () => undefined,
      onData: (cb) => (this.dataListener = cb),
      onExit: () => undefined,
      close: () => undefined,
    };
  }
}

let engine: SandglassEngine;
afterEach(async () => engine.dispose());

describe('SandglassEngine', () => {
  it('creates, renames and destroys sandboxes, emitting the list', async () => {
    engine = new SandglassEngine(async () => new MemoryBackend(), 'memory');
    const events: ApiEvent[] = [];
    engine.onEvent((e) => events.push(e));
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
  });

  it('does file operations and batches change events', async () => {
    engine = new SandglassEngine(async () => new MemoryBackend(), 'memory');
    const sb = await engine.call('createSandbox', { name: 'f' });
    const changes: string[] = [];
    engine.onEvent((e) => {
      if (e.type === 'fsChange') changes.push(...e.changes.map((c) => `${c.kind} ${c.path}`));
    });
    await engine.call('mkdir', { sandboxId: sb.id, path: '/work' });
    await engine.call('writeFile', {
      sandboxId: sb.id,
      path: '/work/a.txt',
      base64: Buffer.from('hello').toString('base64'),
    });
    const file = await engine.call('readFile', { sandboxId: sb.id, path: '/work/../work/a.txt' });
    expect(Buffer.from(file.base64, 'base64').toString()).toBe('hello');
    await engine.call('rename', { sandboxId: sb.id, from: '/work/a.txt', to: '/work/b.txt' });
    const list = await engine.call('readDir', { sandboxId: sb.id, path: '/work' });
    expect(list.map((e) => [e.name, e.path, e.kind, e.size])).toEqual([
      ['b.txt', '/work/b.txt', 'file', 5],
    ]);
    await expect(
      engine.call('remove', { sandboxId: sb.id, path: '/work', recursive: false }),
    ).rejects.toMatchObject({ code: 'ENOTEMPTY' });
    await expect(
      engine.call('readFile', { sandboxId: sb.id, path: 'relative' }),
    ).rejects.toMatchObject({ code: 'EINVAL' });
    await new Promise((r) => setTimeout(r, 80));
    expect(changes).toEqual([
      'created /work',
      'created /work/a.txt',
      'deleted /work/a.txt',
      'created /work/b.txt',
    ]);
  });

  it('reports an error response instead of throwing for bad messages', async () => {
    engine = new SandglassEngine(async () => new MemoryBackend(), 'memory');
    expect(
      await engine.dispatch({
        type: 'request',
        id: 1,
        method: 'stats',
        params: { sandboxId: 'missing' },
      }),
    ).toMatchObject({ id: 1, ok: false, error: { code: 'ENOENT' } });
    expect(
      await engine.dispatch({
        type: 'request',
        id: 2,
        method: 'writeFile',
        params: { sandboxId: 'x', path: '/a', base64: '%%%' },
      }),
    ).toMatchObject({ ok: false });
    expect(await engine.dispatch(null)).toMatchObject({ id: -1, ok: false });
  });

  it('records API runs as steps with a snapshot; restore brings files back and branches', async () => {
    engine = new SandglassEngine(async () => new ScriptedBackend(), 'scripted');
    const sb = await engine.call('createSandbox', { name: 's' });
    const first = await engine.call('run', { sandboxId: sb.id, command: 'v1' });
    expect(first).toMatchObject({ stdout: 'ran v1\n', status: 0 });
    const second = await engine.call('run', { sandboxId: sb.id, command: 'v2' });
    const failed = await engine.call('run', { sandboxId: sb.id, command: 'fail' });
    expect(failed.status).toBe(3);
    const steps = await engine.call('listSteps', { sandboxId: sb.id });
    expect(steps.map((s) => [s.command, s.status, s.parentId])).toEqual([
      ['v1', 0, null],
      ['v2', 0, first.stepId],
      ['fail', 3, second.stepId],
    ]);
    expect(steps[2]?.stderr).toBe('boom\n');
    await engine.call('restoreStep', { sandboxId: sb.id, stepId: first.stepId });
    const file = await engine.call('readFile', { sandboxId: sb.id, path: '/out.txt' });
    expect(Buffer.from(file.base64, 'base64').toString()).toBe('v1');
    const old = await engine.call('readFile', {
      sandboxId: sb.id,
      path: '/out.txt',
      snapshotId: steps[1]?.snapshotId ?? '',
    });
    expect(Buffer.from(old.base64, 'base64').toString()).toBe('v2');
    const branch = await engine.call('run', { sandboxId: sb.id, command: 'v3' });
    const all = await engine.call('listSteps', { sandboxId: sb.id });
    expect(all.find((s) => s.id === branch.stepId)?.parentId).toBe(first.stepId);
  });

  it('turns OSC 133 marks in terminal output into terminal steps', async () => {
    let backend: ScriptedBackend | null = null;
    engine = new SandglassEngine(async () => (backend = new ScriptedBackend()), 'scripted');
    const sb = await engine.call('createSandbox', { name: 't' });
    const { terminalId } = await engine.call('openTerminal', {
      sandboxId: sb.id,
      cols: 80,
      rows: 24,
    });
    const seen: ApiEvent[] = [];
    engine.onEvent((e) => seen.push(e));
    await engine.call('terminalWrite', { terminalId, data: 'ls\r' });
    const b = backend as ScriptedBackend | null;
    if (!b?.dataListener) throw new Error('terminal not attached');
    expect(b.written).toEqual(['ls\r']);
    b.dataListener(new TextEncoder().encode('$ \x1b]133;B\x07false\r\n\x1b]133;C\x07'));
    b.dataListener('\x1b]133;D;1\x07');
    await new Promise((r) => setTimeout(r, 10));
    const step = seen.find((e) => e.type === 'step');
    expect(step).toMatchObject({
      step: { command: 'false', status: 1, sessionKind: 'terminal', sessionId: terminalId },
    });
    expect(seen.filter((e) => e.type === 'terminalData').length).toBe(2);
    await expect(
      engine.call('terminalWrite', { terminalId: 'nope', data: 'x' }),
    ).rejects.toBeInstanceOf(BackendError);
  });

  it('says clearly that terminals need the kernel on the memory backend', async () => {
    engine = new SandglassEngine(async () => new MemoryBackend(), 'memory');
    const sb = await engine.call('createSandbox', { name: 'm' });
    await expect(
      engine.call('openTerminal', { sandboxId: sb.id, cols: 80, rows: 24 }),
    ).rejects.toMatchObject({ code: 'ENOSYS', message: expect.stringContaining('kernel') });
  });
});
