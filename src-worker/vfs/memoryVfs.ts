/**
 * `MemoryVfs`: the in-memory POSIX tree behind every sandbox.
 *
 * State is one persistent inode table (a radix trie keyed by ino) plus two
 * counters; a snapshot is that triple, so snapshot/restore/fork are O(1).
 * Nodes stamped with the current edit token are mutated in place; anything
 * else is copied on first write (see hamt.ts and fileData.ts), so a write
 * after a snapshot costs what it changes.
 *
 * Decisions worth knowing:
 * - Writes past a limit are all-or-nothing: the file is left exactly as it
 *   was (no short writes).
 * - readdir is sorted by byte order of the name.
 * - atime follows Linux's relatime: a read updates it only when it is not
 *   newer than mtime/ctime, so repeated reads do not mutate the tree.
 * - `holds` (open file descriptions) are per VFS and not part of snapshots:
 *   an unlinked-but-held node lives until `release`.
 */
import { Errno, KernelError, fail } from '../base/errno.js';
import { isBytePath } from '../base/bytes.js';
import {
  editableData,
  emptyData,
  lazyData,
  readData,
  readDataInto,
  resizeData,
  sharedData,
  writeData,
} from './fileData.js';
import {
  hamtEmpty,
  hamtForEach,
  hamtGet,
  hamtRemove,
  hamtSet,
  newEdit,
  type Edit,
  type Hamt,
} from './hamt.js';
import { diffTableContents, diffTables, pathIn } from './diff.js';
import { parentOf, walk, walkFollow, type NodeSource, type Walked } from './resolver.js';
import {
  INT_TRIE_MAX_KEY,
  trieEmpty,
  trieGet,
  trieRemove,
  trieSet,
  type IntTrie,
} from './intTrie.js';
import { ROOT_INO, cloneInode, inGroup, inodeSize, permits, statOf, type Inode } from './inode.js';
import { MAX_SYMLINKS, PATH_MAX, checkPath, joinPath, splitPath } from './paths.js';
import {
  ROOT_CRED,
  S_ISGID,
  S_ISUID,
  S_ISVTX,
  type BytePath,
  type ContentSource,
  type Cred,
  type DirEntry,
  type Ino,
  type LookupOptions,
  type NodeKind,
  type OpenOptions,
  type SnapshotId,
  type Stat,
  type Vfs,
  type VfsChange,
  type VfsContentChange,
  type VfsEvent,
  type VfsLimits,
  type VfsListener,
  type VfsOptions,
  type VfsUsage,
} from './types.js';

export { ROOT_INO };

export const DEFAULT_LIMITS: VfsLimits = Object.freeze({
  maxBytes: 512 * 1024 * 1024,
  maxFileSize: 128 * 1024 * 1024,
  maxNodes: 500_000,
});

/** What a snapshot remembers. Never mutated after creation. */
interface TreeState {
  readonly table: IntTrie<Inode>;
  readonly bytes: number;
  readonly nodes: number;
}

interface Init {
  table: IntTrie<Inode>;
  bytes: number;
  nodes: number;
  nextIno: number;
  nextDev: number;
  limits: VfsLimits;
  now: () => number;
}

/**
 * The default clock: wall time in ms that never repeats or goes back. Linux
 * stamps files in ns, so a file created and then written has mtime > atime
 * (bash's `[ -N f ]`); a 1 µs step keeps that order within one ms.
 */
function strictClock(): () => number {
  let last = 0;
  return () => {
    const t = Date.now();
    last = t > last ? t : last + 0.001;
    return last;
  };
}

function checkCount(n: number, what: string): void {
  if (!Number.isSafeInteger(n) || n < 0) fail(Errno.EINVAL, `bad ${what}`);
}

function checkTime(t: number | null | undefined): void {
  if (typeof t === 'number' && !Number.isFinite(t)) fail(Errno.EINVAL, 'bad time');
}

function checkLimits(limits: VfsLimits): void {
  for (const v of [limits.maxBytes, limits.maxFileSize, limits.maxNodes]) {
    if (typeof v !== 'number' || !(v >= 0)) fail(Errno.EINVAL, 'bad limit');
  }
}

export class MemoryVfs implements Vfs {
  private currentLimits: VfsLimits;
  private table: IntTrie<Inode>;
  private bytes: number;
  private nodes: number;
  private edit: Edit = newEdit();
  /**
   * Sorted listings by directory map: a map header changes whenever its
   * contents do (see hamtSet), and a child's kind never changes, so a
   * listing stays right for as long as its header is the directory's.
   */
  private readonly listings = new WeakMap<Hamt<Ino>, readonly DirEntry[]>();
  private nextIno: number;
  private nextDev: number;
  private nsVersion = 0;
  private dataVer = 0;
  private readonly now: () => number;
  /** Read access to the current table for the resolver. */
  private readonly src: NodeSource = { node: (ino) => trieGet(this.table, ino) };
  private readonly snaps = new Map<SnapshotId, TreeState>();
  private nextSnap = 1;
  private readonly holds = new Map<Ino, number>();
  private readonly listeners = new Set<VfsListener>();
  private readonly pendingModified = new Set<Ino>();
  private flushScheduled = false;

