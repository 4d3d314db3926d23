/**
 * A files-only sandbox held in memory: the test double that engine and server
 * tests run the API against without starting workers. It has no processes:
 * `run` and `openTerminal` fail with ENOSYS and a message saying why.
 */
import type { FsChange, SandboxSettings } from '../contract/api.js';
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
import { baseName, joinPath, normalizePath, parentOf } from './paths.js';

interface MemNode {
  kind: 'file' | 'dir' | 'symlink';
  mode: number;
  mtimeMs: number;
  data?: Uint8Array;
  target?: string;
}

type Tree = Map<string, MemNode>;

const NO_KERNEL =
  'no shell in this engine: the kernel is not built in, so commands and terminals are unavailable';

export class MemoryBackend implements BackendSandbox {
  readonly kind = 'memory';
  private tree: Tree = new Map();
  private readonly snapshots = new Map<string, Tree>();
  private readonly listeners = new Set<(change: FsChange) => void>();
  private nextSnapshot = 1;
  private settings: SandboxSettings | null = null;

  constructor() {
    const now = Date.now();
    this.tree.set('/', { kind: 'dir', mode: 0o755, mtimeMs: now });
    for (const dir of ['/home', '/home/user', '/tmp'])
      this.tree.set(dir, { kind: 'dir', mode: 0o755, mtimeMs: now });
  }

  private view(snapshotId?: string): Tree {
    if (snapshotId === undefined) return this.tree;
    const tree = this.snapshots.get(snapshotId);
    if (!tree) throw new BackendError('ENOENT', `no snapshot ${snapshotId}`);
    return tree;
  }

  private emit(kind: FsChange['kind'], path: string): void {
    for (const listener of this.listeners) listener({ kind, path });
  }

  private lookup(tree: Tree, path: string): MemNode {
    const node = tree.get(normalizePath(path));
    if (!node) throw new BackendError('ENOENT', `${path}: No such file or directory`);
    return node;
  }

  private requireDirParent(path: string): void {
    const parent = this.tree.get(parentOf(path));
    if (!parent) throw new BackendError('ENOENT', `${parentOf(path)}: No such file or directory`);
    if (parent.kind !== 'dir')
      throw new BackendError('ENOTDIR', `${parentOf(path)}: Not a directory`);
  }

  private statOf(node: MemNode): BackendStat {
    const stat: BackendStat = {
      kind: node.kind,
      mode: node.mode,
      size: node.data?.length ?? 0,
      mtimeMs: node.mtimeMs,
    };
    if (node.target !== undefined) stat.target = node.target;
    return stat;
  }

  async readFile(path: string, snapshotId?: string): Promise<Uint8Array> {
    const node = this.lookup(this.view(snapshotId), path);
    if (node.kind === 'dir') throw new BackendError('EISDIR', `${path}: Is a directory`);
    return node.data ?? new Uint8Array(0);
  }

  async writeFile(path: string, data: Uint8Array): Promise<void> {
    const p = normalizePath(path);
    this.requireDirParent(p);
    const existing = this.tree.get(p);
    if (existing?.kind === 'dir') throw new BackendError('EISDIR', `${p}: Is a directory`);
    const limit = this.settings?.limits.fileBytes ?? 0;
    if (limit > 0 && data.length > limit) throw new BackendError('EFBIG', `${p}: File too large`);
    this.tree.set(p, {
      kind: 'file',
      mode: existing?.mode ?? 0o644,
      mtimeMs: Date.now(),
      data: data.slice(),
    });
    this.emit(existing ? 'modified' : 'created', p);
  }

