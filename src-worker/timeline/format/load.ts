/**
 * Turns a validated timeline file into a sandbox's timeline: the origin tree
 * first (before the timeline takes its origin snapshot), then every step's
 * tree rebuilt on its base's snapshot and snapshotted, with fresh ids.
 */
import type { Step } from '../../contract/api.js';
import type { SnapshotId, Vfs } from '../../vfs/index.js';
import { pathChanges } from '../changes.js';
import { TimelineError, type Timeline } from '../model.js';
import { applyTree, replaceTree } from './apply.js';
import type { TimelineData } from './schema.js';

function applying<T>(what: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new TimelineError('EBADTIMELINE', `timeline file: cannot build ${what}: ${why}`);
  }
}

/** Makes `vfs` hold the file's origin tree (call before the sandbox's timeline exists). */
export function buildOrigin(vfs: Vfs, data: TimelineData): void {
  applying('the origin tree', () => replaceTree(vfs, data.origin, blobOf(data)));
}

function blobOf(data: TimelineData): (hash: string) => Uint8Array {
  return (hash) => {
    const b = data.blobs.get(hash);
    if (!b) throw new Error(`missing blob ${hash}`);
    return b;
  };
}

/** Adds the file's steps to a fresh timeline over `vfs`, and moves the live tree to its head. */
export function loadSteps(timeline: Timeline, vfs: Vfs, data: TimelineData): void {
  const blob = blobOf(data);
  const snapshots = new Map<string, SnapshotId>();
  const ids = new Map<string, string>();
  const branchNames = new Map(data.manifest.branches.map((b) => [b.id, b.name]));
  timeline.deferBudget = true;
  try {
    for (const meta of data.manifest.steps) {
      const tree = data.trees.get(meta.id);
      let snapshot: SnapshotId | null = null;
      let changes: ReturnType<typeof pathChanges> = [];
      if (tree) {
        const base =
          tree.base === null ? timeline.origin : (snapshots.get(tree.base) as SnapshotId);
        vfs.restore(base);
        applying(`step ${meta.id}`, () => applyTree(vfs, tree.deleted, tree.set, blob));
        snapshot = vfs.snapshot();
        snapshots.set(meta.id, snapshot);
        changes = pathChanges(vfs.diffContents(base, snapshot));
      }
      const recording = data.recordings.get(meta.id) ?? null;
      const step: Omit<Step, 'id' | 'parentId' | 'branchId' | 'sandboxId' | 'snapshotReleased'> = {
        kind: meta.kind,
        sessionId: meta.sessionId,
        sessionKind: meta.sessionKind,
        command: meta.command,
        status: meta.status,
        startedAt: meta.startedAt,
        durationMs: meta.durationMs,
        snapshotId: snapshot === null ? '' : String(snapshot),
        changes: { added: 0, modified: 0, deleted: 0, paths: [], truncated: false },
        network: meta.network,
        recordingBytes: 0,
      };
      for (const k of ['stdout', 'stderr', 'stdoutBytes', 'stderrBytes'] as const)
        if (meta[k] !== undefined) Object.assign(step, { [k]: meta[k] });
      if (meta.restoredFrom !== undefined) step.restoredFrom = ids.get(meta.restoredFrom) as string;
      if (meta.origin !== undefined) step.origin = { ...meta.origin };
      const sessions = new Map(
        Object.entries(tree?.sessions ?? {}).map(([name, b64]) => [
          name,
          new Uint8Array(Buffer.from(b64, 'base64')),
        ]),
      );
      const parentId = meta.parentId === null ? null : (ids.get(meta.parentId) as string);
      const added = timeline.loadStep(
        { step, snapshot, sessions, recording, changes },
        parentId,
        meta.branchId,
        branchNames.get(meta.branchId) ?? meta.branchId,
      );
      ids.set(meta.id, added.id);
    }
    const head = data.manifest.head;
    const headSnapshot = head === null ? timeline.origin : snapshots.get(head);
    vfs.restore(headSnapshot ?? timeline.origin);
    timeline.loadHead(head === null ? null : (ids.get(head) as string), data.manifest.branchId);
  } finally {
    timeline.deferBudget = false;
  }
  timeline.enforceBudget();
}
