/**
 * Public types of the in-memory VFS: byte paths, credentials, stat records,
 * options, events and the `Vfs` interface the kernel codes against.
 *
 * Conventions every method follows:
 * - Paths and names are *byte strings*: JS strings whose char codes are 0..255,
 *   one char per byte (see `bytes.ts` for conversions). Never pass a normal
 *   JS string with chars > 255: that is EINVAL.
 * - Errors are thrown as `KernelError` (src-worker/base/errno.ts), never
 *   returned. Nothing else is thrown for bad input.
 * - Everything is synchronous and runs on the kernel thread.
 * - Times are milliseconds since the epoch as JS numbers (fractions allowed).
 */
import type { BytePath } from '../base/bytes.js';

/** An inode number; stable for the life of a node, never reused in one VFS. */
export type Ino = number;

/** A path as a byte string (each char code 0..255 is one byte); defined in base/. */
export type { BytePath };

/** A snapshot handle returned by `snapshot()`. */
export type SnapshotId = number;

/** Node kinds. `chardev` nodes carry a device name the kernel serves. */
export type NodeKind = 'file' | 'dir' | 'symlink' | 'chardev' | 'fifo';

/** Who is asking. uid 0 bypasses permission checks (like Linux's root). */
export interface Cred {
  readonly uid: number;
  readonly gid: number;
  /** Supplementary groups. */
  readonly groups?: readonly number[];
}

/** Superuser credentials; the default when a call passes no `cred`. */
export const ROOT_CRED: Cred = Object.freeze({ uid: 0, gid: 0 });

/** Mode bit constants (the permission part of st_mode). */
export const S_ISUID = 0o4000;
export const S_ISGID = 0o2000;
export const S_ISVTX = 0o1000;
/** Access check bits for `access()`; same values as POSIX. */
export const R_OK = 4;
export const W_OK = 2;
export const X_OK = 1;
export const F_OK = 0;

/** What stat returns. A fresh object each call; safe to keep. */
export interface Stat {
  /** Device id: 1 for the writable tree, a distinct id per read-only import. */
  readonly dev: number;
  readonly ino: Ino;
  readonly kind: NodeKind;
  /** Permission and special bits only (`& 0o7777`); type is in `kind`. */
  readonly mode: number;
  readonly nlink: number;
  readonly uid: number;
  readonly gid: number;
  /** Bytes for files, target length for symlinks, entry count for dirs, 0 otherwise. */
  readonly size: number;
  readonly atime: number;
  readonly mtime: number;
  readonly ctime: number;
  /** Device name for `chardev` nodes (e.g. "null", "tty"); undefined otherwise. */
  readonly device: string | undefined;
  /** True if the node lies in a read-only imported subtree (writers get EROFS). */
  readonly readOnly: boolean;
}

/** One directory entry. `.` and `..` are never listed. */
export interface DirEntry {
  readonly name: BytePath;
  readonly ino: Ino;
  readonly kind: NodeKind;
}

/** How a path is looked up. */
export interface LookupOptions {
  /**
   * Base for relative paths: an absolute byte path, or the ino of a directory
   * (e.g. a WASI dirfd). Default `/`. A deleted base directory gives ENOENT.
   */
  readonly cwd?: BytePath | Ino;
  /** Follow a symlink in the final component (default true). */
  readonly follow?: boolean;
  /** Credentials for search/read/write checks (default root). */
  readonly cred?: Cred;
}

/** `open()` flags, mirroring O_* of POSIX. */
export interface OpenOptions extends LookupOptions {
  /** Check read permission (default true unless `write` alone was asked). */
  readonly read?: boolean;
  /** Check write permission; EISDIR on directories, EROFS on read-only nodes. */
  readonly write?: boolean;
  /** O_CREAT: create a regular file if missing. */
  readonly create?: boolean;
  /** O_EXCL: with `create`, EEXIST if the name exists (even as a dangling symlink). */
  readonly excl?: boolean;
  /** O_TRUNC: truncate a regular file to 0 (needs write permission). */
  readonly trunc?: boolean;
  /** O_DIRECTORY: ENOTDIR unless the result is a directory. */
  readonly directory?: boolean;
  /** O_NOFOLLOW: ELOOP if the final component is a symlink. */
  readonly nofollow?: boolean;
  /** Permission bits for a created file (umask already applied by the caller). Default 0o644. */
  readonly mode?: number;
}

