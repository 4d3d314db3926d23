/**
 * A persistent radix trie keyed by small non-negative integers (inode
 * numbers), 32 slots per node, with the same transient ownership as hamt.ts.
 *
 * Inode numbers are dense and sequential, so a radix trie beats a HAMT here:
 * no keys are stored and no bitmap is needed, which halves what a write
 * after a snapshot copies (one 32-slot array per level, 3-4 levels for
 * 10k-1M inodes).
 */
import type { Edit } from './hamt.js';

/** Keys must stay below this (bit operations are 32-bit). */
export const INT_TRIE_MAX_KEY = 2 ** 31 - 1;

interface TrieNode {
  owner: Edit | null;
  slots: unknown[];
}

export interface IntTrie<V> {
  readonly root: TrieNode | null;
  /** Bit shift of the root level: 0 for a single leaf node. */
  readonly shift: number;
  readonly size: number;
  /** Phantom field so tries of different value types do not mix. */
  readonly _v?: V;
}

const EMPTY: IntTrie<never> = Object.freeze({ root: null, shift: 0, size: 0 });

export function trieEmpty<V>(): IntTrie<V> {
  return EMPTY as IntTrie<V>;
}

export function trieGet<V>(t: IntTrie<V>, key: number): V | undefined {
  if (key < 0 || key > INT_TRIE_MAX_KEY) return undefined;
  let node = t.root;
  if (!node || key >>> t.shift >= 32) return undefined;
  for (let s = t.shift; s > 0; s -= 5) {
    node = node.slots[(key >>> s) & 31] as TrieNode | undefined as TrieNode | null;
    if (!node) return undefined;
  }
  return node.slots[key & 31] as V | undefined;
}

function editable(node: TrieNode, edit: Edit): TrieNode {
  return node.owner === edit ? node : { owner: edit, slots: node.slots.slice() };
}

function newNode(edit: Edit): TrieNode {
  return { owner: edit, slots: new Array<unknown>(32).fill(undefined) };
}

/** Set `key`; `value` undefined removes it. Returns the same trie if nothing changed. */
function update<V>(t: IntTrie<V>, key: number, value: V | undefined, edit: Edit): IntTrie<V> {
  if (!Number.isInteger(key) || key < 0 || key > INT_TRIE_MAX_KEY)
    throw new RangeError(`bad trie key ${key}`);
  let root = t.root;
  let shift = t.shift;
  if (!root) {
    if (value === undefined) return t;
    root = newNode(edit);
    shift = 0;
  }
  while (key >>> shift >= 32) {
    if (value === undefined) return t; // removing a key beyond the range: absent
    const top = newNode(edit);
    top.slots[0] = root;
    root = top;
    shift += 5;
  }
  // Walk down copying shared nodes; remember the path to prune empties on removal.
  const path: TrieNode[] = [];
  const idxs: number[] = [];
  root = editable(root, edit);
  let node = root;
  for (let s = shift; s > 0; s -= 5) {
    const i = (key >>> s) & 31;
    let child = node.slots[i] as TrieNode | undefined;
    if (!child) {
      if (value === undefined) return t;
      child = newNode(edit);
    } else {
      child = editable(child, edit);
    }
    node.slots[i] = child;
    path.push(node);
    idxs.push(i);
    node = child;
  }
  const leafIdx = key & 31;
  const had = node.slots[leafIdx] !== undefined;
  if (node.slots[leafIdx] === value)
    return t.root === root && t.shift === shift ? t : { root, shift, size: t.size };
  node.slots[leafIdx] = value;
  const size = t.size + (had ? 0 : 1) - (value === undefined ? 1 : 0);
  if (value === undefined) {
    // Prune nodes that became empty, bottom-up.
    let cur = node;
    for (let d = path.length - 1; d >= 0; d--) {
      if (cur.slots.some((x) => x !== undefined)) break;
      (path[d] as TrieNode).slots[idxs[d] as number] = undefined;
      cur = path[d] as TrieNode;
    }
    if (size === 0) return EMPTY as IntTrie<V>;
  }
  return { root, shift, size };
}

export function trieSet<V>(t: IntTrie<V>, key: number, value: V, edit: Edit): IntTrie<V> {
  return update(t, key, value, edit);
}

export function trieRemove<V>(t: IntTrie<V>, key: number, edit: Edit): IntTrie<V> {
  return update<V>(t, key, undefined, edit);
}

/**
 * Call `fn` for every key whose value differs between `a` and `b` (by
 * identity), skipping shared subtrees: O(changes * depth) when `b` was
 * derived from `a` by persistent updates.
 */
export function trieDiff<V>(
  a: IntTrie<V>,
  b: IntTrie<V>,
  fn: (key: number, va: V | undefined, vb: V | undefined) => void,
): void {
  let ra = a.root;
  let rb = b.root;
  let sa = a.shift;
  let sb = b.shift;
  // Bring both to the same height: a shorter trie is slot 0 of a virtual taller one.
  while (sa < sb) {
    ra = ra ? { owner: null, slots: [ra] } : null;
    sa += 5;
  }
  while (sb < sa) {
    rb = rb ? { owner: null, slots: [rb] } : null;
    sb += 5;
  }
  diffNode(ra, rb, sa, 0, fn);
}

function diffNode<V>(
  na: TrieNode | null | undefined,
  nb: TrieNode | null | undefined,
  shift: number,
  base: number,
  fn: (key: number, va: V | undefined, vb: V | undefined) => void,
): void {
  if (na === nb) return;
  for (let i = 0; i < 32; i++) {
    const ca = na ? na.slots[i] : undefined;
    const cb = nb ? nb.slots[i] : undefined;
    if (ca === cb) continue;
    const key = base + i * 2 ** shift;
    if (shift === 0) fn(key, ca as V | undefined, cb as V | undefined);
    else diffNode(ca as TrieNode | undefined, cb as TrieNode | undefined, shift - 5, key, fn);
  }
}
