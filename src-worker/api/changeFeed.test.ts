import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FsChange, SandboxStats } from '../contract/api.js';
import { CHANGE_FLUSH_MS, ChangeFeed, STATS_FLUSH_MS } from './changeFeed.js';

afterEach(() => vi.useRealTimers());

const STATS: SandboxStats = { files: 1, bytes: 2, processes: [], running: null };

function feed() {
  const batches: FsChange[][] = [];
  let statsSent = 0;
  const f = new ChangeFeed(
    { changes: (c) => batches.push(c), stats: () => statsSent++ },
    () => STATS,
  );
  return { f, batches, stats: () => statsSent };
}

describe('ChangeFeed', () => {
  it('batches file changes and maps renames and restores', () => {
    vi.useFakeTimers();
    const { f, batches, stats } = feed();
    f.take({ type: 'file', change: 'created', path: '/a' });
    f.take({ type: 'file', change: 'renamed', path: '/b', oldPath: '/a' });
    f.take({ type: 'file', change: 'restored', path: '/' });
    expect(batches).toEqual([]);
    vi.advanceTimersByTime(CHANGE_FLUSH_MS);
    expect(batches).toEqual([
      [
        { kind: 'created', path: '/a' },
        { kind: 'deleted', path: '/a' },
        { kind: 'created', path: '/b' },
        { kind: 'modified', path: '/' },
      ],
    ]);
    vi.advanceTimersByTime(STATS_FLUSH_MS);
    expect(stats()).toBe(1);
  });

  it('turns a flood of changes into one reload and throttles stats', () => {
    vi.useFakeTimers();
    const { f, batches, stats } = feed();
    for (let i = 0; i < 10_000; i++) f.take({ type: 'file', change: 'created', path: `/f${i}` });
    for (let i = 0; i < 100; i++) f.scheduleStats();
    vi.advanceTimersByTime(STATS_FLUSH_MS);
    expect(batches.length).toBe(1);
    expect(batches[0]?.length).toBeLessThanOrEqual(2001);
    expect(batches[0]).toContainEqual({ kind: 'modified', path: '/' });
    expect(stats()).toBe(1);
  });

  it('sends nothing once disposed', () => {
    vi.useFakeTimers();
    const { f, batches, stats } = feed();
    f.take({ type: 'file', change: 'created', path: '/a' });
    f.dispose();
    vi.advanceTimersByTime(1000);
    expect([batches.length, stats()]).toEqual([0, 0]);
  });
});
