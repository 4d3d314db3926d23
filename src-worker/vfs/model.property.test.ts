/**
 * Property test: random operation sequences run on the real VFS and on a naive
 * model (testModel.ts) must agree on every result (success or the exact errno)
 * and on the whole tree and usage after each step, across snapshots, restores,
 * forks and the three limits.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KernelError } from '../base/errno.js';
import { Vfs, type SnapshotId, type VfsLimits } from './index.js';
import { VfsModel } from './testModel.js';

const NAMES = ['a', 'b', 'c'];
const path = fc
  .array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 3 })
  .map((p) => '/' + p.join('/'));
const bytes = fc.uint8Array({ maxLength: 48 });
const mode = fc.constantFrom(0o755, 0o700, 0o644, 0o2755, 0o1777, 0o4711, 0o17777);

type Op =
  | { op: 'mkdir'; path: string; mode: number }
  | { op: 'writeFile' | 'append'; path: string; data: Uint8Array }
  | { op: 'truncate'; path: string; size: number }
  | { op: 'unlink' | 'rmdir'; path: string }
  | { op: 'rename'; from: string; to: string }
  | { op: 'symlink'; target: string; path: string }
  | { op: 'chmod'; path: string; mode: number }
  | { op: 'snapshot' | 'fork' }
  | { op: 'restore' | 'drop'; pick: number }
  | { op: 'switch'; pick: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant('mkdir' as const), path, mode }) },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constantFrom('writeFile' as const, 'append' as const),
      path,
      data: bytes,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('truncate' as const), path, size: fc.nat(80) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constantFrom('unlink' as const, 'rmdir' as const), path }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('rename' as const), from: path, to: path }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('symlink' as const), target: path, path }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('chmod' as const), path, mode }) },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constantFrom('snapshot' as const, 'fork' as const) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constantFrom('restore' as const, 'drop' as const, 'switch' as const),
      pick: fc.nat(),
    }),
  },
);

const limits: fc.Arbitrary<VfsLimits> = fc.record({
  maxBytes: fc.integer({ min: 0, max: 160 }),
  maxFileSize: fc.integer({ min: 0, max: 64 }),
  maxNodes: fc.integer({ min: 1, max: 14 }),
});

/** One VFS and its model, with their snapshots paired. */
interface World {
  vfs: Vfs;
  model: VfsModel;
  snaps: { id: SnapshotId; model: VfsModel }[];
}

function errnoOf(fn: () => void): number | null {
  try {
    fn();
    return null;
  } catch (e) {
    if (e instanceof KernelError) return e.errno;
    throw e; // anything else is a crash, and fails the property
  }
}

/** Apply one operation to both sides; returns [vfs result, model result]. */
function apply(w: World, o: Op): [number | null, number | null] {
  const { vfs, model } = w;
  switch (o.op) {
    case 'mkdir':
      return [
        errnoOf(() => vfs.mkdir(o.path, o.mode)),
        VfsModel.expect(() => model.mkdir(o.path, o.mode)),
      ];
    case 'writeFile':
      return [
        errnoOf(() => vfs.writeFile(o.path, o.data)),
        VfsModel.expect(() => model.writeFile(o.path, o.data)),
      ];
    case 'append':
      return [
        errnoOf(() => vfs.write(vfs.open(o.path, { write: true }), 0, o.data, { append: true })),
        VfsModel.expect(() => model.append(o.path, o.data)),
      ];
    case 'truncate':
      return [
        errnoOf(() => vfs.truncate(vfs.open(o.path, { write: true }), o.size)),
        VfsModel.expect(() => model.truncate(o.path, o.size)),
      ];
    case 'unlink':
      return [errnoOf(() => vfs.unlink(o.path)), VfsModel.expect(() => model.unlink(o.path))];
    case 'rmdir':
      return [errnoOf(() => vfs.rmdir(o.path)), VfsModel.expect(() => model.rmdir(o.path))];
    case 'rename':
      return [
        errnoOf(() => vfs.rename(o.from, o.to)),
        VfsModel.expect(() => model.rename(o.from, o.to)),
      ];
    case 'symlink':
      return [
        errnoOf(() => vfs.symlink(o.target, o.path)),
        VfsModel.expect(() => model.symlink(o.target, o.path)),
      ];
    case 'chmod':
      return [
        errnoOf(() => vfs.chmod(o.path, o.mode)),
        VfsModel.expect(() => model.chmod(o.path, o.mode)),
      ];
    default:
      throw new Error(`not a tree operation: ${o.op}`);
  }
}

