/**
 * The inode record stored in the persistent inode table, and the permission
 * check every operation uses.
 */
import type { Edit, Hamt } from './hamt.js';
import type { FileData } from './fileData.js';
import type { Cred, Ino, NodeKind, BytePath, Stat } from './types.js';

/** The root directory's inode number. */
export const ROOT_INO: Ino = 1;

/** One directory entry naming this inode. */
export interface Link {
  readonly parent: Ino;
  readonly name: BytePath;
}

/**
 * A node. Mutable only while `owner` is the VFS's current edit token (the
 * node is then reachable from no snapshot); otherwise it is cloned first.
 */
export interface Inode {
  owner: Edit | null;
  readonly ino: Ino;
  readonly kind: NodeKind;
  /** Permission and special bits (0o7777). */
  mode: number;
  uid: number;
  gid: number;
  /** Number of directory entries naming it (+1 for `.` and each subdirectory's `..` on directories). */
  nlink: number;
  atime: number;
  mtime: number;
  ctime: number;
  /** 1 normally, a distinct id inside a sealed read-only subtree. */
  dev: number;
  readOnly: boolean;
  /** Every name of the node, first = the one `pathOf` reports. Empty for the root and for unlinked nodes. */
  links: Link[];
  /** Regular files only. */
  data: FileData | null;
  /** Directories only: name -> ino. */
  entries: Hamt<Ino> | null;
  /** Symlinks only. */
  target: BytePath;
  /** Character devices only. */
  device: string | undefined;
}

export function cloneInode(node: Inode, edit: Edit): Inode {
  return { ...node, owner: edit, links: node.links.slice() };
}

/** What tmpfs charges a directory entry (its BOGO_DIRENT_SIZE). */
const DIRENT_BYTES = 20;

/**
 * Size as stat reports it. The VFS is an in-memory filesystem, so a
 * directory reports what Linux's tmpfs does: 20 bytes for each entry,
 * `.` and `..` included (40 for an empty directory).
 */
export function inodeSize(node: Inode): number {
  switch (node.kind) {
    case 'file':
      return node.data ? node.data.size : 0;
    case 'symlink':
      return node.target.length;
    case 'dir':
      return DIRENT_BYTES * ((node.entries ? node.entries.size : 0) + 2);
    default:
      return 0;
  }
}

export function statOf(node: Inode): Stat {
  return {
    dev: node.dev,
    ino: node.ino,
    kind: node.kind,
    mode: node.mode,
    nlink: node.nlink,
    uid: node.uid,
    gid: node.gid,
    size: inodeSize(node),
    atime: node.atime,
    mtime: node.mtime,
    ctime: node.ctime,
    device: node.device,
    readOnly: node.readOnly,
  };
}

export function inGroup(cred: Cred, gid: number): boolean {
  return cred.gid === gid || (cred.groups !== undefined && cred.groups.includes(gid));
}

/**
 * Whether `cred` has every bit of `want` (4 read, 2 write, 1 exec/search).
 * Root passes everything except exec on a non-directory with no x bit at all.
 */
export function permits(node: Inode, cred: Cred, want: number): boolean {
  if (cred.uid === 0) {
    if ((want & 1) !== 0 && node.kind !== 'dir' && (node.mode & 0o111) === 0) return false;
    return true;
  }
  let bits: number;
  if (cred.uid === node.uid) bits = (node.mode >> 6) & 7;
  else if (inGroup(cred, node.gid)) bits = (node.mode >> 3) & 7;
  else bits = node.mode & 7;
  return (bits & want) === want;
}
