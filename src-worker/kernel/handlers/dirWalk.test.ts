/**
 * A directory's open brings the listings a depth-first walk opens next:
 * they must be exactly what READDIR answers, in walk order, limited by the
 * budget, without what the process may not list; ADOPT_DIRS installs the
 * glue's own opens at the descriptors it chose.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_SIZE } from '../../channel/layout.js';
import { WorkerPool } from '../../proc/node/workerPool.js';
import type { Process } from '../../proc/process.js';
import { Sandbox } from '../../sandbox/sandbox.js';
import { fixtureProgramsDir } from '../../sandbox/testPrograms.js';
import { USER_GID, USER_UID } from '../../vfs/index.js';
import { Errno } from '../../base/errno.js';
import type { Kernel } from '../kernel.js';
import { Sys } from '../../base/syscalls.js';

const enc = new TextEncoder();
const NONE = new Uint8Array(0);
const O_DIRECTORY = 2;
const FT_DIR = 3;

let fx: Sandbox;
let k: Kernel;
let p: Process;

interface Rec {
  rel: string;
  ino: number;
  entries: Uint8Array;
}

/** One syscall of the idle process, straight into the dispatcher. */
async function call(op: Sys, args: number[], payload = NONE, out?: Uint8Array) {
  return await k.handle(p, op, args, payload, out);
}

/** OPEN of a directory asking for its listing and `budget` bytes of walk records. */
async function openDir(path: string, budget: number) {
  const out = new Uint8Array(DATA_SIZE);
  const r = await call(Sys.OPEN, [3, 1, O_DIRECTORY, 0, 1, 0, 4096, budget], enc.encode(path), out);
  expect(r.errno).toBe(0);
  const rets = r.rets ?? [];
  const data = (r.data ?? NONE).slice();
  const dv = new DataView(data.buffer);
  const recs: Rec[] = [];
  let at = rets[2] ?? 0;
  for (let i = 0; i < (rets[4] ?? 0); i++) {
    const n = dv.getUint32(at, true);
    const rel = String.fromCharCode(...data.subarray(at + 4, at + 4 + n));
    at += 4 + n;
    const ino = dv.getFloat64(at, true);
    const len = dv.getUint32(at + 8, true);
    recs.push({ rel, ino, entries: data.subarray(at + 12, at + 12 + len) });
    at += 12 + len;
  }
  expect(at).toBe(data.length);
  return { fd: rets[0] ?? -1, up: rets[3], own: data.subarray(0, rets[2]), recs };
}

/** What a plain open and READDIR from cookie 0 answer for `path`. */
async function readdirOf(path: string): Promise<{ ino: number; entries: Uint8Array }> {
  const o = await call(Sys.OPEN, [3, 1, O_DIRECTORY, 0, 1, 0], enc.encode(path));
  const fd = o.rets?.[0] ?? -1;
  const st = await call(Sys.FSTAT, [fd]);
  const r = await call(Sys.READDIR, [fd, 0, 100_000]);
  await call(Sys.CLOSE, [fd]);
  return { ino: st.rets?.[1] ?? -1, entries: (r.data ?? NONE).slice() };
}

beforeAll(async () => {
  fx = await Sandbox.create({ programsDir: fixtureProgramsDir() });
  k = fx.kernelForTests;
  const v = k.vfs;
  for (const d of ['a/x', 'a/y/z', 'b', 'c/hidden', 'd/e', 'n/inner'])
    v.mkdirp(`/home/user/w/${d}`);
  for (const f of ['a/f1', 'a/y/f2', 'b/f3', 'd/e/f4'])
    v.writeFile(`/home/user/w/${f}`, enc.encode(f));
  v.symlink('/home/user/w/d', '/home/user/w/link');
  v.chown('/home/user/w', USER_UID, USER_GID);
  v.chmod('/home/user/w/c', 0o311); // searchable, not listable
  v.chmod('/home/user/w/n', 0o644); // listable, not searchable
  p = await k.spawn({
    path: '/usr/bin/fixture-sleep',
    argv: [enc.encode('sleep'), enc.encode('20000')],
    env: [],
    fds: [],
  });
});