  private constructor(init: Init) {
    this.table = init.table;
    this.bytes = init.bytes;
    this.nodes = init.nodes;
    this.nextIno = init.nextIno;
    this.nextDev = init.nextDev;
    this.currentLimits = init.limits;
    this.now = init.now;
  }

  /** An empty tree: only `/` (root-owned, 0755). */
  static create(opts: VfsOptions = {}): MemoryVfs {
    const now = opts.now ?? strictClock();
    const limits: VfsLimits = { ...DEFAULT_LIMITS, ...opts.limits };
    checkLimits(limits);
    const vfs = new MemoryVfs({
      table: trieEmpty(),
      bytes: 0,
      nodes: 0,
      nextIno: ROOT_INO,
      nextDev: 2,
      limits,
      now,
    });
    const t = now();
    const root: Inode = {
      owner: vfs.edit,
      ino: vfs.nextIno++,
      kind: 'dir',
      mode: 0o755,
      uid: 0,
      gid: 0,
      nlink: 2,
      atime: t,
      mtime: t,
      ctime: t,
      dev: 1,
      readOnly: false,
      links: [],
      data: null,
      entries: hamtEmpty(),
      target: '',
      device: undefined,
    };
    vfs.table = trieSet(vfs.table, root.ino, root, vfs.edit);
    vfs.nodes = 1;
    return vfs;
  }

  // ------------------------------------------------------------ internals

  private node(ino: Ino): Inode | undefined {
    return trieGet(this.table, ino);
  }

  private get(ino: Ino): Inode {
    const n = typeof ino === 'number' ? this.node(ino) : undefined;
    if (!n) fail(Errno.ENOENT, `inode ${String(ino)}`);
    return n;
  }

  /** The editable version of a node (copied into the table if it is shared with a snapshot). */
  private mut(ino: Ino): Inode {
    const n = this.get(ino);
    if (n.owner === this.edit) return n;
    const c = cloneInode(n, this.edit);
    this.table = trieSet(this.table, ino, c, this.edit);
    return c;
  }

  private root(): Inode {
    return this.get(ROOT_INO);
  }

  private base(opts: LookupOptions | undefined, cred: Cred): Inode {
    const cwd = opts?.cwd;
    if (cwd === undefined) return this.root();
    const dir =
      typeof cwd === 'number'
        ? this.get(cwd)
        : walk(this.src, cwd, this.root(), cred, true, false, 0).dir;
    if (dir.kind !== 'dir') fail(Errno.ENOTDIR, 'cwd');
    return dir;
  }

  private lookup(path: BytePath, opts: LookupOptions | undefined, followDefault: boolean): Inode {
    const cred = opts?.cred ?? ROOT_CRED;
    const w = walk(
      this.src,
      path,
      this.base(opts, cred),
      cred,
      opts?.follow ?? followDefault,
      false,
      0,
    );
    return w.node as Inode;
  }

  private parentWalk(path: BytePath, opts: LookupOptions | undefined): { w: Walked; cred: Cred } {
    const cred = opts?.cred ?? ROOT_CRED;
    return { w: walk(this.src, path, this.base(opts, cred), cred, false, true, 0), cred };
  }

  private checkDirWrite(dir: Inode, cred: Cred): void {
    if (dir.kind !== 'dir') fail(Errno.ENOTDIR);
    if (dir.readOnly) fail(Errno.EROFS);
    if (!permits(dir, cred, 3)) fail(Errno.EACCES);
    if (dir.nlink === 0) fail(Errno.ENOENT, 'directory was removed');
  }

  /** Sticky directories: only the owner of the entry or of the directory (or root) may remove it. */
  private checkSticky(dir: Inode, node: Inode, cred: Cred): void {
    if (
      (dir.mode & S_ISVTX) !== 0 &&
      cred.uid !== 0 &&
      cred.uid !== node.uid &&
      cred.uid !== dir.uid
    ) {
      fail(Errno.EPERM, 'sticky directory');
    }
  }

  private allocInode(kind: NodeKind, mode: number, cred: Cred, parent: Inode): Inode {
    if (this.nodes + 1 > this.limits.maxNodes) fail(Errno.EDQUOT, 'node limit');
    if (this.nextIno >= INT_TRIE_MAX_KEY) fail(Errno.EDQUOT, 'inode numbers exhausted');
    const t = this.now();
    const setgidDir = (parent.mode & S_ISGID) !== 0;
    let m = mode & 0o7777;
    if (kind === 'dir' && setgidDir) m |= S_ISGID;
    const node: Inode = {
      owner: this.edit,
      ino: this.nextIno++,
      kind,
      mode: m,
      uid: cred.uid,
      gid: setgidDir ? parent.gid : cred.gid,
      nlink: 0,
      atime: t,
      mtime: t,
      ctime: t,
      dev: parent.dev,
      readOnly: false,
      links: [],
      data: kind === 'file' ? emptyData(this.edit) : null,
      entries: kind === 'dir' ? hamtEmpty() : null,
      target: '',
      device: undefined,
    };
    this.table = trieSet(this.table, node.ino, node, this.edit);
    this.nodes++;
    return node;
  }