/** Per-VFS limits; exceeding one fails the writer and changes nothing. */
export interface VfsLimits {
  /** Total bytes of file contents and symlink targets. ENOSPC beyond it. */
  readonly maxBytes: number;
  /** Largest single file. EFBIG beyond it. */
  readonly maxFileSize: number;
  /** Number of inodes. EDQUOT beyond it. */
  readonly maxNodes: number;
}

export interface VfsUsage {
  readonly bytes: number;
  readonly nodes: number;
}

export interface VfsOptions {
  readonly limits?: Partial<VfsLimits>;
  /** Clock for timestamps (ms); tests inject one. Default: `Date.now`, stepped by 1 µs when it would repeat. */
  readonly now?: () => number;
}

/** Options of `Vfs.createDefault`. */
export interface DefaultLayoutOptions extends VfsOptions {
  /** Hostname written to /etc/hostname. Default "sandglass". */
  readonly hostname?: string;
}

/** A change notification; paths are absolute byte paths. */
export interface VfsEvent {
  readonly type: 'created' | 'modified' | 'deleted' | 'renamed' | 'restored';
  /** New path for `renamed`; `/` for `restored`. */
  readonly path: BytePath;
  /** Old path, for `renamed` only. */
  readonly oldPath?: BytePath;
  /** Kind of the node concerned (absent for `restored`). */
  readonly kind?: NodeKind;
}

export type VfsListener = (event: VfsEvent) => void;

/**
 * Where a lazily imported file's contents come from (see
 * `Vfs.setContentSource`). The VFS calls `load` at most once per file, on
 * first use, synchronously; it must return exactly `size` bytes, the same
 * bytes whenever it is called, or throw (a `KernelError`, EIO when the
 * origin no longer holds what it held when the source was made).
 */
export interface ContentSource {
  readonly size: number;
  load(): Uint8Array;
}

/**
 * A file's contents inside a snapshot: immutable, so `read()` always gives
 * the same bytes and `identity` names them (two snapshots that share the
 * contents give the same object: a cache key for hashes).
 */
export interface FileContents {
  readonly size: number;
  readonly identity: object;
  read(): Uint8Array;
  /**
   * The memory blocks holding the contents, each with its bytes: blocks are
   * shared between snapshots, so summing distinct blocks counts what a set of
   * snapshots really holds.
   */
  forEachBlock(fn: (block: object, bytes: number) => void): void;
}

/** A node as a detailed diff reports it. */
export interface NodeState {
  readonly kind: NodeKind;
  readonly mode: number;
  readonly uid: number;
  readonly gid: number;
  readonly mtime: number;
  readonly size: number;
  /** Symlinks only ('' otherwise). */
  readonly target: BytePath;
  /** Character devices only. */
  readonly device: string | undefined;
  /** Regular files only. */
  readonly contents: FileContents | null;
}

/** A change with the node's state on each side (`before` absent for created, `after` for deleted). */
export interface VfsContentChange extends VfsChange {
  readonly before?: NodeState;
  readonly after?: NodeState;
}

/** One difference between two trees, as `diff()` reports it. */
export interface VfsChange {
  /** `modified`: contents, mode, owner, mtime or symlink target changed (atime alone is ignored). */
  readonly type: 'created' | 'deleted' | 'modified' | 'renamed';
  /** Path in the newer tree (in the older one for `deleted`). */
  readonly path: BytePath;
  /** Old path, for `renamed` only. A renamed directory's descendants are not listed separately. */
  readonly oldPath?: BytePath;
  readonly kind: NodeKind;
}

/**
 * The VFS. Writes after a snapshot cost what they change (persistent,
 * structurally shared state); `snapshot`, `restore` and `fork` are O(1).
 *
 * Inode lifetime: an ino resolves against the *current* tree. After
 * `restore()` an ino that does not exist in the restored tree gives ENOENT
 * from every ino-based method (the kernel should turn that into EBADF for an
 * fd); an ino that exists sees the restored contents. Ino numbers are never
 * reused within one VFS (forks continue from the parent's counter), so a
 * stale ino can never alias a different file.
 */
