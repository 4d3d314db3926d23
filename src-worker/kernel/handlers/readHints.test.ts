/**
 * What the kernel tells the glue so it can skip calls: a READ of a regular
 * file that reached its end says so (rets[0]), an OPEN says whether the
 * file is a regular one whose close nobody else can observe (rets[5]) and
 * brings its stat when asked (args[8]), and the data stamp (W_DATA) moves
 * with every change of file contents or offsets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkerPool } from '../../proc/node/workerPool.js';
import type { Process } from '../../proc/process.js';
import { Sandbox } from '../../sandbox/sandbox.js';
import { fixtureProgramsDir } from '../../sandbox/testPrograms.js';
import { STAT_SLOTS, Sys } from '../../base/syscalls.js';
import type { Kernel } from '../kernel.js';
import type { Reply } from '../../channel/server.js';

const enc = new TextEncoder();
const NONE = new Uint8Array(0);
const O_DIRECTORY = 2;

let fx: Sandbox;
let k: Kernel;
let p: Process;

async function call(op: Sys, args: number[], payload = NONE): Promise<Reply> {
  return await k.handle(p, op, args, payload);
}

async function open(path: string, oflags = 0): Promise<Reply> {
  return call(Sys.OPEN, [3, 1, oflags, 0, 1, 0, 0, 0], enc.encode(path));
}

beforeAll(async () => {
  fx = await Sandbox.create({ programsDir: fixtureProgramsDir() });
  k = fx.kernelForTests;
  k.vfs.writeFile('/tmp/ten', enc.encode('0123456789'));
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

describe('kernel: read hints', () => {
  it('flags the read of a regular file that reaches its end, and only that one', async () => {
    const o = await open('tmp/ten');
    const fd = o.rets?.[0] as number;
    expect(o.rets?.[5]).toBe(1);
    const full = await call(Sys.READ, [fd, 4]);
    expect([full.data?.length, full.rets?.[0]]).toEqual([4, 0]);
    const short = await call(Sys.READ, [fd, 100]);
    expect([short.data?.length, short.rets?.[0]]).toEqual([6, 1]);
    // More data after the end: the next read sees it (the hint held only until then).
    k.vfs.writeFile('/tmp/ten', enc.encode('0123456789ab'));
    const more = await call(Sys.READ, [fd, 100]);
    expect([more.data?.length, more.rets?.[0]]).toEqual([2, 1]);
    await call(Sys.CLOSE, [fd]);
  });

  it('sends the stat of a regular file with its open when asked, as FSTAT would answer', async () => {
    const o = await call(Sys.OPEN, [3, 1, 0, 0, 1, 0, 0, 0, 1], enc.encode('tmp/ten'));
    const fd = o.rets?.[0] as number;
    const d = o.data as Uint8Array;
    expect(d.length).toBe(STAT_SLOTS * 8);
    const slots = [...new Float64Array(d.slice().buffer)];
    expect(slots).toEqual((await call(Sys.FSTAT, [fd])).rets);
    expect(((await open('tmp/ten')).data ?? NONE).length).toBe(0);
    const dir = await call(Sys.OPEN, [3, 1, O_DIRECTORY, 0, 1, 0, 0, 0, 1], enc.encode('tmp'));
    expect((dir.data ?? NONE).length).toBe(0);
  });

  it('moves the data stamp on file writes and seeks, not on reads', async () => {
    const stamp = (): number => k.vfs.dataVersion + k.seeks;
    k.vfs.chmod('/tmp/ten', 0o666);
    const o = await call(Sys.OPEN, [3, 1, 0, 0, 1, 1, 0, 0], enc.encode('tmp/ten'));
    expect(o.errno).toBe(0);
    const fd = o.rets?.[0] as number;
    let s = stamp();
    await call(Sys.READ, [fd, 100]);
    expect(stamp()).toBe(s);
    await call(Sys.WRITE, [fd], enc.encode('x'));
    expect(stamp()).toBeGreaterThan(s);
    s = stamp();
    await call(Sys.SEEK, [fd, 0, 0]);
    expect(stamp()).toBeGreaterThan(s);
    s = stamp();
    await call(Sys.FTRUNCATE, [fd, 3]);
    expect(stamp()).toBeGreaterThan(s);
    await call(Sys.CLOSE, [fd]);
  });

  it('says a directory or a device is not a quiet close, nor a pipe read at its end', async () => {
    expect((await open('tmp', O_DIRECTORY)).rets?.[5]).toBe(0);
    const dev = await open('dev/null');
    expect(dev.rets?.[5]).toBe(0);
    const r = await call(Sys.READ, [dev.rets?.[0] as number, 10]);
    expect([r.data?.length, r.rets?.[0]]).toEqual([0, 0]);
  });
});
