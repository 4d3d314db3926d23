import { afterAll, describe, expect, it } from 'vitest';
import type { Step } from '../contract/api.js';
import { WorkerPool } from '../proc/node/workerPool.js';
import { SandboxRegistry } from './registry.js';
import { DEFAULT_SETTINGS } from './settings.js';

afterAll(async () => {
  expect(await WorkerPool.drained()).toBe(true);
});

function registry() {
  let n = 0;
  const steps: Step[] = [];
  const reg = new SandboxRegistry({
    newId: (p) => `${p}${++n}`,
    timelineEvents: () => ({ step: (s) => steps.push(s) }),
  });
  return { reg, steps };
}

describe('SandboxRegistry', () => {
  it('holds Sandboxes by id, with names checked and settings applied', async () => {
    const { reg } = registry();
    const a = await reg.create(' a ', DEFAULT_SETTINGS);
    expect(a.info).toMatchObject({ id: a.id, name: 'a', settings: DEFAULT_SETTINGS });
    expect(a.sandbox.vfs.limits.maxFileSize).toBe(DEFAULT_SETTINGS.limits.fileBytes);
    await expect(reg.create(' ', DEFAULT_SETTINGS)).rejects.toMatchObject({ code: 'EINVAL' });
    expect(reg.rename(a.id, 'b').name).toBe('b');
    reg.configure(a.id, {
      ...DEFAULT_SETTINGS,
      limits: { ...DEFAULT_SETTINGS.limits, processCount: 3 },
    });
    expect(a.sandbox.limits.maxProcesses).toBe(3);
    expect(reg.list().map((i) => i.name)).toEqual(['b']);
    let detached = false;
    a.detach = () => (detached = true);
    await reg.destroy(a.id);
    expect(detached).toBe(true);
    expect(reg.has(a.id)).toBe(false);
    expect(() => reg.get(a.id)).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    await reg.destroyAll();
  });

  it('reports steps of live sandboxes only', async () => {
    const { reg, steps } = registry();
    const a = await reg.create('a', DEFAULT_SETTINGS);
    const done = {
      sessionId: 's',
      sessionKind: 'api' as const,
      command: 'x',
      status: 0,
      startedAt: 0,
      durationMs: 0,
    };
    await a.steps.record(done);
    expect(steps).toHaveLength(1);
    await reg.destroy(a.id);
    await a.steps.record(done).catch(() => undefined);
    expect(steps).toHaveLength(1);
  });
});
