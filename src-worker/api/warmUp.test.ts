import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WorkerPool } from '../proc/node/workerPool.js';
import { defaultProgramsDir } from '../sandbox/sandbox.js';
import { DEFAULT_SETTINGS, SandglassEngine } from './engine.js';

const haveShell = existsSync(join(defaultProgramsDir(), 'shell.wasm'));

afterAll(async () => {
  expect(await WorkerPool.drained()).toBe(true);
});

describe.skipIf(!haveShell)('SandglassEngine.warmUp', () => {
  it('leaves no sandbox behind, and the next sandbox (the spare) takes its own settings', async () => {
    const engine = new SandglassEngine();
    try {
      await engine.warmUp();
      expect(await engine.call('listSandboxes', {})).toEqual([]);
      const settings = { ...DEFAULT_SETTINGS, env: { GREETING: 'from the settings' } };
      const sb = await engine.call('createSandbox', { name: 'first', settings });
      const r = await engine.call('run', { sandboxId: sb.id, command: 'echo "$GREETING"; ls /' });
      expect(r.stdout).toMatch(/^from the settings\n/);
      expect(r.stdout).toContain('home');
      expect(r.status).toBe(0);
      // The next one is made afresh (no spare yet): independent trees.
      const other = await engine.call('createSandbox', { name: 'second' });
      await engine.call('writeFile', { sandboxId: sb.id, path: '/tmp/mine', base64: '' });
      await expect(
        engine.call('stat', { sandboxId: other.id, path: '/tmp/mine' }),
      ).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      await engine.dispose();
    }
  });
});
