/** Lazy host imports: contents read on first use, checked against what the import saw. */
import { mkdtempSync, promises as fsp, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Errno, KernelError } from '../../base/errno.js';
import { Vfs } from '../index.js';
import { expectErrno, str, text } from '../testUtil.js';
import { exportTree, importHostDir } from './index.js';

let dir: string;
let host: string;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sandglass-lazy-'));
  host = join(dir, 'in');
  await fsp.mkdir(join(host, 'sub'), { recursive: true });
  await fsp.writeFile(join(host, 'a.txt'), 'alpha\n');
  await fsp.writeFile(join(host, 'sub/b.txt'), 'bravo\n');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A lazy import that treats the test's fresh files as old (recentMs 0). */
function lazy(vfs: Vfs, at: string, readOnly = false) {
  return importHostDir(vfs, host, at, { contents: 'lazy', recentMs: 0, readOnly });
}

/** The errno and message a call fails with. */
function failure(fn: () => unknown): KernelError {
  try {
    fn();
  } catch (err) {
    if (err instanceof KernelError) return err;
    throw err;
  }
  throw new Error('did not fail');
}

describe('lazy importHostDir', () => {
  it('reads nothing at import, then reads each file once, on first use', async () => {
    const vfs = Vfs.createDefault();
    const res = await lazy(vfs, '/p');
    expect(res).toMatchObject({ files: 2, bytes: 12, bytesRead: 0 });
    // Sizes and accounting are there before any read.
    expect(vfs.stat('/p/a.txt').size).toBe(6);
    const used = vfs.usage().bytes;
    expect(str(vfs.readFile('/p/a.txt'))).toBe('alpha\n');
    expect(vfs.usage().bytes).toBe(used);
    // Read once: the host changing afterwards changes nothing, snapshots included.
    const snap = vfs.snapshot();
    await fsp.writeFile(join(host, 'a.txt'), 'changed and longer\n');
    expect(str(vfs.readFile('/p/a.txt'))).toBe('alpha\n');
    expect(str(vfs.fork(snap).readFile('/p/a.txt'))).toBe('alpha\n');
  });

  it('fails with EIO, and says why, when the host file changed before its first read', async () => {
    const vfs = Vfs.createDefault();
    await lazy(vfs, '/p');
    const snap = vfs.snapshot();
    await fsp.writeFile(join(host, 'a.txt'), 'ALPHA\n'); // same size: ctime still tells
    await fsp.rm(join(host, 'sub/b.txt'));
    const err = failure(() => vfs.readFile('/p/a.txt'));
    expect(err.errno).toBe(Errno.EIO);
    expect(err.notice).toMatch(/\/p\/a\.txt: the host file changed after it was imported/);
    expect(failure(() => vfs.readFile('/p/sub/b.txt')).notice).toMatch(/removed or replaced/);
    // Never the new contents, from the tree or a snapshot of it, even after the host changes back.
    await fsp.writeFile(join(host, 'a.txt'), 'alpha\n');
    expectErrno(() => vfs.fork(snap).readFile('/p/a.txt'), Errno.EIO);
    expectErrno(() => vfs.readFile('/p/a.txt'), Errno.EIO);
    // The file can still be replaced or removed.
    vfs.writeFile('/p/a.txt', text('new'));
    expect(str(vfs.readFile('/p/a.txt'))).toBe('new');
    vfs.unlink('/p/sub/b.txt');
  });

  it('reads a recently changed file at import (its times cannot show a change in the same tick)', async () => {
    const vfs = Vfs.createDefault();
    const res = await importHostDir(vfs, host, '/p', { contents: 'lazy' });
    expect(res.bytesRead).toBe(12);
    await fsp.writeFile(join(host, 'a.txt'), 'ALPHA\n');
    expect(str(vfs.readFile('/p/a.txt'))).toBe('alpha\n');
  });

  it('keeps a read-only import read-only; a write to a writable one reads it first', async () => {
    const vfs = Vfs.createDefault();
    await lazy(vfs, '/ro', true);
    expectErrno(() => vfs.writeFile('/ro/a.txt', text('x')), Errno.EROFS);
    const ro = vfs.open('/ro/a.txt');
    expectErrno(() => vfs.truncate(ro, 0), Errno.EROFS);
    expect(str(vfs.readFile('/ro/a.txt'))).toBe('alpha\n');
    await lazy(vfs, '/rw');
    const rw = vfs.open('/rw/a.txt', { write: true });
    const before = vfs.snapshot();
    vfs.write(rw, 1, text('L'));
    expect(str(vfs.readFile('/rw/a.txt'))).toBe('aLpha\n');
    expect(str(vfs.fork(before).readFile('/rw/a.txt'))).toBe('alpha\n');
    // Truncating to nothing needs no read: it works with the host file gone.
    await fsp.rm(join(host, 'sub/b.txt'));
    const b = vfs.open('/rw/sub/b.txt', { write: true });
    vfs.truncate(b, 0);
    vfs.write(b, 0, text('fresh'));
    expect(str(vfs.readFile('/rw/sub/b.txt'))).toBe('fresh');
  });

  it('applies the size limits to recorded sizes without reading (a 1.5 GiB file fails at once)', async () => {
    const big = await fsp.open(join(host, 'big'), 'w');
    await big.truncate(1.5 * 1024 ** 3);
    await big.close();
    const t0 = performance.now();
    await expect(lazy(Vfs.createDefault(), '/p')).rejects.toMatchObject({ errno: Errno.EFBIG });
    const roomy = Vfs.create({ limits: { maxFileSize: 2 ** 40, maxBytes: 1024 ** 3 } });
    await expect(lazy(roomy, '/p')).rejects.toMatchObject({ errno: Errno.ENOSPC });
    expect(performance.now() - t0).toBeLessThan(2000);
  });

  it('never follows a file swapped for a symlink after the import', async () => {
    const vfs = Vfs.createDefault();
    await lazy(vfs, '/p');
    await fsp.writeFile(join(dir, 'secret'), 'host secret');
    await fsp.rm(join(host, 'a.txt'));
    await fsp.symlink(join(dir, 'secret'), join(host, 'a.txt'));
    expectErrno(() => vfs.readFile('/p/a.txt'), Errno.EIO);
  });

  it('exports lazy files with their contents', async () => {
    const vfs = Vfs.createDefault();
    await lazy(vfs, '/p');
    const out = join(dir, 'out');
    await exportTree(vfs, '/p', out);
    expect(await fsp.readFile(join(out, 'sub/b.txt'), 'utf8')).toBe('bravo\n');
  });

  it('reads everything in the background and stops when aborted', async () => {
    const vfs = Vfs.createDefault();
    const res = await importHostDir(vfs, host, '/p', { contents: 'background', recentMs: 0 });
    expect(await res.pinned).toEqual({ read: 2, failed: 0 });
    await fsp.writeFile(join(host, 'sub/b.txt'), 'changed\n');
    expect(str(vfs.readFile('/p/sub/b.txt'))).toBe('bravo\n');
    const abort = new AbortController();
    const other = Vfs.createDefault();
    const res2 = await importHostDir(other, host, '/p', {
      contents: 'background',
      recentMs: 0,
      signal: abort.signal,
    });
    abort.abort();
    expect(await res2.pinned).toEqual({ read: 0, failed: 0 });
  });
});