export interface Vfs {
  // ---- lookup and metadata ----
  /** Resolve a path to an ino. */
  resolve(path: BytePath, opts?: LookupOptions): Ino;
  /** stat (follows a final symlink). */
  stat(path: BytePath, opts?: LookupOptions): Stat;
  /** lstat (never follows a final symlink). */
  lstat(path: BytePath, opts?: LookupOptions): Stat;
  /** fstat-like: stat of an ino; ENOENT if it no longer exists. */
  statIno(ino: Ino): Stat;
  /** True if the ino exists in the current tree. */
  exists(ino: Ino): boolean;
  /** True if `ino` exists and `cred` has every bit of `want` (R_OK|W_OK|X_OK) on it. */
  accessIno(ino: Ino, want: number, cred?: Cred): boolean;
  /**
   * Bumped by every change that can alter what a path resolves to, a
   * directory lists or who may open it (links, renames, modes, owners,
   * restores): caches of listings stay valid while it is unchanged.
   */
  readonly namespaceVersion: number;
  /**
   * Bumped by every change of a file's contents or metadata (writes,
   * truncates, lazy sources, modes, times) and by restores: a file read to
   * its end is still at its end while it is unchanged.
   */
  readonly dataVersion: number;
  /** access(2): EACCES unless `cred` has every bit of `mode` (R_OK|W_OK|X_OK); F_OK = existence. */
  access(path: BytePath, mode: number, opts?: LookupOptions): void;
  /** Canonical absolute path: symlinks, `.`, `..` resolved. */
  realpath(path: BytePath, opts?: LookupOptions): BytePath;
  /** readlink(2); EINVAL if not a symlink. */
  readlink(path: BytePath, opts?: LookupOptions): BytePath;
  /** A current absolute path of an ino (its first surviving link), or undefined if unlinked/gone. */
  pathOf(ino: Ino): BytePath | undefined;
  /** A directory's parent (the root is its own), or undefined if not a live directory. */
  parentOf(ino: Ino): Ino | undefined;
  /** The directory holding the first link of `ino` (the root for the root), or undefined if unlinked/gone. */
  parentIno(ino: Ino): Ino | undefined;

  // ---- namespace ----
  /** open(2): resolve (and maybe create/truncate), check permissions, return the ino. */
  open(path: BytePath, opts?: OpenOptions): Ino;
  /** mkdir(2) with permission bits `mode` (default 0o755). Returns the new ino. */
  mkdir(path: BytePath, mode?: number, opts?: LookupOptions): Ino;
  /** mkdir -p: create missing parents; existing directories are fine. Returns the final ino. */
  mkdirp(path: BytePath, mode?: number, opts?: LookupOptions): Ino;
  /** rmdir(2). */
  rmdir(path: BytePath, opts?: LookupOptions): void;
  /** unlink(2); EISDIR for directories (Linux). */
  unlink(path: BytePath, opts?: LookupOptions): void;
  /** rename(2) with POSIX replace semantics. */
  rename(oldPath: BytePath, newPath: BytePath, opts?: LookupOptions): void;
  /** symlink(2): create `linkPath` pointing at `target` (stored verbatim). */
  symlink(target: BytePath, linkPath: BytePath, opts?: LookupOptions): Ino;
  /** link(2): hard link; `opts.follow` decides whether a symlink source is followed (default false, like Linux). */
  link(existingPath: BytePath, newPath: BytePath, opts?: LookupOptions): void;
  /** mknod for character devices and fifos. */
  mknod(
    path: BytePath,
    kind: 'chardev' | 'fifo',
    mode: number,
    device?: string,
    opts?: LookupOptions,
  ): Ino;
  /** Directory listing sorted by byte order of the name (stable and deterministic). */
  readdir(path: BytePath, opts?: LookupOptions): readonly DirEntry[];
  /** Listing of a directory ino (checks read permission when `cred` is given). */
  readdirIno(ino: Ino, cred?: Cred): readonly DirEntry[];

