/**
 * fd 3 is both libc's root preopen and a descriptor scripts use freely: path
 * calls with dirfd 3 always resolve at the root, fd calls use slot 3.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SinkFile } from '../dev/devices.js';
import type { OpenFile } from '../fd/openFile.js';
import { createPipe } from '../pipe/pipe.js';
import type { Process } from '../proc/process.js';
import { WorkerPool } from '../proc/node/workerPool.js';
import { defaultProgramsDir, Sandbox } from '../sandbox/sandbox.js';
import { fixtureProgramsDir } from '../sandbox/testPrograms.js';
import { Errno } from '../base/errno.js';
import type { Kernel } from './kernel.js';
import { Sys } from '../base/syscalls.js';

const enc = new TextEncoder();
const dec = new TextDecoder();
const NONE = new Uint8Array(0);
const FT_DIR = 3;

let fx: Sandbox;
let k: Kernel;

beforeAll(async () => {
  fx = await Sandbox.create({ programsDir: fixtureProgramsDir() });
  k = fx.kernelForTests;
  await fx.warm();
});

afterAll(async () => {
  await fx.destroy();
  expect(await WorkerPool.drained()).toBe(true);
});

/** One syscall of `p`, straight into the kernel's dispatcher. */
async function call(p: Process, op: Sys, args: number[], payload = NONE) {
  return await k.handle(p, op, args, payload);
}

/** A process that sits still while the test issues syscalls on its behalf. */
async function idle(fds: [number, OpenFile][] = []) {
  return await k.spawn({
    path: '/usr/bin/fixture-sleep',
    argv: [enc.encode('sleep'), enc.encode('20000')],
    env: [],
    fds,
  });
}

describe('kernel: the implicit root preopen', () => {
  it('prestat answers "/" for 3 only, whatever slot 3 holds', async () => {
    const [r, w] = createPipe();
    const p = await idle([[3, r]]);
    try {
      const r3 = await call(p, Sys.PRESTAT, [3]);
      expect(r3.errno).toBe(0);
      expect(dec.decode(r3.data)).toBe('/');
      expect((await call(p, Sys.PRESTAT, [4])).errno).toBe(Errno.EBADF);
      expect((await call(p, Sys.PRESTAT, [0])).errno).toBe(Errno.EBADF);
      // fd calls on 3 reach the user's pipe ...
      w.write(enc.encode('user data'));
      const rd = await call(p, Sys.READ, [3, 100]);
      expect(dec.decode(rd.data)).toBe('user data');
      // ... while path calls with dirfd 3 resolve at the root.
      const st = await call(p, Sys.PATH_STAT, [3, 1], enc.encode('etc/hostname'));
      expect(st.errno).toBe(0);
      const o = await call(p, Sys.OPEN, [3, 1, 0, 0, 1, 0], enc.encode('etc/hostname'));
      expect(o.errno).toBe(0);
      const fd = o.rets?.[0] ?? -1;
      // fds 0-2 were not given, so the lowest free fd is 0; 3 is taken by the pipe.
      expect(fd).toBe(0);
      expect(dec.decode((await call(p, Sys.READ, [fd, 100])).data)).toBe('sandglass\n');
      expect((await call(p, Sys.MKDIR, [3], enc.encode('tmp/fd3dir'))).errno).toBe(0);
      expect(fx.vfs.stat('/tmp/fd3dir').kind).toBe('dir');
      expect((await call(p, Sys.RMDIR, [3], enc.encode('tmp/fd3dir'))).errno).toBe(0);
      // Closing the user's fd 3 brings back the root for fd calls.
      expect((await call(p, Sys.CLOSE, [3])).errno).toBe(0);
      const fs3 = await call(p, Sys.FSTAT, [3]);
      expect(fs3.errno).toBe(0);
      expect(fs3.rets?.[2]).toBe(FT_DIR);
    } finally {
      k.exitProcess(p, { code: 0 });
      w.release();
    }
  });

  it('a fresh process: fd 3 is "/", closing it is harmless, open() may take 3', async () => {
    const p = await idle();
    try {
      const fs3 = await call(p, Sys.FSTAT, [3]);
      expect(fs3.rets?.[2]).toBe(FT_DIR);
      const dir = await call(p, Sys.READDIR, [3, 0, 100]);
      expect(dir.errno).toBe(0);
      expect(dec.decode(dir.data)).toContain('etc');
      expect((await call(p, Sys.CLOSE, [3])).errno).toBe(0);
      expect((await call(p, Sys.CLOSE, [3])).errno).toBe(0);
      expect((await call(p, Sys.PRESTAT, [3])).errno).toBe(0);
      const o = await call(p, Sys.OPEN, [3, 1, 0, 0, 1, 0], enc.encode('etc/hostname'));
      // fds 0-2 are free too (no streams were given), so the lowest free fd is 0.
      expect(o.rets?.[0]).toBe(0);
      // dup2 onto 3 replaces it for fd calls only.
      expect((await call(p, Sys.DUP2, [0, 3])).errno).toBe(0);
      expect(dec.decode((await call(p, Sys.READ, [3, 100])).data)).toBe('sandglass\n');
      expect((await call(p, Sys.PATH_STAT, [3, 1], enc.encode('tmp'))).rets?.[2]).toBe(FT_DIR);
      // renumber 3 away: the slot empties, the root stays for path calls.
      expect((await call(p, Sys.RENUMBER, [3, 0])).errno).toBe(0);
      expect(dec.decode((await call(p, Sys.PREAD, [0, 100, 0])).data)).toBe('sandglass\n');
      expect((await call(p, Sys.FSTAT, [3])).rets?.[2]).toBe(FT_DIR);
      expect((await call(p, Sys.PATH_STAT, [3, 1], enc.encode('etc'))).errno).toBe(0);
    } finally {
      k.exitProcess(p, { code: 0 });
    }
  });

  it('a wasm program with a user file at fd 3 still resolves every path', async () => {
    let out = '';
    let err = '';
    const sink = new SinkFile((d) => (out += dec.decode(d)));
    const errs = new SinkFile((d) => (err += dec.decode(d)));
    const [r, w] = createPipe();
    const p = await k.spawn({
      path: '/usr/bin/fixture-fs',
      argv: ['fs', 'read', '/etc/hostname', 'write', '/tmp/fd3f', 'hi', 'read', '/tmp/fd3f']
        .concat(['mkdir', '/tmp/fd3d', 'mv', '/tmp/fd3f', '/tmp/fd3d/g', 'ls', '/tmp/fd3d'])
        .map((s) => enc.encode(s)),
      env: [enc.encode('PWD=/tmp')],
      fds: [
        [1, sink],
        [2, errs],
        [3, r],
      ],
    });
    const e = await p.exited();
    w.release();
    expect(err).toBe('');
    expect(e.code).toBe(0);
    expect(out).toBe('sandglass\n\nhi\ng\n');
  });
});

