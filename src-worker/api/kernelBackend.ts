/**
 * Adapts the kernel's Sandbox (src-worker/sandbox) to BackendSandbox: the
 * one file that knows the kernel's API. Snapshot browsing reads a VFS fork at
 * that snapshot (O(1), shares the tree) so the live sandbox is untouched.
 */
import type { FileKind, FsChange, SandboxSettings } from '../contract/api.js';
import { Errno, KernelError } from '../base/errno.js';
import { Sandbox, type SandboxEvent, type SandboxOptions } from '../sandbox/sandbox.js';
import { pathToUtf8, utf8ToPath, type NodeKind, type Stat, type Vfs } from '../vfs/index.js';
import {
  BackendError,
  type BackendDirEntry,
  type BackendRunOptions,
  type BackendRunResult,
  type BackendSandbox,
  type BackendStat,
  type BackendStats,
  type BackendTerminal,
} from './backend.js';
import { joinPath } from './paths.js';

function kindOf(kind: NodeKind): FileKind {
  return kind === 'file' || kind === 'dir' || kind === 'symlink' ? kind : 'other';
}

/** Kernel errors carry POSIX codes; keep them, or call it EIO. */
function rethrow(err: unknown, what?: string): never {
  if (err instanceof KernelError) {
    throw new BackendError(
      Errno[err.errno] ?? 'EIO',
      what ? `${what}: ${err.message}` : err.message,
    );
  }
  if (err instanceof Error) {
    const code = (err as Error & { code?: unknown }).code;
    throw new BackendError(typeof code === 'string' ? code : 'EIO', err.message);
  }
  throw new BackendError('EIO', String(err));
}

/** Snapshot ids cross the API as strings; the kernel's are integers. */
function parseSnapshotId(id: string): number {
  if (!/^\d+$/.test(id)) throw new BackendError('ENOENT', `no snapshot ${JSON.stringify(id)}`);
  return Number(id);
}

function limitsOf(settings: SandboxSettings): SandboxOptions {
  const l = settings.limits;
  const limits: { wallTimeMs?: number; maxProcesses?: number; outputBytes?: number } = {};
  if (settings.timeoutMs > 0) limits.wallTimeMs = settings.timeoutMs;
  if (l.processCount > 0) limits.maxProcesses = l.processCount;
  if (l.outputBytes > 0) limits.outputBytes = l.outputBytes;
  const vfsLimits: { maxBytes?: number; maxFileSize?: number; maxNodes?: number } = {};
  if (l.totalBytes > 0) vfsLimits.maxBytes = l.totalBytes;
  if (l.fileBytes > 0) vfsLimits.maxFileSize = l.fileBytes;
  if (l.nodeCount > 0) vfsLimits.maxNodes = l.nodeCount;
  return { limits, vfsLimits, env: settings.env };
}

export class KernelBackend implements BackendSandbox {
  readonly kind = 'kernel';
  private settings: SandboxSettings;
  private readonly views = new Map<string, Vfs>();

  private constructor(
    private readonly sandbox: Sandbox,
    settings: SandboxSettings,
  ) {
    this.settings = settings;
  }

  static async create(settings: SandboxSettings, programsDir?: string): Promise<KernelBackend> {
    const options = limitsOf(settings);
    const sandbox = await Sandbox.create(
      programsDir !== undefined ? { ...options, programsDir } : options,
    );
    return new KernelBackend(sandbox, settings);
  }

  private vfs(snapshotId?: string): Vfs {
    const live = this.sandbox.vfs;
    if (snapshotId === undefined) return live;
    let view = this.views.get(snapshotId);
    if (!view) {
      try {
        view = live.fork(parseSnapshotId(snapshotId));
      } catch (err) {
        rethrow(err);
      }
      this.views.set(snapshotId, view);
    }
    return view;
  }

  private statOf(vfs: Vfs, path: string, st: Stat): BackendStat {
    const stat: BackendStat = {
      kind: kindOf(st.kind),
      mode: st.mode,
      size: st.size,
      mtimeMs: st.mtime,
    };
    if (st.kind === 'symlink') {
      try {
        stat.target = pathToUtf8(vfs.readlink(utf8ToPath(path)));
      } catch {
        // Unreadable link: shown without a target.
      }
    }
    return stat;
  }

