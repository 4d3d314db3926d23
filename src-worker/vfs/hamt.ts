/**
 * A persistent hash array mapped trie (HAMT) with transient ownership.
 *
 * Used for the inode table (number keys: the hash is the key itself, so
 * sequential inos fill the trie like a radix tree) and for directory entries
 * (string keys). A node whose `owner` equals the caller's `Edit` token was
 * created since the last snapshot and is mutated in place; any other node is
 * shared with a snapshot and copied first, so an update costs O(log32 n) the
 * first time after a snapshot and O(1)-ish allocations afterwards.
 */

/** An ownership token: nodes stamped with it may be mutated in place. */
export interface Edit {
  readonly id: number;
}

let editCounter = 0;
/** A fresh token; every snapshot/fork/restore starts a new one. */
export function newEdit(): Edit {
  return { id: ++editCounter };
}

type Key = string | number;

/** Bitmap-indexed node: `arr` holds (key, value) pairs; key `undefined` means the value is a child node. */
interface BitmapNode<V> {
  readonly collision: false;
  owner: Edit | null;
  bitmap: number;
  arr: Array<Key | undefined | V | Node<V>>;
}

/** All keys share one full 32-bit hash: a flat list of pairs. */
interface CollisionNode<V> {
  readonly collision: true;
  owner: Edit | null;
  readonly hash: number;
  arr: Array<Key | V>;
}

type Node<V> = BitmapNode<V> | CollisionNode<V>;

/** An immutable map header: a root and a size. Never mutated once returned. */
export interface Hamt<V> {
  readonly root: BitmapNode<V> | null;
  readonly size: number;
}

const EMPTY: Hamt<never> = Object.freeze({ root: null, size: 0 });

export function hamtEmpty<V>(): Hamt<V> {
  return EMPTY as Hamt<V>;
}