/** Every node of the real tree, read back through the public API. */
function dump(vfs: Vfs): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (dir: string): void => {
    for (const e of vfs.readdir(dir)) {
      const p = dir === '/' ? '/' + e.name : dir + '/' + e.name;
      const st = vfs.lstat(p);
      if (st.kind === 'dir') {
        out.set(p, `dir ${st.mode.toString(8)}`);
        visit(p);
      } else if (st.kind === 'file') {
        out.set(
          p,
          `file ${st.mode.toString(8)} ${Array.from(vfs.read(st.ino, 0, st.size)).join(',')}`,
        );
      } else {
        out.set(p, `symlink ${vfs.readlink(p)}`);
      }
    }
  };
  visit('/');
  return out;
}

function describeModel(model: VfsModel): Map<string, string> {
  const out = new Map<string, string>();
  for (const [p, n] of [...model.nodes].sort()) {
    if (n.kind === 'dir') out.set(p, `dir ${n.mode.toString(8)}`);
    else if (n.kind === 'file')
      out.set(p, `file ${n.mode.toString(8)} ${Array.from(n.data).join(',')}`);
    else out.set(p, `symlink ${n.target}`);
  }
  return out;
}

function sameTree(w: World, step: string): void {
  expect(new Map([...dump(w.vfs)].sort()), step).toEqual(describeModel(w.model));
  expect(w.vfs.usage(), step).toEqual(w.model.usage());
}

function run(lim: VfsLimits, ops: Op[]): void {
  const first: World = { vfs: Vfs.create({ limits: lim }), model: new VfsModel(lim), snaps: [] };
  const worlds = [first];
  let w = first;
  ops.forEach((o, i) => {
    const step = `step ${String(i)} ${JSON.stringify(o)}`;
    if (o.op === 'snapshot') {
      w.snaps.push({ id: w.vfs.snapshot(), model: w.model.clone() });
    } else if (o.op === 'fork') {
      if (worlds.length < 4) worlds.push({ vfs: w.vfs.fork(), model: w.model.clone(), snaps: [] });
    } else if (o.op === 'switch') {
      w = worlds[o.pick % worlds.length] as World;
    } else if (o.op === 'restore' || o.op === 'drop') {
      const s = w.snaps[o.pick % Math.max(1, w.snaps.length)];
      if (!s) return;
      if (o.op === 'restore') {
        w.vfs.restore(s.id);
        w.model = s.model.clone();
      } else {
        w.vfs.dropSnapshot(s.id);
        w.snaps = w.snaps.filter((x) => x !== s);
      }
    } else {
      const [got, want] = apply(w, o);
      expect(got, step).toBe(want);
    }
    sameTree(w, step);
  });
  // Every world and every kept snapshot still holds exactly what its model says.
  for (const x of worlds) {
    sameTree(x, 'end');
    for (const s of x.snaps) {
      const view = x.vfs.fork(s.id);
      expect(new Map([...dump(view)].sort()), 'snapshot').toEqual(describeModel(s.model));
    }
  }
}

describe('VFS against a model (fast-check)', () => {
  it('random operation sequences agree on results, trees, usage and snapshots', () => {
    fc.assert(
      fc.property(limits, fc.array(op, { maxLength: 60 }), (lim, ops) => run(lim, ops)),
      { numRuns: 400 },
    );
  }, 90_000);

  it('with roomy limits, long sequences agree too', () => {
    const roomy = { maxBytes: 1 << 20, maxFileSize: 1 << 20, maxNodes: 1000 };
    fc.assert(
      fc.property(fc.array(op, { minLength: 50, maxLength: 150 }), (ops) => run(roomy, ops)),
      { numRuns: 150 },
    );
  }, 90_000);
});