  async readFile(path: string, snapshotId?: string): Promise<Uint8Array> {
    if (snapshotId === undefined) return this.sandbox.readFile(path).catch(rethrow);
    try {
      return this.vfs(snapshotId).readFile(utf8ToPath(path));
    } catch (err) {
      return rethrow(err);
    }
  }

  writeFile(path: string, data: Uint8Array): Promise<void> {
    return this.sandbox.writeFile(path, data).catch(rethrow);
  }

  async readDir(path: string, snapshotId?: string): Promise<BackendDirEntry[]> {
    try {
      const vfs = this.vfs(snapshotId);
      return vfs.readdir(utf8ToPath(path)).map((e) => {
        const name = pathToUtf8(e.name);
        const full = joinPath(path, name);
        return { name, stat: this.statOf(vfs, full, vfs.lstat(utf8ToPath(full))) };
      });
    } catch (err) {
      return rethrow(err);
    }
  }

  async stat(path: string, snapshotId?: string): Promise<BackendStat> {
    try {
      const vfs = this.vfs(snapshotId);
      return this.statOf(vfs, path, vfs.lstat(utf8ToPath(path)));
    } catch (err) {
      return rethrow(err);
    }
  }

  mkdir(path: string): Promise<void> {
    return this.sandbox.mkdir(path).catch(rethrow);
  }

  remove(path: string, recursive: boolean): Promise<void> {
    return this.sandbox.remove(path, { recursive }).catch(rethrow);
  }

  rename(from: string, to: string): Promise<void> {
    return this.sandbox.rename(from, to).catch(rethrow);
  }

  async snapshot(): Promise<string> {
    try {
      return String(this.sandbox.snapshot());
    } catch (err) {
      return rethrow(err);
    }
  }

  async restore(snapshotId: string): Promise<void> {
    try {
      this.sandbox.restore(parseSnapshotId(snapshotId));
    } catch (err) {
      rethrow(err);
    }
  }

  async stats(): Promise<BackendStats> {
    const s = this.sandbox.stats();
    return { files: s.nodes, bytes: s.bytes, processes: s.processes.length };
  }

  async configure(settings: SandboxSettings): Promise<void> {
    // New limits apply to processes, runs and writes started from now on.
    const { limits, vfsLimits } = limitsOf(settings);
    try {
      if (limits) this.sandbox.setLimits(limits);
      if (vfsLimits) this.sandbox.vfs.setLimits(vfsLimits);
    } catch (err) {
      rethrow(err);
    }
    this.settings = settings;
  }

  onChange(listener: (change: FsChange) => void): () => void {
    return this.sandbox.onChange((e: SandboxEvent) => {
      if (e.type !== 'file') {
        // Process start/exit: an empty change batch refreshes stats.
        listener({ kind: 'modified', path: '' });
        return;
      }
      switch (e.change) {
        case 'created':
        case 'modified':
        case 'deleted':
          listener({ kind: e.change, path: e.path });
          return;
        case 'renamed':
          if (e.oldPath !== undefined) listener({ kind: 'deleted', path: e.oldPath });
          listener({ kind: 'created', path: e.path });
          return;
        case 'restored':
          // The whole tree changed: `/` tells views to reload everything.
          listener({ kind: 'modified', path: '/' });
          return;
      }
    });
  }

  async run(command: string, options: BackendRunOptions): Promise<BackendRunResult> {
    const env = { ...this.settings.env, ...options.env };
    const result = await this.sandbox
      .run(command, {
        env,
        ...(options.stdin !== undefined ? { stdin: options.stdin } : {}),
        ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
        ...(options.timeoutMs !== undefined && options.timeoutMs > 0
          ? { timeoutMs: options.timeoutMs }
          : {}),
      })
      .catch(rethrow);
    return { stdout: result.stdout, stderr: result.stderr, status: result.exitCode };
  }

  async openTerminal(options: { cols: number; rows: number }): Promise<BackendTerminal> {
    const term = await this.sandbox
      .openTerminal({ cols: options.cols, rows: options.rows, cwd: '/home/user' })
      .catch((err: unknown) => rethrow(err, 'cannot start the terminal shell /bin/sh'));
    return {
      write: (data) => term.write(data),
      resize: (cols, rows) => term.resize(cols, rows),
      onData: (listener) => void term.onData(listener),
      onExit: (listener) => void term.onExit(listener),
      close: () => term.close(),
    };
  }

  async dispose(): Promise<void> {
    this.views.clear();
    await this.sandbox.destroy();
  }
}
