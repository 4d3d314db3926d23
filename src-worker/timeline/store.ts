/**
 * A VFS as the timeline's snapshot store: snapshots, diffs, and reads of one
 * file or one subtree inside a snapshot (through an O(1) fork at it).
 */
import { Errno, KernelError } from '../base/errno.js';
import { joinPath } from '../vfs/paths.js';
import {
  utf8ToPath,
  type BytePath,
  type FileContents,
  type NodeState,
  type Vfs,
} from '../vfs/index.js';
import type { SnapshotStore } from './host.js';

/** Immutable contents over bytes read out of a snapshot. */
export function bytesContents(bytes: Uint8Array): FileContents {
  return {
    size: bytes.length,
    identity: bytes,
    read: () => bytes,
    forEachBlock: (fn) => fn(bytes, bytes.byteLength),
  };
}

function missing(err: unknown): boolean {
  return err instanceof KernelError && (err.errno === Errno.ENOENT || err.errno === Errno.ENOTDIR);
}

export function snapshotStoreOf(vfs: Vfs): SnapshotStore {
  const at = (id: number | undefined): Vfs => (id === undefined ? vfs : vfs.fork(id));
  return {
    take: () => vfs.snapshot(),
    restore: (id) => vfs.restore(id),
    drop: (id) => vfs.dropSnapshot(id),
    diff: (from, to) => vfs.diffContents(from, to),
    readFile: (id, path) => {
      const view = at(id);
      const p = utf8ToPath(path);
      try {
        if (view.lstat(p).kind !== 'file') return null;
      } catch (err) {
        if (missing(err)) return null;
        throw err;
      }
      return view.readFile(p);
    },
    subtree: (id, top) => {
      const view = at(id);
      const out: Array<{ path: BytePath; state: NodeState }> = [];
      const visit = (dir: BytePath): void => {
        for (const e of view.readdir(dir)) {
          const path = joinPath(dir, e.name);
          const st = view.lstat(path);
          out.push({
            path,
            state: {
              kind: st.kind,
              mode: st.mode,
              uid: st.uid,
              gid: st.gid,
              mtime: st.mtime,
              size: st.size,
              target: st.kind === 'symlink' ? view.readlink(path) : '',
              device: st.device,
              contents: st.kind === 'file' ? bytesContents(view.readFile(path)) : null,
            },
          });
          if (st.kind === 'dir') visit(path);
        }
      };
      visit(top);
      return out;
    },
    liveBytes: () => vfs.usage().bytes,
  };
}
