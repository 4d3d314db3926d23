import { describe, expect, it } from 'vitest';
import type { Step } from '../contract/api.js';
import { LIMITS } from '../contract/constants.js';
import { OutputPreview } from './outputPreview.js';
import { StepLog } from './steps.js';

function log() {
  let snap = 0;
  let id = 0;
  const seen: Step[] = [];
  const steps = new StepLog(
    'sb1',
    () => String(snap++),
    () => `st${++id}`,
    (s) => seen.push(s),
  );
  return { steps, seen };
}

const done = (command: string) => ({
  sessionId: 'run1',
  sessionKind: 'api' as const,
  command,
  status: 0,
  startedAt: 0,
  durationMs: 1,
});

describe('StepLog', () => {
  it('records steps in order as a chain, each with its own snapshot', async () => {
    const { steps, seen } = log();
    const [a, b] = await Promise.all([steps.record(done('a')), steps.record(done('b'))]);
    expect([a.parentId, b.parentId, a.snapshotId, b.snapshotId]).toEqual([null, 'st1', '0', '1']);
    steps.head = 'st1';
    const c = await steps.record(done('c'));
    expect(c.parentId).toBe('st1');
    expect(seen.map((s) => s.command)).toEqual(['a', 'b', 'c']);
    expect(() => steps.get('st9')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });

  it('stores output previews with byte counts and cuts long command lines', async () => {
    const { steps } = log();
    const s = await steps.record({
      ...done('x'.repeat(LIMITS.commandChars + 10)),
      stdout: OutputPreview.of('y'.repeat(100_000)),
      stderr: OutputPreview.of(''),
    });
    expect(s.command.length).toBe(LIMITS.commandChars + 1);
    expect(s.stdoutBytes).toBe(100_000);
    expect(s.stdout?.length).toBeLessThan(2 * LIMITS.outputPreviewBytes + 100);
    expect([s.stderr, s.stderrBytes]).toEqual(['', 0]);
  });

  it('pages by count and by size, always making progress', async () => {
    const { steps } = log();
    for (let i = 0; i < 60; i++)
      await steps.record({
        ...done('c'.repeat(LIMITS.commandChars)),
        stdout: OutputPreview.of('o'),
      });
    expect(steps.page(0, 5)).toMatchObject({ total: 60, nextOffset: 5 });
    expect(steps.page(58, 5)).toMatchObject({ nextOffset: null });
    expect(steps.page(0, 10_000).steps.length).toBeLessThanOrEqual(LIMITS.stepsPageMax);
    // Big steps end a page early: its JSON stays under the bound.
    let offset: number | null = 0;
    let pages = 0;
    while (offset !== null) {
      const page = steps.page(offset, LIMITS.stepsPageMax);
      expect(page.steps.length).toBeGreaterThan(0);
      expect(JSON.stringify(page).length).toBeLessThan(LIMITS.stepsPageChars);
      offset = page.nextOffset;
      pages++;
    }
    expect(pages).toBeGreaterThan(1);
    expect(steps.page(99)).toEqual({ steps: [], total: 60, nextOffset: null });
  });
});