  /** Enter `ino` into `dirIno` under `name`; nlink bookkeeping included. */
  private addLink(dirIno: Ino, name: BytePath, ino: Ino): void {
    const t = this.now();
    const dir = this.mut(dirIno);
    this.nsVersion++;
    dir.entries = hamtSet(dir.entries as Hamt<Ino>, name, ino, this.edit);
    dir.mtime = dir.ctime = t;
    const node = this.mut(ino);
    node.links.push({ parent: dirIno, name });
    node.nlink++;
    if (node.kind === 'dir') {
      node.nlink++; // its own "."
      dir.nlink++; // the child's ".."
    }
  }

  /** Remove one name of `ino`; frees the node when nothing names or holds it. */
  private removeLink(dirIno: Ino, name: BytePath, ino: Ino): void {
    const t = this.now();
    const dir = this.mut(dirIno);
    this.nsVersion++;
    dir.entries = hamtRemove(dir.entries as Hamt<Ino>, name, this.edit);
    dir.mtime = dir.ctime = t;
    const node = this.mut(ino);
    const i = node.links.findIndex((l) => l.parent === dirIno && l.name === name);
    if (i >= 0) node.links.splice(i, 1);
    node.ctime = t;
    if (node.kind === 'dir') {
      node.nlink = 0;
      dir.nlink--;
    } else {
      node.nlink--;
    }
    if (node.nlink === 0 && !this.holds.has(ino)) this.free(ino);
  }

  private free(ino: Ino): void {
    const node = this.node(ino);
    if (!node) return;
    if (node.kind === 'file' || node.kind === 'symlink') this.bytes -= inodeSize(node);
    this.table = trieRemove(this.table, ino, this.edit);
    this.nodes--;
  }

  private dirPath(dir: Inode): BytePath {
    return this.pathOf(dir.ino) ?? '/';
  }

  private emit(type: VfsEvent['type'], path: BytePath, kind?: NodeKind, oldPath?: BytePath): void {
    if (this.listeners.size === 0) return;
    const event: VfsEvent =
      oldPath === undefined ? { type, path, kind } : { type, path, oldPath, kind };
    for (const l of [...this.listeners]) {
      try {
        l(event);
      } catch (err) {
        // A broken listener must not undo or block a finished mutation.
        console.error('vfs listener failed', err);
      }
    }
  }

  private emitAt(type: VfsEvent['type'], dir: Inode, name: BytePath, kind: NodeKind): void {
    if (this.listeners.size === 0) return;
    this.emit(type, joinPath(this.dirPath(dir), name), kind);
  }

