import { afterAll, describe, expect, it } from 'vitest';
import { WorkerPool } from '../proc/node/workerPool.js';
import { Sandbox } from '../sandbox/sandbox.js';
import { SandboxFiles } from './files.js';

afterAll(async () => {
  expect(await WorkerPool.drained()).toBe(true);
});

const enc = new TextEncoder();
const dec = new TextDecoder();

describe('SandboxFiles', () => {
  it('browses a snapshot read-only while the live tree moves on', async () => {
    const sb = await Sandbox.create();
    try {
      const files = new SandboxFiles(sb);
      await files.writeFile('/tmp/r.txt', enc.encode('v1'));
      await files.mkdir('/tmp/a/b', true);
      const snap = String(sb.snapshot());
      await files.writeFile('/tmp/r.txt', enc.encode('v2'));
      await files.writeFile('/tmp/later.txt', new Uint8Array(0));
      expect(dec.decode(await files.readFile('/tmp/r.txt', snap))).toBe('v1');
      expect(files.readDir('/tmp', snap).map((e) => e.name)).not.toContain('later.txt');
      expect(dec.decode(await files.readFile('/tmp/r.txt'))).toBe('v2');
      expect(files.stat('/tmp/a', snap)).toMatchObject({ kind: 'dir', path: '/tmp/a', name: 'a' });
      await expect(files.readFile('/tmp/r.txt', 'bogus')).rejects.toMatchObject({ code: 'ENOENT' });
      expect(() => files.readDir('/nope')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
      sb.vfs.symlink('/tmp/r.txt', '/tmp/link');
      expect(files.stat('/tmp/link')).toMatchObject({ kind: 'symlink', target: '/tmp/r.txt' });
    } finally {
      await sb.destroy();
    }
  });

  it('keeps only a few snapshot views', async () => {
    const sb = await Sandbox.create();
    try {
      const files = new SandboxFiles(sb);
      for (let i = 0; i < 20; i++) {
        await files.writeFile('/tmp/n', enc.encode(String(i)));
        const id = String(sb.snapshot());
        expect(dec.decode(await files.readFile('/tmp/n', id))).toBe(String(i));
      }
      expect((files as unknown as { views: Map<string, unknown> }).views.size).toBeLessThanOrEqual(
        8,
      );
    } finally {
      await sb.destroy();
    }
  });
});
