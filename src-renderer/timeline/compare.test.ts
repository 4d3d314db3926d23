import { describe, expect, it } from 'vitest';
import { chainTo, compareHistories } from './compare.js';
import type { GraphNode } from './lanes.js';

function graph(edges: [string, string | null][]): Map<string, GraphNode> {
  return new Map(edges.map(([id, parentId]) => [id, { id, parentId }]));
}

describe('compareHistories', () => {
  const g = graph([
    ['a', null],
    ['b', 'a'],
    ['c', 'b'],
    ['d', 'c'],
    ['x', 'b'],
    ['y', 'x'],
    ['z', 'y'],
  ]);

  it('finds where two branches part and pairs the steps after it', () => {
    const cmp = compareHistories(g, 'd', 'z');
    expect(cmp.divergedAt).toBe('b');
    expect(cmp.shared).toEqual(['a', 'b']);
    expect(cmp.left).toEqual(['c', 'd']);
    expect(cmp.right).toEqual(['x', 'y', 'z']);
    expect(cmp.pairs).toEqual([
      ['c', 'x'],
      ['d', 'y'],
      [null, 'z'],
    ]);
  });

  it('treats an ancestor as a branch with nothing after the divergence', () => {
    const cmp = compareHistories(g, 'b', 'd');
    expect(cmp.divergedAt).toBe('b');
    expect(cmp.left).toEqual([]);
    expect(cmp.right).toEqual(['c', 'd']);
  });

  it('reports no shared step for separate roots, and survives a cycle', () => {
    const two = graph([
      ['a', null],
      ['r', null],
      ['s', 'r'],
    ]);
    expect(compareHistories(two, 'a', 's').divergedAt).toBeNull();
    const loop = graph([
      ['p', 'q'],
      ['q', 'p'],
    ]);
    expect(chainTo(loop, 'p')).toEqual(['q', 'p']);
  });
});