function hashOf(key: Key): number {
  if (typeof key === 'number') return key >>> 0;
  // FNV-1a over the byte chars, then a finalizer so low bits are well mixed.
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

export function hamtGet<V>(map: Hamt<V>, key: Key): V | undefined {
  let node: Node<V> | null = map.root;
  const hash = hashOf(key);
  let shift = 0;
  while (node) {
    if (node.collision) {
      const arr = node.arr;
      for (let i = 0; i < arr.length; i += 2) if (arr[i] === key) return arr[i + 1] as V;
      return undefined;
    }
    const bit = 1 << ((hash >>> shift) & 31);
    if ((node.bitmap & bit) === 0) return undefined;
    const idx = 2 * popcount(node.bitmap & (bit - 1));
    const k = node.arr[idx];
    if (k === undefined) {
      node = node.arr[idx + 1] as Node<V>;
      shift += 5;
      continue;
    }
    return k === key ? (node.arr[idx + 1] as V) : undefined;
  }
  return undefined;
}

function editable<V, N extends Node<V>>(node: N, edit: Edit): N {
  if (node.owner === edit) return node;
  return { ...node, owner: edit, arr: node.arr.slice() } as N;
}

/** Two leaves that met in one slot: push them down until their hash bits differ. */
function pairNode<V>(
  shift: number,
  k1: Key,
  v1: V,
  h1: number,
  k2: Key,
  v2: V,
  h2: number,
  edit: Edit,
): Node<V> {
  if (shift >= 32 || h1 === h2) {
    return { collision: true, owner: edit, hash: h1, arr: [k1, v1, k2, v2] };
  }
  const b1 = (h1 >>> shift) & 31;
  const b2 = (h2 >>> shift) & 31;
  if (b1 === b2) {
    return {
      collision: false,
      owner: edit,
      bitmap: 1 << b1,
      arr: [undefined, pairNode(shift + 5, k1, v1, h1, k2, v2, h2, edit)],
    };
  }
  const arr = b1 < b2 ? [k1, v1, k2, v2] : [k2, v2, k1, v1];
  return { collision: false, owner: edit, bitmap: (1 << b1) | (1 << b2), arr };
}

interface SetResult {
  added: boolean;
  /** An existing key got a different value (possibly in place, in an owned node). */
  replaced: boolean;
}

function nodeSet<V>(
  node: Node<V>,
  shift: number,
  hash: number,
  key: Key,
  value: V,
  edit: Edit,
  res: SetResult,
): Node<V> {
  if (node.collision) {
    if (hash !== node.hash) {
      // Only reachable at shift < 32: split into a bitmap node holding both.
      const wrapped: BitmapNode<V> = {
        collision: false,
        owner: edit,
        bitmap: 1 << ((node.hash >>> shift) & 31),
        arr: [undefined, node],
      };
      return nodeSet(wrapped, shift, hash, key, value, edit, res);
    }
    for (let i = 0; i < node.arr.length; i += 2) {
      if (node.arr[i] === key) {
        if (node.arr[i + 1] === value) return node;
        const n = editable<V, CollisionNode<V>>(node, edit);
        n.arr[i + 1] = value;
        res.replaced = true;
        return n;
      }
    }
    const n = editable<V, CollisionNode<V>>(node, edit);
    n.arr.push(key, value);
    res.added = true;
    return n;
  }
  const bit = 1 << ((hash >>> shift) & 31);
  const idx = 2 * popcount(node.bitmap & (bit - 1));
  if ((node.bitmap & bit) === 0) {
    const n = editable<V, BitmapNode<V>>(node, edit);
    n.arr.splice(idx, 0, key, value);
    n.bitmap |= bit;
    res.added = true;
    return n;
  }
  const k = node.arr[idx];
  const v = node.arr[idx + 1];
  if (k === undefined) {
    const child = v as Node<V>;
    const updated = nodeSet(child, shift + 5, hash, key, value, edit, res);
    if (updated === child) return node;
    const n = editable<V, BitmapNode<V>>(node, edit);
    n.arr[idx + 1] = updated;
    return n;
  }
  if (k === key) {
    if (v === value) return node;
    const n = editable<V, BitmapNode<V>>(node, edit);
    n.arr[idx + 1] = value;
    res.replaced = true;
    return n;
  }
  const n = editable<V, BitmapNode<V>>(node, edit);
  n.arr[idx] = undefined;
  const oldKey = k as Key;
  n.arr[idx + 1] = pairNode(shift + 5, oldKey, v as V, hashOf(oldKey), key, value, hash, edit);
  res.added = true;
  return n;
}

/**
 * Returns a map with `key` set: the same header if nothing changed, else a
 * new one even when owned nodes were updated in place, so a header's
 * identity stands for its contents (listing caches rely on it).
 */
export function hamtSet<V>(map: Hamt<V>, key: Key, value: V, edit: Edit): Hamt<V> {
  const hash = hashOf(key);
  const res: SetResult = { added: false, replaced: false };
  if (!map.root) {
    const bit = 1 << (hash & 31);
    return { root: { collision: false, owner: edit, bitmap: bit, arr: [key, value] }, size: 1 };
  }
  const root = nodeSet(map.root, 0, hash, key, value, edit, res) as BitmapNode<V>;
  if (root === map.root && !res.added && !res.replaced) return map;
  return { root, size: map.size + (res.added ? 1 : 0) };
}

interface RemoveResult {
  removed: boolean;
}

function nodeRemove<V>(
  node: Node<V>,
  shift: number,
  hash: number,
  key: Key,
  edit: Edit,
  res: RemoveResult,
): Node<V> | null {
  if (node.collision) {
    for (let i = 0; i < node.arr.length; i += 2) {
      if (node.arr[i] === key) {
        res.removed = true;
        if (node.arr.length === 2) return null;
        const n = editable<V, CollisionNode<V>>(node, edit);
        n.arr.splice(i, 2);
        return n;
      }
    }
    return node;
  }
  const bit = 1 << ((hash >>> shift) & 31);
  if ((node.bitmap & bit) === 0) return node;
  const idx = 2 * popcount(node.bitmap & (bit - 1));
  const k = node.arr[idx];
  if (k === undefined) {
    const child = node.arr[idx + 1] as Node<V>;
    const updated = nodeRemove(child, shift + 5, hash, key, edit, res);
    if (updated === child) return node;
    const n = editable<V, BitmapNode<V>>(node, edit);
    if (updated === null) {
      n.arr.splice(idx, 2);
      n.bitmap &= ~bit;
      return n.bitmap === 0 ? null : n;
    }
    n.arr[idx + 1] = updated;
    return n;
  }
  if (k !== key) return node;
  res.removed = true;
  if (node.bitmap === bit) return null;
  const n = editable<V, BitmapNode<V>>(node, edit);
  n.arr.splice(idx, 2);
  n.bitmap &= ~bit;
  return n;
}

/** Returns a map without `key`; the same header if it was absent. */
export function hamtRemove<V>(map: Hamt<V>, key: Key, edit: Edit): Hamt<V> {
  if (!map.root) return map;
  const res: RemoveResult = { removed: false };
  const root = nodeRemove(map.root, 0, hashOf(key), key, edit, res);
  if (!res.removed) return map;
  // A root that became a collision node cannot happen: collisions sit below a bitmap node.
  return root ? { root: root as BitmapNode<V>, size: map.size - 1 } : (EMPTY as Hamt<V>);
}

function nodeEach<V>(node: Node<V>, fn: (key: Key, value: V) => void): void {
  const arr = node.arr;
  for (let i = 0; i < arr.length; i += 2) {
    const k = arr[i];
    if (k === undefined) nodeEach(arr[i + 1] as Node<V>, fn);
    else fn(k as Key, arr[i + 1] as V);
  }
}

/** Visit every entry (order is hash order: sort if you need one). */
export function hamtForEach<V>(map: Hamt<V>, fn: (key: Key, value: V) => void): void {
  if (map.root) nodeEach(map.root, fn);
}
