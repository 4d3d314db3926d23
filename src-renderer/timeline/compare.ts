/**
 * Comparing two lines of history: the chain of steps from the root to each of
 * two steps, where they part (their last shared step), and the steps after
 * that on each side lined up by position so they can be read side by side.
 */
import type { GraphNode } from './lanes.js';

/** Ids from the oldest ancestor to `id` itself; stops at a missing parent or a cycle. */
export function chainTo(byId: ReadonlyMap<string, GraphNode>, id: string): string[] {
  const chain: string[] = [];
  const seen = new Set<string>();
  let at: string | null = id;
  while (at !== null && !seen.has(at)) {
    const node = byId.get(at);
    if (!node) break;
    seen.add(at);
    chain.push(at);
    at = node.parentId;
  }
  return chain.reverse();
}

export interface BranchComparison {
  /** The last step both histories share, or null when they share none. */
  divergedAt: string | null;
  /** Steps both share, oldest first (ending at divergedAt). */
  shared: string[];
  /** Steps after the divergence on the left and right side, oldest first. */
  left: string[];
  right: string[];
  /** left and right lined up: one pair per position, null where a side is shorter. */
  pairs: [string | null, string | null][];
}

export function compareHistories(
  byId: ReadonlyMap<string, GraphNode>,
  leftId: string,
  rightId: string,
): BranchComparison {
  const a = chainTo(byId, leftId);
  const b = chainTo(byId, rightId);
  let common = 0;
  while (common < a.length && common < b.length && a[common] === b[common]) common++;
  const shared = a.slice(0, common);
  const left = a.slice(common);
  const right = b.slice(common);
  const pairs: [string | null, string | null][] = [];
  for (let i = 0; i < Math.max(left.length, right.length); i++)
    pairs.push([left[i] ?? null, right[i] ?? null]);
  return { divergedAt: shared[shared.length - 1] ?? null, shared, left, right, pairs };
}
