import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { Supervisor } from './supervisor.js';

/** Shaped like Electron's UtilityProcess: 'exit' carries a code only, kill() takes no signal. */
class FakeUtilityProcess extends EventEmitter {
  killed = 0;
  constructor(readonly restarted: boolean) {
    super();
  }
  kill(): boolean {
    this.killed++;
    queueMicrotask(() => this.emit('exit', 0));
    return true;
  }
  crash(code: number): void {
    this.emit('exit', code);
  }
}

function supervise(options: { windows?: () => boolean; maxRestarts?: number } = {}) {
  const started: FakeUtilityProcess[] = [];
  const events: string[] = [];
  const supervisor = new Supervisor({
    start: (restarted) => {
      const p = new FakeUtilityProcess(restarted);
      started.push(p);
      return p;
    },
    onCrash: (code, signal) => events.push(`crash ${String(code)} ${String(signal)}`),
    ...(options.windows ? { shouldRestart: options.windows } : {}),
    onRestart: (p) => events.push(`restart ${String(started.indexOf(p))}`),
    onGiveUp: (code) => events.push(`give up ${String(code)}`),
    ...(options.maxRestarts !== undefined ? { maxRestarts: options.maxRestarts } : {}),
  });
  return { supervisor, started, events };
}

describe('Supervisor', () => {
  it('restarts a crashed process, telling the new one it is a restart', () => {
    const { supervisor, started, events } = supervise();
    expect(started.map((p) => p.restarted)).toEqual([false]);
    started[0]?.crash(9);
    expect(started.map((p) => p.restarted)).toEqual([false, true]);
    expect(supervisor.child).toBe(started[1]);
    expect(supervisor.restarted).toBe(1);
    expect(supervisor.running).toBe(true);
    expect(events).toEqual(['crash 9 null', 'restart 1']);
    // An exit of a process that was already replaced changes nothing.
    started[0]?.crash(1);
    expect(started).toHaveLength(2);
  });

  it('restarts also without an onRestart callback', () => {
    const started: FakeUtilityProcess[] = [];
    new Supervisor({
      start: (restarted) => {
        started.push(new FakeUtilityProcess(restarted));
        return started.at(-1) as FakeUtilityProcess;
      },
    });
    started[0]?.crash(1);
    expect(started.map((p) => p.restarted)).toEqual([false, true]);
  });

  it('gives up after maxRestarts crashes within the window', () => {
    const { supervisor, started, events } = supervise({ maxRestarts: 2 });
    for (let i = 0; i < 3; i++) started[i]?.crash(1);
    expect(started).toHaveLength(3);
    expect(events.at(-1)).toBe('give up 1');
    expect(supervisor.running).toBe(false);
  });

  it('does not restart when told not to (Electron with no window open), and stops', () => {
    let windows = true;
    const { supervisor, started } = supervise({ windows: () => windows });
    windows = false;
    started[0]?.crash(3);
    expect(started).toHaveLength(1);
    expect(supervisor.running).toBe(false);
  });

  it('stop() kills the current process and does not restart it', async () => {
    const { supervisor, started } = supervise();
    await supervisor.stop();
    expect(started[0]?.killed).toBe(1);
    expect(started).toHaveLength(1);
    expect(supervisor.running).toBe(false);
    await supervisor.stop(); // already stopped: nothing to kill
    expect(started[0]?.killed).toBe(1);
  });
});
