import { describe, expect, it } from 'vitest';
import { LIMITS } from '../contract/constants.js';
import type { NetworkRecord } from '../contract/api.js';
import { bytes, harness, read } from './testUtil.js';

const MB = 1024 * 1024;

describe('Timeline steps and branches', () => {
  it('chains steps on main, each with its own snapshot and changes against its parent', async () => {
    const h = harness();
    const a = await h.step('a', (v) => v.writeFile('/tmp/a.txt', bytes('one\n')));
    const b = await h.step('b', (v) => {
      v.writeFile('/tmp/a.txt', bytes('one\ntwo\n'));
      v.writeFile('/tmp/b.txt', bytes('b'));
    });
    const c = await h.step('c', (v) => v.unlink('/tmp/b.txt'));
    expect([a.parentId, b.parentId, c.parentId]).toEqual([null, a.id, b.id]);
    expect(new Set([a.snapshotId, b.snapshotId, c.snapshotId]).size).toBe(3);
    expect(a.changes).toMatchObject({ added: 1, modified: 0, deleted: 0 });
    expect(b.changes).toMatchObject({ added: 1, modified: 1, deleted: 0 });
    expect(c.changes.paths).toEqual([{ path: '/tmp/b.txt', change: 'deleted', kind: 'file' }]);
    expect(h.timeline.branches()).toMatchObject([
      { name: 'main', headStepId: c.id, stepCount: 3, forkedFrom: null },
    ]);
    expect(h.timeline.info(false)).toMatchObject({ headStepId: c.id, stepCount: 3 });
  });

  it('restores non-destructively: a restore step, then a new branch; every step stays', async () => {
    const h = harness();
    const a = await h.step('a', (v) => v.writeFile('/tmp/f', bytes('A')));
    const b = await h.step('b', (v) => v.writeFile('/tmp/f', bytes('B')));
    const r = await h.timeline.restore(a.id);
    expect(read(h.vfs, '/tmp/f')).toBe('A');
    expect(r).toMatchObject({ kind: 'restore', parentId: a.id, restoredFrom: a.id });
    const c = await h.step('c', (v) => v.writeFile('/tmp/f', bytes('C')));
    expect(c.parentId).toBe(r.id);
    const branches = h.timeline.branches();
    expect(branches.map((x) => [x.name, x.forkedFrom, x.headStepId, x.stepCount])).toEqual([
      ['main', null, b.id, 2],
      ['branch-2', a.id, c.id, 2],
    ]);
    // Restoring a branch tip continues that branch.
    const r2 = await h.timeline.restore(b.id);
    expect(r2.branchId).toBe(branches[0]?.id);
    expect(read(h.vfs, '/tmp/f')).toBe('B');
    expect(h.timeline.page(0, 100, branches[1]?.id).steps.map((s) => s.id)).toEqual([r.id, c.id]);
    expect(h.timeline.size).toBe(5);
  });

  it('renames branches with unique, non-empty names', async () => {
    const h = harness();
    await h.step('a');
    await h.step('a2');
    const main = h.timeline.branches()[0];
    expect(h.timeline.renameBranch(main?.id ?? '', '  trunk ').name).toBe('trunk');
    expect(() => h.timeline.renameBranch(main?.id ?? '', ' ')).toThrow(/must not be empty/);
    expect(() => h.timeline.renameBranch('nope', 'x')).toThrow(/no branch/);
    const first = h.timeline.steps()[0];
    await h.timeline.restore(first?.id ?? '');
    await h.step('b');
    const second = h.timeline.branches()[1];
    expect(() => h.timeline.renameBranch(second?.id ?? '', 'trunk')).toThrow(/already named/);
  });

  it('saves the shell session states with each step and puts them back on restore', async () => {
    const h = harness();
    h.sessions.states = new Map([['term1', bytes('cwd=/tmp x=1')]]);
    const a = await h.step('cd /tmp; x=1');
    h.sessions.states = new Map([['term1', bytes('cwd=/ x=2')]]);
    await h.step('cd /; x=2');
    await h.timeline.restore(a.id);
    const put = h.sessions.restored.at(-1);
    expect(put && new TextDecoder().decode(put.get('term1'))).toBe('cwd=/tmp x=1');
    expect(h.timeline.sessionsOf(a.id).size).toBe(1);
  });

  it('takes what a new sandbox was given as its origin, until the first step', async () => {
    const h = harness();
    const origins: number[] = [];
    h.timeline.onOrigin(() => origins.push(h.timeline.origin));
    const before = h.timeline.retainedBytes;
    for (let i = 0; i < 50; i++) h.vfs.writeFile(`/tmp/given${i}`, bytes('x'.repeat(1000)));
    const first = h.timeline.origin;
    expect(await h.timeline.rebaseOrigin()).toBe(true);
    expect(origins).toEqual([h.timeline.origin]);
    expect(h.timeline.origin).not.toBe(first);
    // The origin holds (and is charged for) what was given; the step lists only its own change.
    expect(h.timeline.retainedBytes).toBeGreaterThanOrEqual(before + 50_000);
    const a = await h.step('a', (v) => v.writeFile('/tmp/a', bytes('A')));
    expect(a.changes).toMatchObject({ added: 1, modified: 0, deleted: 0 });
    expect(h.timeline.stepChanges(a.id).map((c) => c.path)).toEqual(['/tmp/a']);
    expect(h.timeline.fileAt(a.id, '/tmp/given7')).toEqual(bytes('x'.repeat(1000)));
    // Restoring the first step keeps what the origin holds.
    await h.step('rm', (v) => v.unlink('/tmp/given7'));
    await h.timeline.restore(a.id);
    expect(read(h.vfs, '/tmp/given7')).toBe('x'.repeat(1000));
    // Once a step exists, the origin stays.
    h.vfs.writeFile('/tmp/late', bytes('L'));
    expect(await h.timeline.rebaseOrigin()).toBe(false);
    expect(origins).toHaveLength(1);
    const late = await h.step('late');
    expect(late.changes.paths.map((c) => c.path)).toEqual(['/tmp/late']);
  });

  it('lists a bounded number of changed paths, and pages the rest', async () => {
    const h = harness();
    const s = await h.step('many', (v) => {
      for (let i = 0; i < 120; i++) v.writeFile(`/tmp/f${String(i).padStart(3, '0')}`, bytes('x'));
    });
    expect(s.changes).toMatchObject({ added: 120, truncated: true });
    expect(s.changes.paths).toHaveLength(LIMITS.stepChangedPaths);
    expect(h.timeline.stepChanges(s.id)).toHaveLength(120);
  });

  it('pages steps under a size bound and keeps network records bounded', async () => {
    const h = harness();
    for (let i = 0; i < 5; i++) await h.step(`s${i}`);
    const page = h.timeline.page(1, 2);
    expect([page.steps.length, page.total, page.nextOffset]).toEqual([2, 5, 3]);
    const rec: NetworkRecord = {
      time: new Date(0).toISOString(),
      sandboxId: 'sb1',
      stepId: null,
      pid: 7,
      argv: ['curl'],
      hop: 0,
      reason: null,
      addresses: [],
      url: `https://example.com/${'x'.repeat(5000)}`,
      method: 'GET',
      decision: 'deny',
      decidedBy: 'policy',
      rule: 'default',
      status: null,
      message: 'denied',
      bytesSent: 0,
      bytesReceived: 0,
      durationMs: 0,
      approvalWaitMs: 0,
    };
    const id = h.timeline.steps()[0]?.id ?? '';
    for (let i = 0; i < LIMITS.stepNetworkRecords + 10; i++) h.timeline.addNetworkRecord(id, rec);
    const step = h.timeline.get(id);
    expect(step.network).toHaveLength(LIMITS.stepNetworkRecords);
    expect(step.network[0]?.url.length).toBeLessThan(2100);
    expect(() => h.timeline.page(0, 10, 'nope')).toThrow(/no branch/);
  });
});

