import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Step } from '../contract/api.js';
import { WorkerPool } from '../proc/node/workerPool.js';
import { defaultProgramsDir } from '../sandbox/sandbox.js';
import { SandboxRegistry } from './registry.js';
import { KERNEL_DEFAULT_SETTINGS } from './settings.js';
import { Terminals } from './terminals.js';

const haveShell = existsSync(join(defaultProgramsDir(), 'shell.wasm'));

afterAll(async () => {
  expect(await WorkerPool.drained()).toBe(true);
});

describe.skipIf(!haveShell)('Terminals', () => {
  it('runs a shell, reports the running command, records steps and the exit', async () => {
    let n = 0;
    const newId = (p: string) => `${p}${++n}`;
    const steps: Step[] = [];
    const reg = new SandboxRegistry({
      newId,
      timelineEvents: () => ({ step: (s) => steps.push(s) }),
    });
    const entry = await reg.create('t', KERNEL_DEFAULT_SETTINGS);
    let out = '';
    const runningSeen: (string | undefined)[] = [];
    let exit: number | undefined;
    const terms = new Terminals(
      {
        data: (_e, _id, d) => (out += d),
        exit: (_e, _id, status) => (exit = status),
        running: (e) => runningSeen.push([...e.running.values()][0]),
      },
      newId,
    );
    try {
      const id = await terms.open(entry, { cols: 1e9, rows: -5, cwd: '/tmp' });
      expect(terms.sandboxOf(id)).toBe(entry.id);
      terms.write(id, 'pwd; sleep 0.2\r');
      const until = async (check: () => boolean) => {
        for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
        expect(check()).toBe(true);
      };
      await until(() => steps.length === 1);
      expect(out).toContain('/tmp');
      expect(steps[0]).toMatchObject({
        command: 'pwd; sleep 0.2',
        status: 0,
        sessionKind: 'terminal',
      });
      expect(runningSeen).toEqual(['pwd; sleep 0.2', undefined]);
      terms.resize(id, 100, 30);
      terms.write(id, 'exit 3\r');
      await until(() => exit !== undefined);
      expect(exit).toBe(3);
      expect(() => terms.write(id, 'x')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    } finally {
      terms.closeAll();
      await reg.destroyAll();
    }
  });
});
