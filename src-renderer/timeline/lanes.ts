/**
 * Lane layout of the step graph, the way git graph views draw history: steps
 * in time order, one row each, oldest at the top; a step continues its
 * parent's lane when it is the parent's first child, and every later child
 * (a branch) gets its own lane, reserved from the parent's row down so the
 * line joining them is never crossed by another node. Lanes are reused once
 * their last step has no more children. Steps form a tree (no merges).
 */

export interface GraphNode {
  id: string;
  parentId: string | null;
}

export interface LaneRow {
  /** Column of this step's dot. */
  lane: number;
  /** A line reaches the dot from above (the step has a parent in the list). */
  fromAbove: boolean;
  /** A line leaves the dot downwards in its own lane (its first child follows). */
  toBelow: boolean;
  /** Lanes whose line runs through this row without touching the dot. */
  through: number[];
  /** Lanes a branch leaves into from this dot (curving down to the next row). */
  branchesTo: number[];
  /** Columns this row needs: the widest lane touched plus one. */
  width: number;
}

export interface LaneLayout {
  rows: LaneRow[];
  /** Most lanes any row needs. */
  width: number;
  /** Row index of each step id. */
  index: Map<string, number>;
}

/**
 * Lays out `nodes`, given oldest first. A parent that is not in the list (or
 * comes after its child) makes its child start a lane of its own.
 */
export function layoutLanes(nodes: readonly GraphNode[]): LaneLayout {
  const index = new Map<string, number>();
  nodes.forEach((n, i) => index.set(n.id, i));

  // Children of each row, in time order; children listed before their parent are roots.
  const children: number[][] = nodes.map(() => []);
  const hasParent: boolean[] = nodes.map(() => false);
  nodes.forEach((n, i) => {
    const p = n.parentId === null ? undefined : index.get(n.parentId);
    if (p !== undefined && p < i) {
      children[p]?.push(i);
      hasParent[i] = true;
    }
  });

  // lanes[k] = the row index expected next in lane k, or -1 when the lane is free.
  const lanes: number[] = [];
  const laneOf = new Int32Array(nodes.length).fill(-1);
  const free = (): number => {
    const k = lanes.indexOf(-1);
    if (k >= 0) return k;
    lanes.push(-1);
    return lanes.length - 1;
  };

  const rows: LaneRow[] = new Array<LaneRow>(nodes.length);
  let width = 0;
  for (let i = 0; i < nodes.length; i++) {
    let lane = laneOf[i] ?? -1;
    if (lane < 0) lane = free();
    laneOf[i] = lane;
    lanes[lane] = -1;

    const through: number[] = [];
    for (let k = 0; k < lanes.length; k++) if (k !== lane && lanes[k] !== -1) through.push(k);

    const kids = children[i] ?? [];
    const first = kids[0];
    const branchesTo: number[] = [];
    if (first !== undefined) {
      lanes[lane] = first;
      laneOf[first] = lane;
      for (let c = 1; c < kids.length; c++) {
        const child = kids[c] ?? 0;
        const k = free();
        lanes[k] = child;
        laneOf[child] = k;
        branchesTo.push(k);
      }
    }

    let rowWidth = lane + 1;
    for (const k of through) rowWidth = Math.max(rowWidth, k + 1);
    for (const k of branchesTo) rowWidth = Math.max(rowWidth, k + 1);
    width = Math.max(width, rowWidth);
    rows[i] = {
      lane,
      fromAbove: hasParent[i] ?? false,
      toBelow: first !== undefined,
      through,
      branchesTo,
      width: rowWidth,
    };
  }
  return { rows, width, index };
}
