/**
 * What the timeline needs from a sandbox, as small interfaces: the VFS's
 * snapshots and diffs, and the shells' session states (a Sandbox is one).
 * The model's tests use fakes.
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

/** The shells' side: the latest state blob of each live session, and putting states back. */
export interface SessionStateSource {
  sessionStates(): ReadonlyMap<string, Uint8Array>;
  restoreSessionStates(states: ReadonlyMap<string, Uint8Array>): Promise<void>;
}
