import { describe, expect, it } from 'vitest';
import { MAX_GAP_MS, Player, type Clock, type PlayerFrame } from './player.js';

/** A clock that runs timers when told, recording the delays asked for. */
class FakeClock implements Clock {
  now = 0;
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private ids = 0;
  delays: number[] = [];
  setTimeout(fn: () => void, ms: number): unknown {
    this.delays.push(ms);
    const id = ++this.ids;
    this.timers.push({ at: this.now + ms, fn, id });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((t) => t.id !== handle);
  }
  /** Runs every timer (and the promise jobs between them) until none is left. */
  async drain(): Promise<void> {
    for (let guard = 0; guard < 1000; guard++) {
      await new Promise((r) => setTimeout(r, 0));
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers.shift();
      if (!next) return;
      this.now = next.at;
      next.fn();
    }
  }
}

function setup(speed = 1) {
  const clock = new FakeClock();
  const log: string[] = [];
  const recordings: Record<string, PlayerFrame[]> = {
    s1: [
      { t: 0, data: 'a' },
      { t: 100, data: 'b' },
    ],
    s2: [{ t: 50, data: 'c' }],
    s3: [],
  };
  const player = new Player(
    [
      { id: 's1', startedAt: 1000 },
      { id: 's2', startedAt: 1300 },
      { id: 's3', startedAt: 100_000 },
    ],
    {
      frames: (id) => Promise.resolve(recordings[id] ?? []),
      enter: (id) => log.push(`enter ${id}`),
      write: (d) => log.push(`write ${d}`),
      stopped: (end) => log.push(end ? 'end' : 'paused'),
      speed: () => speed,
    },
    clock,
  );
  return { clock, log, player };
}

describe('Player', () => {
  it('writes each step’s frames in order at the recorded offsets, then stops at the end', async () => {
    const { clock, log, player } = setup();
    player.play(0);
    await clock.drain();
    expect(log).toEqual([
      'enter s1',
      'write a',
      'write b',
      'enter s2',
      'write c',
      'enter s3',
      'end',
    ]);
    // 100 ms between a and b; 200 ms left of s1's 300 ms span; 50 ms into s2; the long idle capped.
    expect(clock.delays).toEqual([100, 200, 50, MAX_GAP_MS]);
    expect(player.playing).toBe(false);
  });

  it('divides the waits by the speed', async () => {
    const { clock, player } = setup(4);
    player.play(0);
    await clock.drain();
    expect(clock.delays).toEqual([25, 50, 12.5, MAX_GAP_MS / 4]);
  });

  it('stops writing when paused and starts again from any step', async () => {
    const { clock, log, player } = setup();
    player.play(0);
    await new Promise((r) => setTimeout(r, 0));
    player.pause();
    await clock.drain();
    expect(log).toEqual(['enter s1', 'write a', 'paused']);
    log.length = 0;
    player.play(2);
    await clock.drain();
    expect(log).toEqual(['enter s3', 'end']);
  });
});
