/** Helpers shared by the timeline tests (not shipped code paths): a timeline over a bare VFS. */
import { Vfs, type Vfs as VfsApi } from '../vfs/index.js';
import type { SessionStateSource } from './host.js';
import { Timeline, type FinishedStep } from './model.js';
import { snapshotStoreOf } from './store.js';

/** Shell sessions that remember what was put back, with states a test sets. */
export class FakeSessions implements SessionStateSource {
  states = new Map<string, Uint8Array>();
  restored: Array<ReadonlyMap<string, Uint8Array>> = [];
  sessionStates(): ReadonlyMap<string, Uint8Array> {
    return this.states;
  }
  async restoreSessionStates(states: ReadonlyMap<string, Uint8Array>): Promise<void> {
    this.restored.push(states);
    this.states = new Map(states);
  }
}

export interface Harness {
  vfs: VfsApi;
  timeline: Timeline;
  sessions: FakeSessions;
  /** Runs `change` on the VFS, then records it as a step. */
  step(command: string, change?: (vfs: VfsApi) => void): ReturnType<Timeline['record']>;
}

export function harness(opts: { budget?: number; vfs?: VfsApi } = {}): Harness {
  const vfs = opts.vfs ?? Vfs.createDefault();
  const sessions = new FakeSessions();
  let n = 0;
  const timeline = new Timeline({
    sandboxId: 'sb1',
    store: snapshotStoreOf(vfs),
    sessions,
    newStepId: () => `st${++n}`,
    newBranchId: () => `br${++n}`,
    budgetBytes: () => opts.budget ?? 0,
  });
  const done = (command: string): FinishedStep => ({
    sessionId: 'api',
    sessionKind: 'api',
    command,
    status: 0,
    startedAt: Date.now(),
    durationMs: 1,
  });
  return {
    vfs,
    timeline,
    sessions,
    step: (command, change) => {
      change?.(vfs);
      return timeline.record(done(command));
    },
  };
}

const enc = new TextEncoder();
export const bytes = (s: string): Uint8Array => enc.encode(s);
export const read = (vfs: VfsApi, path: string): string =>
  new TextDecoder().decode(vfs.readFile(path));