  /** At most one `modified` per inode per microtask. */
  private modified(ino: Ino): void {
    this.dataVer++;
    if (this.listeners.size === 0 || this.pendingModified.has(ino)) return;
    this.pendingModified.add(ino);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      queueMicrotask(() => {
        this.pendingModified.clear();
        this.flushScheduled = false;
      });
    }
    const path = this.pathOf(ino);
    const node = this.node(ino);
    if (path !== undefined && node) this.emit('modified', path, node.kind);
  }

  // ------------------------------------------------------------ lookup

  resolve(path: BytePath, opts?: LookupOptions): Ino {
    return this.lookup(path, opts, true).ino;
  }

  stat(path: BytePath, opts?: LookupOptions): Stat {
    return statOf(this.lookup(path, { ...opts, follow: true }, true));
  }

  lstat(path: BytePath, opts?: LookupOptions): Stat {
    return statOf(this.lookup(path, { ...opts, follow: false }, false));
  }

  statIno(ino: Ino): Stat {
    return statOf(this.get(ino));
  }

  get namespaceVersion(): number {
    return this.nsVersion;
  }

  get dataVersion(): number {
    return this.dataVer;
  }

  accessIno(ino: Ino, want: number, cred: Cred = ROOT_CRED): boolean {
    const node = this.node(ino);
    return node !== undefined && permits(node, cred, want & 7);
  }

  exists(ino: Ino): boolean {
    return this.node(ino) !== undefined;
  }

  access(path: BytePath, mode: number, opts?: LookupOptions): void {
    const node = this.lookup(path, opts, true);
    const want = mode & 7;
    if (want !== 0 && !permits(node, opts?.cred ?? ROOT_CRED, want)) fail(Errno.EACCES);
    if ((want & 2) !== 0 && node.readOnly) fail(Errno.EROFS);
  }

  realpath(path: BytePath, opts?: LookupOptions): BytePath {
    const cred = opts?.cred ?? ROOT_CRED;
    const w = walkFollow(this.src, path, this.base(opts, cred), cred, true);
    if (!w.node) fail(Errno.ENOENT);
    if (w.node.kind === 'dir') return this.dirPath(w.node);
    return joinPath(this.dirPath(w.dir), w.name);
  }

  readlink(path: BytePath, opts?: LookupOptions): BytePath {
    const node = this.lookup(path, { ...opts, follow: false }, false);
    if (node.kind !== 'symlink') fail(Errno.EINVAL, 'not a symlink');
    return node.target;
  }

  parentIno(ino: Ino): Ino | undefined {
    const node = this.node(ino);
    if (!node) return undefined;
    if (node.ino === ROOT_INO) return ROOT_INO;
    return node.links[0]?.parent;
  }

  pathOf(ino: Ino): BytePath | undefined {
    return pathIn(this.table, ino);
  }

  parentOf(ino: Ino): Ino | undefined {
    const node = this.node(ino);
    if (!node || node.kind !== 'dir') return undefined;
    return node.ino === ROOT_INO ? ROOT_INO : node.links[0]?.parent;
  }

  // ------------------------------------------------------------ namespace

  open(path: BytePath, opts: OpenOptions = {}): Ino {
    const cred = opts.cred ?? ROOT_CRED;
    const base = this.base(opts, cred);
    let w = walk(this.src, path, base, cred, false, true, 0);
    if (opts.create && opts.excl && w.node) fail(Errno.EEXIST);
    const follow = !opts.nofollow && (opts.follow ?? true);
    while (w.node && w.node.kind === 'symlink' && (follow || w.trailingSlash)) {
      if (w.links + 1 > MAX_SYMLINKS) fail(Errno.ELOOP);
      const slash = w.trailingSlash;
      w = walk(this.src, w.node.target, w.dir, cred, false, true, w.links + 1);
      w.trailingSlash = w.trailingSlash || slash;
    }
    const node = w.node;
    if (!node) {
      if (!opts.create) fail(Errno.ENOENT);
      if (w.trailingSlash) fail(Errno.EISDIR);
      if (opts.directory) fail(Errno.EINVAL, 'O_CREAT with O_DIRECTORY');
      this.checkDirWrite(w.dir, cred);
      const created = this.allocInode('file', opts.mode ?? 0o644, cred, w.dir);
      this.addLink(w.dir.ino, w.name, created.ino);
      this.emitAt('created', w.dir, w.name, 'file');
      return created.ino;
    }
    if (node.kind === 'symlink' && opts.nofollow) fail(Errno.ELOOP);
    if (w.trailingSlash && node.kind !== 'dir') fail(Errno.ENOTDIR);
    if (opts.directory && node.kind !== 'dir') fail(Errno.ENOTDIR);
    if (opts.create && node.kind === 'dir') fail(Errno.EISDIR);
    const writing = opts.write === true || opts.trunc === true;
    const reading = opts.read ?? opts.write !== true;
    if (writing && node.kind === 'dir') fail(Errno.EISDIR);
    if (writing && node.readOnly) fail(Errno.EROFS);
    if (reading && !permits(node, cred, 4)) fail(Errno.EACCES);
    if (writing && !permits(node, cred, 2)) fail(Errno.EACCES);
    if (opts.trunc && node.kind === 'file') this.truncate(node.ino, 0);
    return node.ino;
  }

  mkdir(path: BytePath, mode = 0o755, opts?: LookupOptions): Ino {
    const { w, cred } = this.parentWalk(path, opts);
    if (w.node) fail(Errno.EEXIST);
    this.checkDirWrite(w.dir, cred);
    const node = this.allocInode('dir', mode, cred, w.dir);
    this.addLink(w.dir.ino, w.name, node.ino);
    this.emitAt('created', w.dir, w.name, 'dir');
    return node.ino;
  }

  mkdirp(path: BytePath, mode = 0o755, opts?: LookupOptions): Ino {
    checkPath(path);
    let prefix = path.charCodeAt(0) === 47 ? '/' : '';
    let ino = prefix === '/' ? ROOT_INO : this.base(opts, opts?.cred ?? ROOT_CRED).ino;
    for (const part of splitPath(path)) {
      prefix = prefix === '' ? part : joinPath(prefix, part);
      try {
        const node = this.lookup(prefix, opts, true);
        if (node.kind !== 'dir') fail(Errno.ENOTDIR);
        ino = node.ino;
      } catch (err) {
        if (!(err instanceof KernelError) || err.errno !== Errno.ENOENT) throw err;
        ino = this.mkdir(prefix, mode, opts);
      }
    }
    return ino;
  }

  rmdir(path: BytePath, opts?: LookupOptions): void {
    const { w, cred } = this.parentWalk(path, opts);
    const node = w.node;
    if (!node) fail(Errno.ENOENT);
    if (node.ino === ROOT_INO) fail(Errno.EBUSY);
    if (w.name === '.') fail(Errno.EINVAL);
    if (w.name === '..') fail(Errno.ENOTEMPTY);
    if (node.kind !== 'dir') fail(Errno.ENOTDIR);
    this.checkDirWrite(w.dir, cred);
    if (node.dev !== w.dir.dev) fail(Errno.EBUSY, 'mount point');
    if (node.entries && node.entries.size > 0) fail(Errno.ENOTEMPTY);
    this.checkSticky(w.dir, node, cred);
    const p = this.listeners.size > 0 ? joinPath(this.dirPath(w.dir), w.name) : '';
    this.removeLink(w.dir.ino, w.name, node.ino);
    this.emit('deleted', p, 'dir');
  }

  unlink(path: BytePath, opts?: LookupOptions): void {
    const { w, cred } = this.parentWalk(path, opts);
    const node = w.node;
    if (!node) fail(Errno.ENOENT);
    if (node.kind === 'dir') fail(Errno.EISDIR);
    if (w.trailingSlash) fail(Errno.ENOTDIR);
    this.checkDirWrite(w.dir, cred);
    this.checkSticky(w.dir, node, cred);
    const p = this.listeners.size > 0 ? joinPath(this.dirPath(w.dir), w.name) : '';
    this.removeLink(w.dir.ino, w.name, node.ino);
    this.emit('deleted', p, node.kind);
  }

  rename(oldPath: BytePath, newPath: BytePath, opts?: LookupOptions): void {
    const cred = opts?.cred ?? ROOT_CRED;
    const base = this.base(opts, cred);
    const a = walk(this.src, oldPath, base, cred, false, true, 0);
    const b = walk(this.src, newPath, base, cred, false, true, 0);
    const src = a.node;
    if (!src) fail(Errno.ENOENT);
    if (src.ino === ROOT_INO || b.node?.ino === ROOT_INO) fail(Errno.EBUSY);
    if (a.name === '.' || a.name === '..' || b.name === '.' || b.name === '..') fail(Errno.EINVAL);
    if ((a.trailingSlash || b.trailingSlash) && src.kind !== 'dir') fail(Errno.ENOTDIR);
    this.checkDirWrite(a.dir, cred);
    this.checkDirWrite(b.dir, cred);
    if (src.dev !== b.dir.dev || src.dev !== a.dir.dev) fail(Errno.EXDEV);
    this.checkSticky(a.dir, src, cred);
    const dst = b.node;
    if (dst) this.checkSticky(b.dir, dst, cred);
    if (dst && dst.ino === src.ino) return; // same file: POSIX says do nothing
    if (src.kind === 'dir') {
      if (dst) {
        if (dst.kind !== 'dir') fail(Errno.ENOTDIR);
        if (dst.entries && dst.entries.size > 0) fail(Errno.ENOTEMPTY);
        if (dst.dev !== b.dir.dev) fail(Errno.EBUSY, 'mount point');
      }
      for (let d = b.dir; ; d = parentOf(this.src, d)) {
        if (d.ino === src.ino) fail(Errno.EINVAL, 'cannot move a directory into itself');
        if (d.ino === ROOT_INO) break;
      }
      // Moving a directory to a new parent rewrites its "..": needs write permission on it.
      if (a.dir.ino !== b.dir.ino && !permits(src, cred, 2)) fail(Errno.EACCES);
    } else if (dst && dst.kind === 'dir') {
      fail(Errno.EISDIR);
    }
    const listening = this.listeners.size > 0;
    const from = listening ? joinPath(this.dirPath(a.dir), a.name) : '';
    const to = listening ? joinPath(this.dirPath(b.dir), b.name) : '';
    if (dst) this.removeLink(b.dir.ino, b.name, dst.ino);
    const t = this.now();
    const fromDir = this.mut(a.dir.ino);
    this.nsVersion++;
    fromDir.entries = hamtRemove(fromDir.entries as Hamt<Ino>, a.name, this.edit);
    fromDir.mtime = fromDir.ctime = t;
    const toDir = this.mut(b.dir.ino);
    toDir.entries = hamtSet(toDir.entries as Hamt<Ino>, b.name, src.ino, this.edit);
    toDir.mtime = toDir.ctime = t;
    if (src.kind === 'dir' && fromDir !== toDir) {
      fromDir.nlink--;
      toDir.nlink++;
    }
    const moved = this.mut(src.ino);
    const i = moved.links.findIndex((l) => l.parent === a.dir.ino && l.name === a.name);
    const link = { parent: b.dir.ino, name: b.name };
    if (i >= 0) moved.links[i] = link;
    else moved.links.push(link);
    moved.ctime = t;
    // Events only once the tree is consistent again: listeners may read it.
    if (dst) this.emit('deleted', to, dst.kind);
    this.emit('renamed', to, src.kind, from);
  }

  symlink(target: BytePath, linkPath: BytePath, opts?: LookupOptions): Ino {
    if (typeof target !== 'string' || !isBytePath(target) || target.includes('\0'))
      fail(Errno.EINVAL, 'bad target');
    if (target.length === 0) fail(Errno.ENOENT, 'empty symlink target');
    if (target.length >= PATH_MAX) fail(Errno.ENAMETOOLONG);
    const { w, cred } = this.parentWalk(linkPath, opts);
    if (w.node) fail(Errno.EEXIST);
    if (w.trailingSlash) fail(Errno.ENOENT);
    this.checkDirWrite(w.dir, cred);
    if (this.bytes + target.length > this.limits.maxBytes) fail(Errno.ENOSPC);
    const node = this.allocInode('symlink', 0o777, cred, w.dir);
    node.target = target;
    this.bytes += target.length;
    this.addLink(w.dir.ino, w.name, node.ino);
    this.emitAt('created', w.dir, w.name, 'symlink');
    return node.ino;
  }

  link(existingPath: BytePath, newPath: BytePath, opts?: LookupOptions): void {
    const src = this.lookup(existingPath, { ...opts, follow: opts?.follow ?? false }, false);
    if (src.kind === 'dir') fail(Errno.EPERM, 'hard link to a directory');
    const { w, cred } = this.parentWalk(newPath, { ...opts, follow: false });
    if (w.node) fail(Errno.EEXIST);
    if (w.trailingSlash) fail(Errno.ENOENT);
    this.checkDirWrite(w.dir, cred);
    if (src.dev !== w.dir.dev) fail(Errno.EXDEV);
    this.addLink(w.dir.ino, w.name, src.ino);
    this.mut(src.ino).ctime = this.now();
    this.emitAt('created', w.dir, w.name, src.kind);
  }

  mknod(
    path: BytePath,
    kind: 'chardev' | 'fifo',
    mode: number,
    device?: string,
    opts?: LookupOptions,
  ): Ino {
    if (kind !== 'chardev' && kind !== 'fifo') fail(Errno.EINVAL, 'mknod kind');
    if (kind === 'chardev' && !device) fail(Errno.EINVAL, 'chardev needs a device name');
    const { w, cred } = this.parentWalk(path, opts);
    if (w.node) fail(Errno.EEXIST);
    this.checkDirWrite(w.dir, cred);
    if (cred.uid !== 0 && kind === 'chardev') fail(Errno.EPERM);
    const node = this.allocInode(kind, mode, cred, w.dir);
    node.device = kind === 'chardev' ? device : undefined;
    this.addLink(w.dir.ino, w.name, node.ino);
    this.emitAt('created', w.dir, w.name, kind);
    return node.ino;
  }

  readdir(path: BytePath, opts?: LookupOptions): readonly DirEntry[] {
    const node = this.lookup(path, { ...opts, follow: true }, true);
    return this.readdirIno(node.ino, opts?.cred ?? ROOT_CRED);
  }

  readdirIno(ino: Ino, cred?: Cred): readonly DirEntry[] {
    const node = this.get(ino);
    if (node.kind !== 'dir' || !node.entries) fail(Errno.ENOTDIR);
    if (cred && !permits(node, cred, 4)) fail(Errno.EACCES);
    const entries = node.entries;
    const cached = this.listings.get(entries);
    if (cached) return cached;
    const out: DirEntry[] = [];
    hamtForEach(entries, (name, child) => {
      const c = this.node(child);
      if (c) out.push({ name: name as string, ino: child, kind: c.kind });
    });
    out.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
    Object.freeze(out);
    this.listings.set(entries, out);
    return out;
  }

  // ------------------------------------------------------------ contents

  private fileNode(ino: Ino): Inode {
    const node = this.get(ino);
    if (node.kind === 'dir') fail(Errno.EISDIR);
    if (node.kind !== 'file' || !node.data) fail(Errno.EINVAL, `not a regular file (${node.kind})`);
    return node;
  }

  read(ino: Ino, offset: number, len: number): Uint8Array {
    checkCount(offset, 'offset');
    checkCount(len, 'length');
    const node = this.fileNode(ino);
    const out = readData(node.data as NonNullable<Inode['data']>, offset, len);
    this.accessed(node);
    return out;
  }

  readInto(ino: Ino, offset: number, dst: Uint8Array): number {
    checkCount(offset, 'offset');
    const node = this.fileNode(ino);
    const n = readDataInto(node.data as NonNullable<Inode['data']>, offset, dst);
    this.accessed(node);
    return n;
  }

  /** relatime: atime moves only when it is not newer than mtime/ctime. */
  private accessed(node: Inode): void {
    if (!node.readOnly && (node.atime <= node.mtime || node.atime <= node.ctime)) {
      this.mut(node.ino).atime = this.now();
    }
  }

  write(ino: Ino, offset: number, data: Uint8Array, opts?: { readonly append?: boolean }): number {
    checkCount(offset, 'offset');
    if (!(data instanceof Uint8Array)) fail(Errno.EINVAL, 'data is not bytes');
    const node = this.fileNode(ino);
    if (node.readOnly) fail(Errno.EROFS);
    const size = (node.data as NonNullable<Inode['data']>).size;
    const at = opts?.append ? size : offset;
    if (data.length === 0) return 0;
    const end = at + data.length;
    if (end > this.limits.maxFileSize || !Number.isSafeInteger(end)) fail(Errno.EFBIG);
    const growth = Math.max(0, end - size);
    if (growth > 0 && this.bytes + growth > this.limits.maxBytes) fail(Errno.ENOSPC);
    const n = this.mut(ino);
    const d = editableData(n.data as NonNullable<Inode['data']>, this.edit);
    n.data = d;
    writeData(d, at, data, this.edit);
    this.bytes += growth;
    n.mtime = n.ctime = this.now();
    this.modified(ino);
    return data.length;
  }

  truncate(ino: Ino, size: number): void {
    checkCount(size, 'size');
    const node = this.fileNode(ino);
    if (node.readOnly) fail(Errno.EROFS);
    const old = (node.data as NonNullable<Inode['data']>).size;
    if (size > this.limits.maxFileSize) fail(Errno.EFBIG);
    if (size > old && this.bytes + (size - old) > this.limits.maxBytes) fail(Errno.ENOSPC);
    const n = this.mut(ino);
    if (size === 0) {
      // Nothing is kept: a lazy file's contents are never read.
      if (old !== 0) n.data = emptyData(this.edit);
      this.bytes -= old;
    } else if (size !== old) {
      const d = editableData(n.data as NonNullable<Inode['data']>, this.edit);
      n.data = d;
      resizeData(d, size, this.edit);
      this.bytes += size - old;
    }
    n.mtime = n.ctime = this.now();
    this.modified(ino);
  }

  setContentSource(ino: Ino, source: ContentSource): void {
    const node = this.fileNode(ino);
    if (node.readOnly) fail(Errno.EROFS);
    if ((node.data as NonNullable<Inode['data']>).size !== 0) fail(Errno.EINVAL, 'file not empty');
    const size = source.size;
    checkCount(size, 'size');
    if (size > this.limits.maxFileSize) fail(Errno.EFBIG);
    if (this.bytes + size > this.limits.maxBytes) fail(Errno.ENOSPC);
    const n = this.mut(ino);
    n.data = lazyData(source, this.edit);
    this.bytes += size;
    n.mtime = n.ctime = this.now();
    this.modified(ino);
  }

  readFile(path: BytePath, opts?: LookupOptions): Uint8Array {
    const cred = opts?.cred ?? ROOT_CRED;
    const node = this.lookup(path, { ...opts, follow: true }, true);
    if (!permits(node, cred, 4)) fail(Errno.EACCES);
    const file = this.fileNode(node.ino);
    return this.read(file.ino, 0, (file.data as NonNullable<Inode['data']>).size);
  }

  installFiles(files: Iterable<readonly [BytePath, Uint8Array]>, mode: number): void {
    checkCount(mode, 'mode');
    const dirs = new Map<BytePath, Ino>();
    for (const [path, data] of files) {
      if (!(data instanceof Uint8Array)) fail(Errno.EINVAL, 'data is not bytes');
      checkPath(path);
      const slash = path.lastIndexOf('/');
      const dirPath = path.slice(0, slash) || '/';
      const name = path.slice(slash + 1);
      let dirIno = dirs.get(dirPath);
      if (dirIno === undefined) {
        dirIno = this.mkdirp(dirPath, 0o755);
        dirs.set(dirPath, dirIno);
      }
      const dir = this.get(dirIno);
      if (
        path.charCodeAt(0) !== 47 ||
        name === '' ||
        name === '.' ||
        name === '..' ||
        hamtGet(dir.entries as Hamt<Ino>, name) !== undefined
      ) {
        // Not a plain new name: the general path (it replaces, follows, fails like open).
        this.chmodIno(this.writeFile(path, data), mode);
        continue;
      }
      if (data.length > this.limits.maxFileSize) fail(Errno.EFBIG);
      if (this.bytes + data.length > this.limits.maxBytes) fail(Errno.ENOSPC);
      this.checkDirWrite(dir, ROOT_CRED);
      const node = this.allocInode('file', mode, ROOT_CRED, dir);
      node.data = sharedData(data, this.edit);
      this.bytes += data.length;
      this.addLink(dirIno, name, node.ino);
      this.emitAt('created', dir, name, 'file');
    }
  }

  writeFile(
    path: BytePath,
    data: Uint8Array,
    opts?: LookupOptions & { readonly mode?: number },
  ): Ino {
    if (!(data instanceof Uint8Array)) fail(Errno.EINVAL, 'data is not bytes');
    if (data.length > this.limits.maxFileSize) fail(Errno.EFBIG);
    if (this.bytes + data.length > this.limits.maxBytes) {
      // Near the limit: account for the old body this replaces before touching anything.
      let old = 0;
      try {
        const existing = this.lookup(path, { ...opts, follow: true }, true);
        if (existing.kind === 'file' && existing.data) old = existing.data.size;
      } catch (err) {
        if (!(err instanceof KernelError)) throw err;
      }
      if (this.bytes - old + data.length > this.limits.maxBytes) fail(Errno.ENOSPC);
    }
    const ino = this.open(path, {
      ...opts,
      create: true,
      write: true,
      read: false,
      mode: opts?.mode ?? 0o644,
    });
    this.truncate(ino, 0);
    this.write(ino, 0, data);
    return ino;
  }

  // ------------------------------------------------------------ attributes

  chmod(path: BytePath, mode: number, opts?: LookupOptions): void {
    this.chmodIno(this.lookup(path, opts, true).ino, mode, opts?.cred);
  }

  chmodIno(ino: Ino, mode: number, cred: Cred = ROOT_CRED): void {
    checkCount(mode, 'mode');
    const node = this.get(ino);
    if (cred.uid !== 0 && cred.uid !== node.uid) fail(Errno.EPERM);
    if (node.readOnly) fail(Errno.EROFS);
    let m = mode & 0o7777;
    // Like Linux: a non-member cannot keep setgid on a file it chmods.
    if (cred.uid !== 0 && node.kind !== 'dir' && !inGroup(cred, node.gid)) m &= ~S_ISGID;
    const n = this.mut(ino);
    this.nsVersion++;
    n.mode = m;
    n.ctime = this.now();
    this.modified(ino);
  }

  chown(path: BytePath, uid: number, gid: number, opts?: LookupOptions): void {
    this.chownIno(this.lookup(path, opts, true).ino, uid, gid, opts?.cred);
  }

  chownIno(ino: Ino, uid: number, gid: number, cred: Cred = ROOT_CRED): void {
    for (const id of [uid, gid]) {
      if (!Number.isSafeInteger(id) || id < -1) fail(Errno.EINVAL, 'bad id');
    }
    const node = this.get(ino);
    if (node.readOnly) fail(Errno.EROFS);
    if (cred.uid !== 0) {
      if (cred.uid !== node.uid) fail(Errno.EPERM);
      if (uid !== -1 && uid !== node.uid) fail(Errno.EPERM);
      if (gid !== -1 && gid !== node.gid && !inGroup(cred, gid)) fail(Errno.EPERM);
    }
    const n = this.mut(ino);
    this.nsVersion++;
    if (uid !== -1) n.uid = uid;
    if (gid !== -1) n.gid = gid;
    if (n.kind !== 'dir' && (uid !== -1 || gid !== -1)) n.mode &= ~(S_ISUID | S_ISGID);
    n.ctime = this.now();
    this.modified(ino);
  }

  utimes(
    path: BytePath,
    atime: number | null | undefined,
    mtime: number | null | undefined,
    opts?: LookupOptions,
  ): void {
    this.utimesIno(this.lookup(path, opts, true).ino, atime, mtime, opts?.cred);
  }

  utimesIno(
    ino: Ino,
    atime: number | null | undefined,
    mtime: number | null | undefined,
    cred: Cred = ROOT_CRED,
  ): void {
    checkTime(atime);
    checkTime(mtime);
    const node = this.get(ino);
    if (node.readOnly) fail(Errno.EROFS);
    if (cred.uid !== 0 && cred.uid !== node.uid) {
      if (typeof atime === 'number' || typeof mtime === 'number') fail(Errno.EPERM);
      if (!permits(node, cred, 2)) fail(Errno.EACCES);
    }
    const t = this.now();
    const n = this.mut(ino);
    if (atime !== undefined) n.atime = atime ?? t;
    if (mtime !== undefined) n.mtime = mtime ?? t;
    n.ctime = t;
    this.modified(ino);
  }

  sealReadOnly(path: BytePath): void {
    const top = this.lookup(path, undefined, true);
    const dev = this.nextDev++;
    this.nsVersion++;
    const todo: Ino[] = [top.ino];
    while (todo.length > 0) {
      const n = this.mut(todo.pop() as Ino);
      n.readOnly = true;
      n.dev = dev;
      if (n.entries) hamtForEach(n.entries, (_name, child) => todo.push(child));
    }
  }

  // ------------------------------------------------------------ holds

  retain(ino: Ino): void {
    this.get(ino);
    this.holds.set(ino, (this.holds.get(ino) ?? 0) + 1);
  }

  release(ino: Ino): void {
    const count = this.holds.get(ino);
    if (count === undefined) return;
    if (count > 1) {
      this.holds.set(ino, count - 1);
      return;
    }
    this.holds.delete(ino);
    const node = this.node(ino);
    if (node && node.nlink === 0 && node.ino !== ROOT_INO) this.free(ino);
  }

  // ------------------------------------------------------------ snapshots

  snapshot(): SnapshotId {
    const id = this.nextSnap++;
    this.snaps.set(id, { table: this.table, bytes: this.bytes, nodes: this.nodes });
    this.edit = newEdit();
    return id;
  }

  restore(id: SnapshotId): void {
    const s = this.snaps.get(id);
    if (!s) fail(Errno.EINVAL, `no snapshot ${String(id)}`);
    this.table = s.table;
    this.bytes = s.bytes;
    this.nodes = s.nodes;
    this.nsVersion++;
    this.dataVer++;
    // Defensive: snapshot() already rotated, so no restored node is ours to mutate.
    this.edit = newEdit();
    this.pendingModified.clear();
    this.emit('restored', '/');
  }

  dropSnapshot(id: SnapshotId): void {
    this.snaps.delete(id);
  }

  snapshots(): SnapshotId[] {
    return [...this.snaps.keys()];
  }

  fork(id?: SnapshotId): MemoryVfs {
    let state: TreeState = { table: this.table, bytes: this.bytes, nodes: this.nodes };
    if (id !== undefined) {
      const s = this.snaps.get(id);
      if (!s) fail(Errno.EINVAL, `no snapshot ${String(id)}`);
      state = s;
    }
    // Our owned nodes become shared with the fork: stop mutating them in place.
    // (A snapshot's nodes are never owned by the current token, so no rotation then.)
    if (id === undefined) this.edit = newEdit();
    return new MemoryVfs({
      ...state,
      nextIno: this.nextIno,
      nextDev: this.nextDev,
      limits: this.limits,
      now: this.now,
    });
  }

  diff(from: SnapshotId, to?: SnapshotId): VfsChange[] {
    return diffTables(this.snapTable(from), this.snapTable(to));
  }

  diffContents(from: SnapshotId | null, to?: SnapshotId): VfsContentChange[] {
    // Contents of the live tree may still change in place: diff a snapshot of it.
    if (to === undefined) {
      const now = this.snapshot();
      try {
        return this.diffContents(from, now);
      } finally {
        this.dropSnapshot(now);
      }
    }
    return diffTableContents(
      from === null ? trieEmpty() : this.snapTable(from),
      this.snapTable(to),
    );
  }

  /** The table of a snapshot (the current tree for undefined). */
  private snapTable(id: SnapshotId | undefined): IntTrie<Inode> {
    if (id === undefined) return this.table;
    const s = this.snaps.get(id);
    if (!s) fail(Errno.EINVAL, `no snapshot ${String(id)}`);
    return s.table;
  }

  // ------------------------------------------------------------ accounting and events

  get limits(): VfsLimits {
    return this.currentLimits;
  }

  setLimits(limits: Partial<VfsLimits>): void {
    const next: VfsLimits = { ...this.currentLimits, ...limits };
    checkLimits(next);
    this.currentLimits = next;
  }

  usage(): VfsUsage {
    return { bytes: this.bytes, nodes: this.nodes };
  }

  subscribe(listener: VfsListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }
}
