/**
 * Turns a sandbox's file and process events into API events: file changes
 * batched (a `cp -r` is a few events, not thousands) and stats throttled.
 */
import type { FsChange, SandboxStats } from '../contract/api.js';
import type { SandboxEvent } from '../sandbox/sandbox.js';

/** Change batches are flushed at most this often. */
export const CHANGE_FLUSH_MS = 30;
export const STATS_FLUSH_MS = 250;
/** A batch past this many changes becomes one "reload everything" (`/`). */
const MAX_BATCH = 2000;

export interface ChangeSink {
  changes(changes: FsChange[]): void;
  stats(stats: SandboxStats): void;
}

export class ChangeFeed {
  private pending: FsChange[] = [];
  private changeTimer: ReturnType<typeof setTimeout> | null = null;
  private statsTimer: ReturnType<typeof setTimeout> | null = null;
  private disposed = false;

  constructor(
    private readonly sink: ChangeSink,
    private readonly readStats: () => SandboxStats,
  ) {}

  /** Feeds one sandbox event. */
  take(e: SandboxEvent): void {
    if (e.type !== 'file') {
      // Process start/exit: only the stats change.
      this.scheduleStats();
      return;
    }
    switch (e.change) {
      case 'created':
      case 'modified':
      case 'deleted':
        this.queue({ kind: e.change, path: e.path });
        return;
      case 'renamed':
        if (e.oldPath !== undefined) this.queue({ kind: 'deleted', path: e.oldPath });
        this.queue({ kind: 'created', path: e.path });
        return;
      case 'restored':
        // The whole tree changed: `/` tells views to reload everything.
        this.queue({ kind: 'modified', path: '/' });
        return;
    }
  }

  private queue(change: FsChange): void {
    if (this.pending.length < MAX_BATCH) this.pending.push(change);
    else if (this.pending.length === MAX_BATCH) this.pending = [{ kind: 'modified', path: '/' }];
    if (this.changeTimer || this.disposed) return;
    this.changeTimer = setTimeout(() => {
      this.changeTimer = null;
      const changes = this.pending;
      this.pending = [];
      this.sink.changes(changes);
      this.scheduleStats();
    }, CHANGE_FLUSH_MS);
  }

  /** Sends stats soon, once however often it is asked. */
  scheduleStats(): void {
    if (this.statsTimer || this.disposed) return;
    this.statsTimer = setTimeout(() => {
      this.statsTimer = null;
      try {
        this.sink.stats(this.readStats());
      } catch {
        // A sandbox being destroyed has no stats; the next event brings them.
      }
    }, STATS_FLUSH_MS);
  }

  dispose(): void {
    this.disposed = true;
    if (this.changeTimer) clearTimeout(this.changeTimer);
    if (this.statsTimer) clearTimeout(this.statsTimer);
    this.pending = [];
  }
}
