/**
 * Differences between two inode tables (two snapshots, or a snapshot and the
 * current tree), found by walking only the parts of the tries that are not
 * shared, so the cost follows the number of changed nodes.
 */
import { joinPath, PATH_MAX } from './paths.js';
import { trieDiff, trieGet, type IntTrie } from './intTrie.js';
import { ROOT_INO, inodeSize, type Inode, type Link } from './inode.js';
import { readData } from './fileData.js';
import type { FileData } from './fileData.js';
import type {
  BytePath,
  FileContents,
  Ino,
  NodeState,
  VfsChange,
  VfsContentChange,
} from './types.js';

/** First-link path of `ino` within `table`, or undefined if unlinked or gone. */
export function pathIn(table: IntTrie<Inode>, ino: Ino): BytePath | undefined {
  let node = trieGet(table, ino);
  if (!node) return undefined;
  const parts: string[] = [];
  // Bounded: a consistent tree is acyclic, but never loop forever on a bug.
  for (let guard = 0; node.ino !== ROOT_INO; guard++) {
    const link: Link | undefined = node.links[0];
    if (!link || guard > PATH_MAX) return undefined;
    parts.push(link.name);
    node = trieGet(table, link.parent);
    if (!node) return undefined;
  }
  return '/' + parts.reverse().join('/');
}

/** Whether a node changed in a way `diff` reports as `modified`. */
function contentChanged(a: Inode, b: Inode): boolean {
  if (a.mode !== b.mode || a.uid !== b.uid || a.gid !== b.gid) return true;
  if (a.kind === 'file') return a.data !== b.data || a.mtime !== b.mtime;
  if (a.kind === 'symlink') return a.target !== b.target;
  return false;
}

/** Changes from `aTable` to `bTable`, sorted by path. */
export function diffTables(aTable: IntTrie<Inode>, bTable: IntTrie<Inode>): VfsChange[] {
  return diffNodes(aTable, bTable, false);
}

/** Changes from `aTable` to `bTable` with each node's state, sorted by path. */
export function diffTableContents(
  aTable: IntTrie<Inode>,
  bTable: IntTrie<Inode>,
): VfsContentChange[] {
  return diffNodes(aTable, bTable, true);
}

const contentsOf = new WeakMap<FileData, FileContents>();

/** The immutable view of a snapshot's file data (one object per data, so identity holds). */
function fileContents(data: FileData): FileContents {
  let c = contentsOf.get(data);
  if (!c) {
    c = {
      size: data.size,
      identity: data,
      read: () => readData(data, 0, data.size),
      forEachBlock: (fn) => {
        // Not read yet: charged at its full size, as if it were.
        if (data.source) fn(data.source, data.size);
        fn(data, 16 + data.chunks.length * 8);
        for (const chunk of data.chunks) if (chunk) fn(chunk, chunk.buf.byteLength);
      },
    };
    contentsOf.set(data, c);
  }
  return c;
}

function nodeState(node: Inode): NodeState {
  return {
    kind: node.kind,
    mode: node.mode,
    uid: node.uid,
    gid: node.gid,
    mtime: node.mtime,
    size: inodeSize(node),
    target: node.target,
    device: node.device,
    contents: node.kind === 'file' && node.data ? fileContents(node.data) : null,
  };
}

function diffNodes(
  aTable: IntTrie<Inode>,
  bTable: IntTrie<Inode>,
  withState: boolean,
): VfsContentChange[] {
  const out: VfsContentChange[] = [];
  const push = (change: VfsChange, na: Inode | undefined, nb: Inode | undefined): void => {
    if (!withState) {
      out.push(change);
      return;
    }
    out.push({
      ...change,
      ...(na && change.type !== 'created' ? { before: nodeState(na) } : {}),
      ...(nb && change.type !== 'deleted' ? { after: nodeState(nb) } : {}),
    });
  };
  const linkPaths = (table: IntTrie<Inode>, node: Inode): BytePath[] =>
    node.links
      .map((l) => {
        const dir = pathIn(table, l.parent);
        return dir === undefined ? undefined : joinPath(dir, l.name);
      })
      .filter((p): p is BytePath => p !== undefined);
  trieDiff(aTable, bTable, (_ino, na, nb) => {
    if (!na && nb) {
      for (const path of linkPaths(bTable, nb))
        push({ type: 'created', path, kind: nb.kind }, na, nb);
      return;
    }
    if (na && !nb) {
      for (const path of linkPaths(aTable, na))
        push({ type: 'deleted', path, kind: na.kind }, na, nb);
      return;
    }
    if (!na || !nb || na.ino === ROOT_INO) {
      if (na && nb && contentChanged(na, nb))
        push({ type: 'modified', path: '/', kind: 'dir' }, na, nb);
      return;
    }
    const before = linkPaths(aTable, na);
    const after = linkPaths(bTable, nb);
    const removed = before.filter((p) => !after.includes(p));
    const added = after.filter((p) => !before.includes(p));
    // A node whose own entry moved (not just an ancestor) shows as a rename.
    const ownMove =
      na.links.length === 1 &&
      nb.links.length === 1 &&
      (na.links[0]?.parent !== nb.links[0]?.parent || na.links[0]?.name !== nb.links[0]?.name);
    if (ownMove && removed.length === 1 && added.length === 1) {
      push(
        {
          type: 'renamed',
          path: added[0] as BytePath,
          oldPath: removed[0] as BytePath,
          kind: nb.kind,
        },
        na,
        nb,
      );
    } else if (ownMove || na.links.length !== nb.links.length) {
      for (const path of removed) push({ type: 'deleted', path, kind: na.kind }, na, nb);
      for (const path of added) push({ type: 'created', path, kind: nb.kind }, na, nb);
    }
    if (contentChanged(na, nb)) {
      const path = after[0];
      if (path !== undefined) push({ type: 'modified', path, kind: nb.kind }, na, nb);
    }
  });
  out.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : x.type < y.type ? -1 : 1));
  return out;
}
