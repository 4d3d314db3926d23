/**
 * What the timeline needs from a sandbox, as small interfaces: the VFS's
 * snapshots and diffs, and the shells' session states. The engine adapts a
 * real Sandbox to these; the model's tests use fakes.
 */
import type { BytePath, NodeState, SnapshotId, VfsContentChange } from '../vfs/index.js';

/** The VFS side: O(1) snapshots, restore, release, and diffs proportional to change. */
export interface SnapshotStore {
  take(): SnapshotId;
  restore(id: SnapshotId): void;
  drop(id: SnapshotId): void;
  /** Changes from `from` (null: the empty tree) to `to` (default: the live tree). */
  diff(from: SnapshotId | null, to?: SnapshotId): VfsContentChange[];
  /** A regular file's bytes in a snapshot (undefined: the live tree); null when absent or not a file. */
  readFile(at: SnapshotId | undefined, path: string): Uint8Array | null;
  /** Every node under `path` in a snapshot (path itself excluded), parents first. */
  subtree(at: SnapshotId, path: BytePath): Array<{ path: BytePath; state: NodeState }>;
  /** Bytes the live tree holds (what an origin snapshot is charged). */
  liveBytes(): number;
}

/** A command line as the shell reports it (see Sandbox.onCommand). */
export type CommandEvent =
  | { type: 'start'; session: string; command: string; startedAt: number }
  | {
      type: 'end';
      session: string;
      command: string;
      status: number;
      startedAt: number;
      durationMs: number;
      state: Uint8Array;
    };

/** The shells' side: the latest state blob of each live session, and putting states back. */
export interface SessionStateSource {
  sessionStates(): ReadonlyMap<string, Uint8Array>;
  restoreSessionStates(states: ReadonlyMap<string, Uint8Array>): Promise<void>;
}

/** Shell sessions of a sandbox that cannot report their state (no session capture). */
export const NO_SESSION_STATES: SessionStateSource = {
  sessionStates: () => new Map(),
  restoreSessionStates: async () => undefined,
};

/** Session states of a sandbox, when its shells support capture. */
export function sessionStatesOf(sandbox: object): SessionStateSource {
  const s = sandbox as Partial<SessionStateSource>;
  if (typeof s.sessionStates === 'function' && typeof s.restoreSessionStates === 'function')
    return {
      sessionStates: () => (s.sessionStates as () => ReadonlyMap<string, Uint8Array>).call(sandbox),
      restoreSessionStates: (states) =>
        (s.restoreSessionStates as (m: ReadonlyMap<string, Uint8Array>) => Promise<void>).call(
          sandbox,
          states,
        ),
    };
  return NO_SESSION_STATES;
}
