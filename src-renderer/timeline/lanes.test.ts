import { describe, expect, it } from 'vitest';
import { layoutLanes, type GraphNode } from './lanes.js';

const node = (id: string, parentId: string | null = null): GraphNode => ({ id, parentId });

describe('layoutLanes', () => {
  it('keeps a straight history in one lane', () => {
    const { rows, width } = layoutLanes([node('a'), node('b', 'a'), node('c', 'b')]);
    expect(width).toBe(1);
    expect(rows.map((r) => r.lane)).toEqual([0, 0, 0]);
    expect(rows.map((r) => [r.fromAbove, r.toBelow])).toEqual([
      [false, true],
      [true, true],
      [true, false],
    ]);
  });

  it('gives a later child its own lane, reserved from the parent down', () => {
    // a ─ b ─ c      (c continues b)
    //      └─ d      (d branches from b, after c)
    const { rows, width } = layoutLanes([
      node('a'),
      node('b', 'a'),
      node('c', 'b'),
      node('d', 'b'),
      node('e', 'c'),
    ]);
    expect(width).toBe(2);
    expect(rows.map((r) => r.lane)).toEqual([0, 0, 0, 1, 0]);
    expect(rows[1]?.branchesTo).toEqual([1]);
    // The branch line runs through c's row in lane 1.
    expect(rows[2]?.through).toEqual([1]);
    // c continues to e, so lane 0 runs through d's row.
    expect(rows[3]?.through).toEqual([0]);
    expect(rows[3]?.fromAbove).toBe(true);
    expect(rows[3]?.toBelow).toBe(false);
    expect(rows[4]?.through).toEqual([]);
  });

  it('reuses a lane once its branch ends', () => {
    const { rows, width } = layoutLanes([
      node('a'),
      node('b', 'a'),
      node('x', 'a'),
      node('c', 'b'),
      node('y', 'a'),
    ]);
    // x takes lane 1 and ends; y is reserved at a's row, so it needs lane 2 then.
    expect(rows.map((r) => r.lane)).toEqual([0, 0, 1, 0, 2]);
    expect(rows[0]?.branchesTo).toEqual([1, 2]);
    expect(width).toBe(3);
    const later = layoutLanes([
      node('a'),
      node('b', 'a'),
      node('x', 'a'),
      node('c', 'b'),
      node('y', 'c'),
      node('z', 'c'),
    ]);
    // z branches from c after x ended: lane 1 is free again.
    expect(later.rows.map((r) => r.lane)).toEqual([0, 0, 1, 0, 0, 1]);
  });

  it('starts a new lane for a root or a step whose parent is unknown', () => {
    const { rows } = layoutLanes([node('a'), node('b', 'missing'), node('c', 'a')]);
    expect(rows.map((r) => r.lane)).toEqual([0, 1, 0]);
    expect(rows[1]?.fromAbove).toBe(false);
    expect(rows[1]?.through).toEqual([0]);
  });

  it('never puts two live lines in one column of a row', () => {
    // A random tree: every row's dot, through-lines and branch targets are distinct columns.
    let seed = 7;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const nodes: GraphNode[] = [node('0')];
    for (let i = 1; i < 2000; i++)
      nodes.push(node(String(i), String(Math.max(0, i - 1 - rand(8)))));
    const { rows } = layoutLanes(nodes);
    rows.forEach((r) => {
      const cols = [r.lane, ...r.through];
      expect(new Set(cols).size).toBe(cols.length);
      for (const b of r.branchesTo) expect(r.through).not.toContain(b);
    });
    // Every child sits in the lane its parent's line leads to.
    nodes.forEach((n, i) => {
      if (n.parentId === null) return;
      const p = Number(n.parentId);
      const parent = rows[p];
      const child = rows[i];
      if (!parent || !child) throw new Error('missing row');
      expect(child.lane === parent.lane || parent.branchesTo.includes(child.lane)).toBe(true);
      for (let r = p + 1; r < i; r++) expect(rows[r]?.through).toContain(child.lane);
    });
  });

  it('lays out 10,000 steps with branches quickly (once per change, not per frame)', () => {
    const nodes: GraphNode[] = [node('0')];
    for (let i = 1; i < 10_000; i++)
      nodes.push(node(String(i), String(i % 50 === 0 ? i - 20 : i - 1)));
    // The best of three runs: scheduling on a loaded machine only ever adds time.
    let ms = Infinity;
    let layout = layoutLanes(nodes);
    for (let run = 0; run < 3; run++) {
      const t0 = performance.now();
      layout = layoutLanes(nodes);
      ms = Math.min(ms, performance.now() - t0);
    }
    expect(layout.rows).toHaveLength(10_000);
    expect(layout.width).toBeGreaterThan(1);
    // ~15 ms on an idle core; the bound leaves room for a loaded CI machine.
    expect(ms).toBeLessThan(1000);
  });
});