const shellBuilt = existsSync(join(defaultProgramsDir(), 'shell.wasm'));

describe.skipIf(!shellBuilt)('shell: fd 3 in scripts', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await Sandbox.create();
  });
  afterAll(async () => {
    await sb.destroy();
  });
  const sh = (script: string) => sb.run(script, { cwd: '/tmp' });

  it('exec 3> then later commands still find their paths', async () => {
    const r = await sh('exec 3> f3; echo via3 >&3; exec 3>&-; cat f3');
    expect(r).toMatchObject({ stdout: 'via3\n', status: 0 });
  });

  it('exec 3< and read from it, then run a command', async () => {
    await sb.writeFile('/tmp/f5', 'line one\nline two\n');
    const r = await sh('exec 3<f5; read -r l <&3; echo $l; cat /etc/hostname; exec 3<&-');
    expect(r).toMatchObject({ stdout: 'line one\nsandglass\n', status: 0 });
  });

  it('a child with fd 3 redirected still has the root', async () => {
    const r = await sh('cat 3</etc/hostname /etc/hostname');
    expect(r).toMatchObject({ stdout: 'sandglass\n', status: 0 });
  });

  it('a child reads the fd 3 it inherited', async () => {
    const r = await sh('cat /dev/fd/3 3</etc/hostname');
    expect(r).toMatchObject({ stdout: 'sandglass\n', status: 0 });
  });

  // The kernel hands the child its fd 3 (test above); the shell learns its
  // inherited fds by listing /dev/fd at startup.
  it('a child shell redirects from the fd 3 it inherited', async () => {
    const r = await sh("sh -c 'cat <&3' 3</etc/hostname");
    expect(r).toMatchObject({ stdout: 'sandglass\n', status: 0 });
  });

  it('fds 3-9 all at once', async () => {
    const r = await sh(
      'exec 3>a 4>b 5>c 6>d 7>e 8>f 9>g; for n in 3 4 5 6 7 8 9; do echo $n >&$n; done;' +
        ' exec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-; cat a b c d e f g | tr -d "\\n"',
    );
    expect(r).toMatchObject({ stdout: '3456789', status: 0 });
  });
});
