/**
 * A small reader of V8 `.heapsnapshot` files, enough to answer "who holds
 * the memory that did not come back": objects grouped by constructor, the
 * objects present in a later snapshot and not in an earlier one (node ids
 * are stable within one process), and the shortest retainer path from the
 * GC roots to each. ArrayBuffer contents appear as native nodes
 * ("system / JSArrayBufferData") whose self size is the buffer's length, so
 * buffers outside the JS heap are counted too.
 */
import { readFileSync } from 'node:fs';

interface RawSnapshot {
  snapshot: {
    meta: {
      node_fields: string[];
      node_types: [string[], ...unknown[]];
      edge_fields: string[];
      edge_types: [string[], ...unknown[]];
    };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

export interface HeapNode {
  readonly index: number;
  readonly type: string;
  readonly name: string;
  readonly id: number;
  readonly selfSize: number;
}

export class HeapSnapshot {
  readonly count: number;
  private readonly nf: number;
  private readonly ef: number;
  private readonly f: Record<string, number>;
  private readonly e: Record<string, number>;
  private readonly firstEdge: Uint32Array;
  private parentEdge: Int32Array | undefined;
  private parentNode: Int32Array | undefined;

  private constructor(private readonly raw: RawSnapshot) {
    const m = raw.snapshot.meta;
    this.nf = m.node_fields.length;
    this.ef = m.edge_fields.length;
    this.f = Object.fromEntries(m.node_fields.map((n, i) => [n, i]));
    this.e = Object.fromEntries(m.edge_fields.map((n, i) => [n, i]));
    this.count = raw.nodes.length / this.nf;
    this.firstEdge = new Uint32Array(this.count + 1);
    const edgeCount = this.field('edge_count');
    for (let i = 0, at = 0; i < this.count; i++) {
      this.firstEdge[i] = at;
      at += (raw.nodes[i * this.nf + edgeCount] ?? 0) * this.ef;
      this.firstEdge[i + 1] = at;
    }
  }

  static read(path: string): HeapSnapshot {
    return new HeapSnapshot(JSON.parse(readFileSync(path, 'utf8')) as RawSnapshot);
  }

  private field(name: string): number {
    const i = this.f[name];
    if (i === undefined) throw new Error(`heap snapshot without node field ${name}`);
    return i;
  }

  node(index: number): HeapNode {
    const base = index * this.nf;
    const n = this.raw.nodes;
    const types = this.raw.snapshot.meta.node_types[0];
    return {
      index,
      type: types[n[base + this.field('type')] ?? 0] ?? '?',
      name: this.raw.strings[n[base + this.field('name')] ?? 0] ?? '?',
      id: n[base + this.field('id')] ?? 0,
      selfSize: n[base + this.field('self_size')] ?? 0,
    };
  }

  /** How a node is grouped: its constructor or, for non-objects, its type. */
  static group(n: HeapNode): string {
    if (n.type === 'object' || n.type === 'native' || n.type === 'closure') return n.name;
    if (n.type === 'hidden' || n.type === 'synthetic') return `(${n.type}) ${n.name}`;
    return `(${n.type})`;
  }

  ids(): Set<number> {
    const out = new Set<number>();
    const id = this.field('id');
    for (let i = 0; i < this.count; i++) out.add(this.raw.nodes[i * this.nf + id] ?? 0);
    return out;
  }

  /** Each edge of `index`: its type, name and target node index. */
  *edges(index: number): Generator<{ type: string; name: string; to: number }> {
    const types = this.raw.snapshot.meta.edge_types[0];
    const et = this.e.type ?? 0;
    const en = this.e.name_or_index ?? 1;
    const eto = this.e.to_node ?? 2;
    for (
      let at = this.firstEdge[index] ?? 0;
      at < (this.firstEdge[index + 1] ?? 0);
      at += this.ef
    ) {
      const type = types[this.raw.edges[at + et] ?? 0] ?? '?';
      const nameOrIndex = this.raw.edges[at + en] ?? 0;
      const name =
        type === 'element' || type === 'hidden'
          ? `[${String(nameOrIndex)}]`
          : (this.raw.strings[nameOrIndex] ?? '?');
      yield { type, name, to: (this.raw.edges[at + eto] ?? 0) / this.nf };
    }
  }

  /** Breadth-first from the root over strong edges: the shortest retainer of every node. */
  private retainers(): { parentNode: Int32Array; parentEdge: Int32Array } {
    if (this.parentNode && this.parentEdge)
      return { parentNode: this.parentNode, parentEdge: this.parentEdge };
    const parentNode = new Int32Array(this.count).fill(-1);
    const parentEdge = new Int32Array(this.count).fill(-1);
    const queue = new Int32Array(this.count);
    let head = 0;
    let tail = 0;
    queue[tail++] = 0;
    parentNode[0] = 0;
    const eto = this.e.to_node ?? 2;
    const et = this.e.type ?? 0;
    const weak = this.raw.snapshot.meta.edge_types[0].indexOf('weak');
    while (head < tail) {
      const from = queue[head++] ?? 0;
      for (
        let at = this.firstEdge[from] ?? 0;
        at < (this.firstEdge[from + 1] ?? 0);
        at += this.ef
      ) {
        if (this.raw.edges[at + et] === weak) continue;
        const to = (this.raw.edges[at + eto] ?? 0) / this.nf;
        if (parentNode[to] !== -1) continue;
        parentNode[to] = from;
        parentEdge[to] = at;
        queue[tail++] = to;
      }
    }
    this.parentNode = parentNode;
    this.parentEdge = parentEdge;
    return { parentNode, parentEdge };
  }

  /** The shortest strong path from the GC roots to `index`, outermost first. */
  retainerPath(index: number, maxHops = 14): string[] {
    const { parentNode, parentEdge } = this.retainers();
    const types = this.raw.snapshot.meta.edge_types[0];
    const hops: string[] = [];
    let at = index;
    while (at > 0 && hops.length < maxHops) {
      const from = parentNode[at] ?? -1;
      if (from < 0) return ['(unreachable: held only weakly)', ...hops];
      const edge = parentEdge[at] ?? 0;
      const type = types[this.raw.edges[edge + (this.e.type ?? 0)] ?? 0] ?? '?';
      const nameOrIndex = this.raw.edges[edge + (this.e.name_or_index ?? 1)] ?? 0;
      const name =
        type === 'element' || type === 'hidden'
          ? `[${String(nameOrIndex)}]`
          : (this.raw.strings[nameOrIndex] ?? '?');
      hops.unshift(`${HeapSnapshot.group(this.node(from))} .${name}`);
      at = from;
    }
    return hops;
  }
}

export interface GroupTotal {
  readonly group: string;
  readonly count: number;
  readonly bytes: number;
}

function totals(s: HeapSnapshot, keep: (n: HeapNode) => boolean): Map<string, GroupTotal> {
  const out = new Map<string, GroupTotal>();
  for (let i = 0; i < s.count; i++) {
    const n = s.node(i);
    if (!keep(n)) continue;
    const g = HeapSnapshot.group(n);
    const t = out.get(g) ?? { group: g, count: 0, bytes: 0 };
    out.set(g, { group: g, count: t.count + 1, bytes: t.bytes + n.selfSize });
  }
  return out;
}

/** Groups by how much more of them `after` holds than `before` (self sizes). */
export function growth(before: HeapSnapshot, after: HeapSnapshot): GroupTotal[] {
  const b = totals(before, () => true);
  const a = totals(after, () => true);
  const out: GroupTotal[] = [];
  for (const [g, t] of a) {
    const o = b.get(g) ?? { count: 0, bytes: 0 };
    out.push({ group: g, count: t.count - o.count, bytes: t.bytes - o.bytes });
  }
  return out.sort((x, y) => y.bytes - x.bytes);
}

/** Objects in `after` that `before` did not have, grouped, with the largest few. */
export function newObjects(
  before: HeapSnapshot,
  after: HeapSnapshot,
): { groups: GroupTotal[]; largest: HeapNode[] } {
  const old = before.ids();
  const groups = totals(after, (n) => !old.has(n.id));
  const largest: HeapNode[] = [];
  for (let i = 0; i < after.count; i++) {
    const n = after.node(i);
    if (old.has(n.id) || n.selfSize < 64 * 1024) continue;
    largest.push(n);
  }
  largest.sort((x, y) => y.selfSize - x.selfSize);
  return { groups: [...groups.values()].sort((x, y) => y.bytes - x.bytes), largest };
}

/** A report of what `after` holds beyond `before`, for a person to read. */
export function describeGrowth(beforePath: string, afterPath: string, top = 15): string {
  const before = HeapSnapshot.read(beforePath);
  const after = HeapSnapshot.read(afterPath);
  const kib = (n: number): string => `${(n / 1024).toFixed(0)} KiB`;
  const lines: string[] = ['growth by group (self sizes, after - before):'];
  for (const g of growth(before, after).slice(0, top))
    lines.push(`  ${kib(g.bytes).padStart(10)} ${String(g.count).padStart(7)}  ${g.group}`);
  const fresh = newObjects(before, after);
  lines.push('objects new since the first snapshot, by group:');
  for (const g of fresh.groups.slice(0, top))
    lines.push(`  ${kib(g.bytes).padStart(10)} ${String(g.count).padStart(7)}  ${g.group}`);
  lines.push('largest new objects and their shortest retainer path:');
  for (const n of fresh.largest.slice(0, top)) {
    lines.push(`  ${kib(n.selfSize)} ${HeapSnapshot.group(n)} @${String(n.id)}`);
    for (const hop of after.retainerPath(n.index)) lines.push(`      ${hop}`);
  }
  return lines.join('\n');
}
