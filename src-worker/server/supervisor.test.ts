/**
 * The restart logic shared by the web entry (a forked child) and Electron's
 * main (a utilityProcess, which cannot be launched here), driven with a fake
 * process: restarts after a crash, the restart budget, the question whether
 * to restart at all, and a stop that is not taken for a crash.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { Supervisor, type SupervisedProcess } from './supervisor.js';

/** A process that exits when told to, or when the test crashes it. */
class FakeProcess extends EventEmitter implements SupervisedProcess {
  readonly killedWith: (NodeJS.Signals | undefined)[] = [];

  constructor(readonly restarted: boolean) {
    super();
  }

  override once(
    event: 'exit',
    listener: (code: number | null, signal?: NodeJS.Signals | null) => void,
  ): this {
    return super.once(event, listener);
  }

  crash(code: number | null, signal: NodeJS.Signals | null = null): void {
    this.emit('exit', code, signal);
  }

  kill(signal?: NodeJS.Signals): boolean {
    this.killedWith.push(signal);
    // A utilityProcess's kill ends it whatever the signal.
    queueMicrotask(() => this.emit('exit', null, signal ?? 'SIGTERM'));
    return true;
  }
}

function supervised(options: { maxRestarts?: number; shouldRestart?: () => boolean } = {}) {
  const started: FakeProcess[] = [];
  const crashes: (number | null)[] = [];
  const restartedWith: FakeProcess[] = [];
  let gaveUp = 0;
  const supervisor = new Supervisor<FakeProcess>({
    start: (restarted) => {
      const p = new FakeProcess(restarted);
      started.push(p);
      return p;
    },
    onCrash: (code) => crashes.push(code),
    onRestart: (child) => restartedWith.push(child),
    onGiveUp: () => gaveUp++,
    ...options,
  });
  return { supervisor, started, crashes, restartedWith, gaveUp: () => gaveUp };
}

describe('Supervisor', () => {
  it('starts a new process, told it is a restart, when one crashes', () => {
    const s = supervised();
    expect(s.started.map((p) => p.restarted)).toEqual([false]);
    s.started[0]?.crash(1);
    expect(s.crashes).toEqual([1]);
    expect(s.started.map((p) => p.restarted)).toEqual([false, true]);
    expect(s.supervisor.child).toBe(s.started[1]);
    expect(s.restartedWith).toEqual([s.started[1]]);
    expect(s.supervisor.restarted).toBe(1);
    expect(s.supervisor.running).toBe(true);
  });

  it('ignores the exit of a process it already replaced', () => {
    const s = supervised();
    const first = s.started[0];
    first?.crash(1);
    first?.crash(1);
    expect(s.started).toHaveLength(2);
  });

  it('gives up after the allowed restarts within the window', () => {
    const s = supervised({ maxRestarts: 2 });
    for (let i = 0; i < 3; i++) s.supervisor.child.crash(null, 'SIGKILL');
    expect(s.started).toHaveLength(3);
    expect(s.gaveUp()).toBe(1);
    expect(s.supervisor.running).toBe(false);
  });

  it('does not restart when told not to, and says it is not running', () => {
    let windows = 1;
    const s = supervised({ shouldRestart: () => windows > 0 });
    windows = 0;
    s.started[0]?.crash(0);
    expect(s.crashes).toEqual([0]);
    expect(s.started).toHaveLength(1);
    expect(s.gaveUp()).toBe(0);
    expect(s.supervisor.running).toBe(false);
  });

  it('stops without taking the exit for a crash', async () => {
    const s = supervised();
    await s.supervisor.stop(1_000);
    expect(s.started[0]?.killedWith).toEqual(['SIGTERM']);
    expect(s.crashes).toEqual([]);
    expect(s.started).toHaveLength(1);
    expect(s.supervisor.running).toBe(false);
    // Stopping again, or after the process is gone, is a no-op.
    await s.supervisor.stop(1_000);
    expect(s.started[0]?.killedWith).toEqual(['SIGTERM']);
  });
});
