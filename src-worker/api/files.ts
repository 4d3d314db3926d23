/**
 * File operations of the API over a sandbox, live or at a snapshot. A
 * snapshot is browsed through a VFS fork at it (O(1), shares the tree), so
 * the live sandbox is untouched; a few recent forks are kept for reuse.
 */
import type { FileEntry, FileKind } from '../contract/api.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { pathToUtf8, utf8ToPath, type NodeKind, type Stat, type Vfs } from '../vfs/index.js';
import { asEngineError, EngineError } from './errors.js';
import { baseName, joinPath, normalizePath } from './paths.js';

/** Snapshot views kept per sandbox; older ones are forked again when asked for. */
const MAX_VIEWS = 8;

function kindOf(kind: NodeKind): FileKind {
  return kind === 'file' || kind === 'dir' || kind === 'symlink' ? kind : 'other';
}

export class SandboxFiles {
  private readonly views = new Map<string, Vfs>();

  constructor(private readonly sandbox: Sandbox) {}

  private vfs(snapshotId?: string): Vfs {
    const live = this.sandbox.vfs;
    if (snapshotId === undefined) return live;
    let view = this.views.get(snapshotId);
    if (view) {
      this.views.delete(snapshotId);
    } else {
      if (!/^\d+$/.test(snapshotId))
        throw new EngineError('ENOENT', `no snapshot ${JSON.stringify(snapshotId)}`);
      view = live.fork(Number(snapshotId));
    }
    this.views.set(snapshotId, view);
    const oldest = this.views.keys().next().value;
    if (this.views.size > MAX_VIEWS && oldest !== undefined) this.views.delete(oldest);
    return view;
  }

  /** Drops the view of a released snapshot (its memory goes with it). */
  forget(snapshotId: string): void {
    this.views.delete(snapshotId);
  }

  /** Runs a VFS call with kernel errors turned into engine errors. */
  private at<T>(fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      throw asEngineError(err);
    }
  }

  private entry(vfs: Vfs, path: string, st: Stat): FileEntry {
    const entry: FileEntry = {
      name: path === '/' ? '/' : baseName(path),
      path,
      kind: kindOf(st.kind),
      mode: st.mode & 0o7777,
      size: st.size,
      mtimeMs: st.mtime,
    };
    if (st.kind === 'symlink') {
      try {
        entry.target = pathToUtf8(vfs.readlink(utf8ToPath(path)));
      } catch {
        // Unreadable link: shown without a target.
      }
    }
    return entry;
  }

  readDir(path: string, snapshotId?: string): FileEntry[] {
    const dir = normalizePath(path);
    return this.at(() => {
      const vfs = this.vfs(snapshotId);
      return vfs.readdir(utf8ToPath(dir)).map((e) => {
        const full = joinPath(dir, pathToUtf8(e.name));
        return this.entry(vfs, full, vfs.lstat(utf8ToPath(full)));
      });
    });
  }

  stat(path: string, snapshotId?: string): FileEntry {
    const p = normalizePath(path);
    return this.at(() => {
      const vfs = this.vfs(snapshotId);
      return this.entry(vfs, p, vfs.lstat(utf8ToPath(p)));
    });
  }

  async readFile(path: string, snapshotId?: string): Promise<Uint8Array> {
    const p = normalizePath(path);
    if (snapshotId === undefined) return this.sandbox.readFile(p).catch(rethrow);
    return this.at(() => this.vfs(snapshotId).readFile(utf8ToPath(p)));
  }

  writeFile(path: string, data: Uint8Array, mode?: number): Promise<void> {
    return this.sandbox
      .writeFile(normalizePath(path), data, mode !== undefined ? { mode } : {})
      .catch(rethrow);
  }

  mkdir(path: string, recursive = false): Promise<void> {
    return this.sandbox.mkdir(normalizePath(path), { recursive }).catch(rethrow);
  }

  remove(path: string, recursive: boolean): Promise<void> {
    return this.sandbox.remove(normalizePath(path), { recursive }).catch(rethrow);
  }

  rename(from: string, to: string): Promise<void> {
    return this.sandbox.rename(normalizePath(from), normalizePath(to)).catch(rethrow);
  }
}

function rethrow(err: unknown): never {
  throw asEngineError(err);
}