describe('Timeline snapshot retention', () => {
  it('keeps memory bounded: 200 steps rewriting a 5 MB file stay within the budget', async () => {
    const budget = 64 * MB;
    const h = harness({ budget });
    h.vfs.setLimits({ maxBytes: 1024 * MB });
    const file = new Uint8Array(5 * MB);
    const before = process.memoryUsage().arrayBuffers;
    for (let i = 0; i < 200; i++) {
      file.fill(i & 0xff);
      await h.step(`write ${i}`, (v) => v.writeFile('/tmp/big', file));
      expect(h.timeline.retainedBytes).toBeLessThanOrEqual(budget);
    }
    const steps = h.timeline.steps();
    const kept = steps.filter((s) => !s.snapshotReleased);
    expect(kept.length).toBeGreaterThan(5);
    expect(kept.length).toBeLessThan(14);
    expect(steps).toHaveLength(200);
    // The VFS holds the origin and the kept snapshots only.
    expect(h.vfs.snapshots().length).toBe(kept.length + 1);
    (globalThis as { gc?: () => void }).gc?.();
    const grown = process.memoryUsage().arrayBuffers - before;
    expect(grown).toBeLessThan(200 * MB);
    const old = steps[0]?.id ?? '';
    await expect(h.timeline.restore(old)).rejects.toMatchObject({ code: 'ESNAPRELEASED' });
    expect(() => h.timeline.checkSnapshotId(steps[0]?.snapshotId ?? '')).toThrow(/released/);
    // The newest step is still restorable.
    await h.timeline.restore(steps[199]?.id ?? '');
  });

  it('releases snapshots off the head’s path before those on it', async () => {
    const h = harness({ budget: 0 });
    const big = (n: number) => new Uint8Array(MB).fill(n);
    const a = await h.step('a', (v) => v.writeFile('/tmp/f', big(1)));
    const b = await h.step('b', (v) => v.writeFile('/tmp/f', big(2)));
    await h.timeline.restore(a.id);
    const c = await h.step('c', (v) => v.writeFile('/tmp/f', big(3)));
    // Three distinct MiB-sized contents; a budget for about two and a half.
    const origin = h.timeline.retainedBytes - 3 * MB - 2000;
    const tight = harnessBudget(h, origin + 2.5 * MB);
    tight();
    const released = h.timeline
      .steps()
      .filter((s) => s.snapshotReleased)
      .map((s) => s.id);
    expect(released).toEqual([b.id]);
    expect(h.timeline.get(c.id).snapshotReleased).toBe(false);
  });

  it('keeps counting content a released step’s children still hold', async () => {
    const h = harness({ budget: 0 });
    const a = await h.step('a', (v) => v.writeFile('/tmp/keep', new Uint8Array(2 * MB).fill(7)));
    await h.step('b', (v) => v.writeFile('/tmp/small', bytes('s')));
    const before = h.timeline.retainedBytes;
    h.timeline.release(a.id);
    // /tmp/keep lives on in b's snapshot: still charged.
    expect(h.timeline.retainedBytes).toBeGreaterThan(before - 64 * 1024);
    expect(h.timeline.get(a.id)).toMatchObject({ snapshotReleased: true, recordingBytes: 0 });
  });
});

/** Sets a harness's budget after the fact and enforces it. */
function harnessBudget(h: ReturnType<typeof harness>, budget: number): () => void {
  const options = (h.timeline as unknown as { options: { budgetBytes: () => number } }).options;
  options.budgetBytes = () => budget;
  return () => h.timeline.enforceBudget();
}