  async readDir(path: string, snapshotId?: string): Promise<BackendDirEntry[]> {
    const tree = this.view(snapshotId);
    const dir = normalizePath(path);
    const node = this.lookup(tree, dir);
    if (node.kind !== 'dir') throw new BackendError('ENOTDIR', `${dir}: Not a directory`);
    const entries: BackendDirEntry[] = [];
    for (const [p, child] of tree) {
      if (p !== '/' && parentOf(p) === dir)
        entries.push({ name: baseName(p), stat: this.statOf(child) });
    }
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async stat(path: string, snapshotId?: string): Promise<BackendStat> {
    return this.statOf(this.lookup(this.view(snapshotId), path));
  }

  async mkdir(path: string): Promise<void> {
    const p = normalizePath(path);
    if (this.tree.has(p)) throw new BackendError('EEXIST', `${p}: File exists`);
    this.requireDirParent(p);
    this.tree.set(p, { kind: 'dir', mode: 0o755, mtimeMs: Date.now() });
    this.emit('created', p);
  }

  async remove(path: string, recursive: boolean): Promise<void> {
    const p = normalizePath(path);
    if (p === '/') throw new BackendError('EBUSY', 'cannot remove /');
    const node = this.lookup(this.tree, p);
    const below = [...this.tree.keys()].filter((k) => k.startsWith(p + '/'));
    if (node.kind === 'dir' && below.length > 0 && !recursive)
      throw new BackendError('ENOTEMPTY', `${p}: Directory not empty`);
    for (const k of below) this.tree.delete(k);
    this.tree.delete(p);
    this.emit('deleted', p);
  }

  async rename(from: string, to: string): Promise<void> {
    const src = normalizePath(from);
    const dst = normalizePath(to);
    const node = this.lookup(this.tree, src);
    if (dst === src) return;
    if (dst.startsWith(src + '/'))
      throw new BackendError('EINVAL', `cannot move ${src} into itself`);
    this.requireDirParent(dst);
    const existing = this.tree.get(dst);
    if (existing?.kind === 'dir') {
      if ([...this.tree.keys()].some((k) => k.startsWith(dst + '/')))
        throw new BackendError('ENOTEMPTY', `${dst}: Directory not empty`);
      if (node.kind !== 'dir') throw new BackendError('EISDIR', `${dst}: Is a directory`);
    }
    const moved: [string, MemNode][] = [[dst, node]];
    for (const [k, v] of this.tree)
      if (k.startsWith(src + '/')) moved.push([joinPath(dst, k.slice(src.length + 1)), v]);
    for (const k of [...this.tree.keys()])
      if (k === src || k.startsWith(src + '/')) this.tree.delete(k);
    for (const [k, v] of moved) this.tree.set(k, v);
    this.emit('deleted', src);
    this.emit('created', dst);
  }

  async snapshot(): Promise<string> {
    const id = `mem-${this.nextSnapshot++}`;
    // Nodes are replaced, never mutated, so a shallow copy is a faithful snapshot.
    this.snapshots.set(id, new Map(this.tree));
    return id;
  }

  async restore(snapshotId: string): Promise<void> {
    const tree = this.view(snapshotId);
    const before = this.tree;
    this.tree = new Map(tree);
    for (const [p, node] of this.tree) {
      const old = before.get(p);
      if (!old) this.emit('created', p);
      else if (old !== node) this.emit('modified', p);
    }
    for (const p of before.keys()) if (!this.tree.has(p)) this.emit('deleted', p);
  }

  async stats(): Promise<BackendStats> {
    let bytes = 0;
    for (const node of this.tree.values()) bytes += node.data?.length ?? 0;
    return { files: this.tree.size, bytes, processes: 0 };
  }

  async configure(settings: SandboxSettings): Promise<void> {
    this.settings = settings;
  }

  onChange(listener: (change: FsChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async run(_command: string, _options: BackendRunOptions): Promise<BackendRunResult> {
    throw new BackendError('ENOSYS', NO_KERNEL);
  }

  async openTerminal(_options: { cols: number; rows: number }): Promise<BackendTerminal> {
    throw new BackendError('ENOSYS', NO_KERNEL);
  }

  async dispose(): Promise<void> {
    this.listeners.clear();
    this.snapshots.clear();
  }
}
