import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../contract/api.js';
import { DEFAULT_SETTINGS, SandglassEngine } from './engine.js';
import { KernelBackend } from './kernelBackend.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');

let engine: SandglassEngine;
afterEach(async () => engine.dispose());

describe('KernelBackend through the engine', () => {
  it('does file operations on the kernel VFS with modes and change events', async () => {
    engine = new SandglassEngine((s) => KernelBackend.create(s), 'kernel');
    const sb = await engine.call('createSandbox', { name: 'k' });
    const changes: string[] = [];
    engine.onEvent((e: ApiEvent) => {
      if (e.type === 'fsChange') changes.push(...e.changes.map((c) => `${c.kind} ${c.path}`));
    });
    await engine.call('mkdir', { sandboxId: sb.id, path: '/home/user/p' });
    await engine.call('writeFile', {
      sandboxId: sb.id,
      path: '/home/user/p/a.txt',
      base64: b64('one'),
    });
    await engine.call('rename', {
      sandboxId: sb.id,
      from: '/home/user/p/a.txt',
      to: '/home/user/p/b.txt',
    });
    const list = await engine.call('readDir', { sandboxId: sb.id, path: '/home/user/p' });
    expect(list.map((e) => [e.name, e.kind, e.size])).toEqual([['b.txt', 'file', 3]]);
    expect(list[0]?.mode).toBeGreaterThan(0);
    await expect(
      engine.call('readFile', { sandboxId: sb.id, path: '/nope' }),
    ).rejects.toMatchObject({ code: 'ENOENT' });
    await new Promise((r) => setTimeout(r, 80));
    expect(changes).toEqual(
      expect.arrayContaining([
        'created /home/user/p',
        'deleted /home/user/p/a.txt',
        'created /home/user/p/b.txt',
      ]),
    );
  });

  it('browses a snapshot read-only and restores it', async () => {
    const backend = await KernelBackend.create(DEFAULT_SETTINGS);
    try {
      await backend.writeFile('/tmp/r.txt', new TextEncoder().encode('v1'));
      const snap = await backend.snapshot();
      await backend.writeFile('/tmp/r.txt', new TextEncoder().encode('v2'));
      await backend.writeFile('/tmp/later.txt', new Uint8Array(0));
      expect(new TextDecoder().decode(await backend.readFile('/tmp/r.txt', snap))).toBe('v1');
      expect((await backend.readDir('/tmp', snap)).map((e) => e.name)).not.toContain('later.txt');
      expect(new TextDecoder().decode(await backend.readFile('/tmp/r.txt'))).toBe('v2');
      const seen: string[] = [];
      backend.onChange((c) => seen.push(`${c.kind} ${c.path}`));
      await backend.restore(snap);
      expect(seen).toContain('modified /');
      expect(new TextDecoder().decode(await backend.readFile('/tmp/r.txt'))).toBe('v1');
      await expect(backend.readFile('/tmp/r.txt', 'bogus')).rejects.toMatchObject({
        code: 'ENOENT',
      });
    } finally {
      await backend.dispose();
    }
  });

  it('applies new limits, env and timeout to a running sandbox', async () => {
    engine = new SandglassEngine((s) => KernelBackend.create(s), 'kernel');
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
});