afterAll(async () => {
  k.exitProcess(p, { code: 0 });
  await fx.destroy();
  expect(await WorkerPool.drained()).toBe(true);
});

describe('kernel: directory walk prefetch', () => {
  it('records the subtree, then later siblings, in readdir order, as READDIR answers them', async () => {
    const o = await openDir('home/user/w/a', 1 << 20);
    expect(o.up).toBe(1);
    // c is not listable and n's children not searchable: both are left to the kernel.
    expect(o.recs.map((r) => r.rel)).toEqual(['a/x', 'a/y', 'a/y/z', 'b', 'd', 'd/e', 'n']);
    for (const r of o.recs) {
      const want = await readdirOf(`home/user/w/${r.rel}`);
      expect(r.ino).toBe(want.ino);
      expect(r.entries).toEqual(want.entries);
    }
    expect(o.own).toEqual((await readdirOf('home/user/w/a')).entries);
    await call(Sys.CLOSE, [o.fd]);
  });

  it('stops at the budget on a whole record', async () => {
    const all = await openDir('home/user/w/a', 1 << 20);
    const size = (r: Rec): number => 16 + r.rel.length + r.entries.length;
    const budget = size(all.recs[0] as Rec) + size(all.recs[1] as Rec) + 3;
    const some = await openDir('home/user/w/a', budget);
    expect(some.recs.map((r) => r.rel)).toEqual(['a/x', 'a/y']);
    const none = await openDir('home/user/w/a', 0);
    expect(none.up).toBe(-1);
    expect(none.recs).toEqual([]);
    for (const o of [all, some, none]) await call(Sys.CLOSE, [o.fd]);
  });

  it('gives no siblings through a symlink or `..`, and none above the root', async () => {
    const viaLink = await openDir('home/user/w/link', 1 << 20);
    expect(viaLink.up).toBe(0);
    expect(viaLink.recs.map((r) => r.rel)).toEqual(['e']);
    const dotdot = await openDir('home/user/w/a/../d', 1 << 20);
    expect(dotdot.up).toBe(-1);
    const root = await openDir('.', 4096);
    expect(root.up).toBe(0);
    for (const o of [viaLink, dotdot, root]) await call(Sys.CLOSE, [o.fd]);
  });

  it('ADOPT_DIRS installs directories at the chosen free descriptors only', async () => {
    const d = await readdirOf('home/user/w/d');
    const r = await call(Sys.ADOPT_DIRS, [1, 9, d.ino]);
    expect(r.errno).toBe(0);
    const st = await call(Sys.FSTAT, [9]);
    expect(st.rets?.[1]).toBe(d.ino);
    expect(st.rets?.[2]).toBe(FT_DIR);
    const rel = await call(Sys.PATH_STAT, [9, 0], enc.encode('e/f4'));
    expect(rel.errno).toBe(0);
    expect((await call(Sys.ADOPT_DIRS, [1, 9, d.ino])).errno).toBe(Errno.EBADF);
    await call(Sys.CLOSE, [9]);
  });

  it('the namespace version moves with links, modes and owners, not with data', () => {
    const v = k.vfs;
    const at = (): number => v.namespaceVersion;
    let before = at();
    v.writeFile('/home/user/w/a/f1', enc.encode('new data'));
    expect(at()).toBe(before);
    for (const change of [
      () => v.mkdir('/home/user/w/m'),
      () => v.chmod('/home/user/w/m', 0o700),
      () => v.chown('/home/user/w/m', USER_UID, USER_GID),
      () => v.rename('/home/user/w/m', '/home/user/w/m2'),
      () => v.rmdir('/home/user/w/m2'),
    ]) {
      before = at();
      change();
      expect(at()).toBeGreaterThan(before);
    }
  });
});