  // ---- contents ----
  /** pread: up to `len` bytes at `offset` (short at EOF). EISDIR for directories. */
  read(ino: Ino, offset: number, len: number): Uint8Array;
  /** pread into `dst` (up to its length); returns the bytes read. */
  readInto(ino: Ino, offset: number, dst: Uint8Array): number;
  /**
   * pwrite: writes all of `data` at `offset` (or at EOF when `append`) and
   * returns `data.length`. On a limit (EFBIG/ENOSPC) nothing is written: the
   * file stays exactly as it was (all-or-nothing, not a short write).
   */
  write(ino: Ino, offset: number, data: Uint8Array, opts?: { readonly append?: boolean }): number;
  /** ftruncate: shrink or extend with zeros. */
  truncate(ino: Ino, size: number): void;
  /** Whole file as bytes (follows symlinks). */
  readFile(path: BytePath, opts?: LookupOptions): Uint8Array;
  /**
   * Give the empty regular file `ino` the `source.size` bytes of `source`,
   * read on first use (a read, a write, a truncate that keeps some of them,
   * a hash). Limits apply now, to the full size (EFBIG, ENOSPC).
   */
  setContentSource(ino: Ino, source: ContentSource): void;
  /**
   * Create (or replace) each absolute path as a regular file of `mode`,
   * owned by root, holding its bytes, with missing directories made 0o755:
   * what open(O_CREAT|O_TRUNC), write and chmod do for each, with each
   * directory looked up once. The bytes are kept, not copied (a write
   * copies them): the caller must not change them afterwards.
   */
  installFiles(files: Iterable<readonly [BytePath, Uint8Array]>, mode: number): void;
  /** Create or replace a file's contents (mode for a new file, default 0o644). */
  writeFile(
    path: BytePath,
    data: Uint8Array,
    opts?: LookupOptions & { readonly mode?: number },
  ): Ino;

  // ---- attributes ----
  /** chmod(2); only the owner or root (EPERM). */
  chmod(path: BytePath, mode: number, opts?: LookupOptions): void;
  chmodIno(ino: Ino, mode: number, cred?: Cred): void;
  /** chown(2); -1 leaves a field unchanged. Root only, except an owner setting a group it belongs to. */
  chown(path: BytePath, uid: number, gid: number, opts?: LookupOptions): void;
  chownIno(ino: Ino, uid: number, gid: number, cred?: Cred): void;
  /** utimes: `null` = now, `undefined` = leave unchanged. */
  utimes(
    path: BytePath,
    atime: number | null | undefined,
    mtime: number | null | undefined,
    opts?: LookupOptions,
  ): void;
  utimesIno(
    ino: Ino,
    atime: number | null | undefined,
    mtime: number | null | undefined,
    cred?: Cred,
  ): void;
  /** Mark a subtree read-only (for imports): writers get EROFS, links out of it EXDEV. */
  sealReadOnly(path: BytePath): void;

  // ---- open-file bookkeeping ----
  /** An open file description now holds `ino`: an unlinked file stays readable until released. */
  retain(ino: Ino): void;
  /** Drop one hold; a file with no links and no holds is freed. */
  release(ino: Ino): void;

  // ---- snapshots ----
  /** O(1): remember the current tree. */
  snapshot(): SnapshotId;
  /** O(1): make a remembered tree current (the snapshot stays usable). EINVAL for an unknown id. */
  restore(id: SnapshotId): void;
  /** Forget a snapshot. Unknown ids are ignored. */
  dropSnapshot(id: SnapshotId): void;
  /** Ids of live snapshots, oldest first. */
  snapshots(): SnapshotId[];
  /** O(1): an independent VFS sharing structure with this one's current tree (or with snapshot `id`). */
  fork(id?: SnapshotId): Vfs;
  /**
   * Changes from snapshot `from` to snapshot `to` (default: the current tree),
   * sorted by path. Cost is proportional to what changed, not to the tree.
   * EINVAL for an unknown id.
   */
  diff(from: SnapshotId, to?: SnapshotId): VfsChange[];
  /**
   * Like `diff`, with each node's state before and after (contents included).
   * `from` null is the empty tree: every node of `to` shows as created, the
   * whole tree listed (what a timeline file stores for its first step).
   */
  diffContents(from: SnapshotId | null, to?: SnapshotId): VfsContentChange[];

  // ---- accounting and events ----
  usage(): VfsUsage;
  readonly limits: VfsLimits;
  /** Change limits (e.g. from sandbox settings). Nothing is evicted if usage is already above: later growth fails. */
  setLimits(limits: Partial<VfsLimits>): void;
  /** Listen to changes; returns the unsubscribe function. Events fire synchronously after each mutation. */
  subscribe(listener: VfsListener): () => void;
}
