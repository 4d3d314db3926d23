import { execFileSync } from 'node:child_process';
import { mkdtempSync, promises as fsp, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Buffer } from 'node:buffer';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Errno } from '../../base/errno.js';
import { bytesToPath } from '../../base/bytes.js';
import { Vfs } from '../index.js';
import { expectErrno, str, text } from '../testUtil.js';
import { exportTree, importHostDir, type ImportOptions, type ImportResult } from './index.js';
import type { BytePath, Vfs as VfsApi } from '../types.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sandglass-vfs-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function makeHostTree(root: string): Promise<void> {
  await fsp.mkdir(join(root, 'src/deep'), { recursive: true });
  await fsp.writeFile(join(root, 'README.md'), 'hello\n');
  await fsp.writeFile(join(root, 'src/main.rs'), 'fn main() {}\n');
  await fsp.writeFile(join(root, 'src/deep/bin.dat'), Buffer.from([0, 1, 2, 255]));
  await fsp.writeFile(join(root, 'run.sh'), '#!/bin/sh\n', { mode: 0o755 });
  await fsp.chmod(join(root, 'run.sh'), 0o755);
  await fsp.symlink('src/main.rs', join(root, 'link-in'));
  await fsp.symlink('/etc/shadow', join(root, 'link-out'));
  // A name that is not valid UTF-8.
  await fsp.writeFile(
    Buffer.concat([Buffer.from(join(root, 'bad-')), Buffer.from([0xff, 0xfe])]),
    'odd',
  );
}

// Every case runs with contents read at once and with contents read later in
// the background (files written by a test are recent, so recentMs 0 keeps
// them lazy); 'lazy' alone has its own cases in hostImportLazy.test.ts.
describe.each(['eager', 'background'] as const)('importHostDir / exportTree (%s)', (contents) => {
  /** importHostDir in this mode; waits until the contents are held. */
  async function imp(
    vfs: VfsApi,
    host: string,
    at: BytePath,
    opts: ImportOptions = {},
  ): Promise<ImportResult> {
    const res = await importHostDir(vfs, host, at, { contents, recentMs: 0, ...opts });
    await res.pinned;
    return res;
  }

  it('imports files, dirs, modes, symlinks and byte names', async () => {
    const host = join(dir, 'in');
    await makeHostTree(host);
    const vfs = Vfs.createDefault();
    const res = await imp(vfs, host, '/home/user/proj', { uid: 1000, gid: 1000 });
    expect(res).toMatchObject({ files: 5, dirs: 2, symlinks: 2 });
    expect(str(vfs.readFile('/home/user/proj/README.md'))).toBe('hello\n');
    expect(Array.from(vfs.readFile('/home/user/proj/src/deep/bin.dat'))).toEqual([0, 1, 2, 255]);
    expect(vfs.stat('/home/user/proj/run.sh').mode).toBe(0o755);
    expect(vfs.stat('/home/user/proj/src')).toMatchObject({ kind: 'dir', uid: 1000 });
    expect(vfs.readlink('/home/user/proj/link-in')).toBe('src/main.rs');
    expect(str(vfs.readFile('/home/user/proj/link-in'))).toBe('fn main() {}\n');
    // An absolute symlink resolves inside the VFS, never on the host.
    expect(vfs.readlink('/home/user/proj/link-out')).toBe('/etc/shadow');
    expectErrno(() => vfs.readFile('/home/user/proj/link-out'), Errno.ENOENT);
    const odd = '/home/user/proj/bad-' + bytesToPath(new Uint8Array([0xff, 0xfe]));
    expect(str(vfs.readFile(odd))).toBe('odd');
    // Writable import: the user can edit.
    vfs.writeFile('/home/user/proj/README.md', text('edited'), { cred: { uid: 1000, gid: 1000 } });
  });

  it('read-only import gives EROFS', async () => {
    const host = join(dir, 'in');
    await makeHostTree(host);
    const vfs = Vfs.createDefault();
    await imp(vfs, host, '/opt/ro', { readOnly: true });
    expectErrno(() => vfs.writeFile('/opt/ro/README.md', text('x')), Errno.EROFS);
    expectErrno(() => vfs.unlink('/opt/ro/run.sh'), Errno.EROFS);
    expect(str(vfs.readFile('/opt/ro/README.md'))).toBe('hello\n');
  });

  it('respects VFS limits during import', async () => {
    const host = join(dir, 'in');
    await makeHostTree(host);
    const vfs = Vfs.create({ limits: { maxFileSize: 5 } });
    await expect(imp(vfs, host, '/p')).rejects.toMatchObject({ errno: Errno.EFBIG });
    vfs.writeFile('/ok', text('fine'));
  });

  it('round-trips through export, skipping symlinks that leave the tree', async () => {
    const host = join(dir, 'in');
    await makeHostTree(host);
    const vfs = Vfs.createDefault();
    await imp(vfs, host, '/work');
    vfs.writeFile('/work/src/new.txt', text('added in sandbox'));
    vfs.symlink('../../etc/passwd', '/work/src/escape');
    vfs.mknod('/work/dev', 'chardev', 0o666, 'null');
    const out = join(dir, 'out');
    const res = await exportTree(vfs, '/work', out);
    expect(res.skipped.sort()).toEqual(['/work/dev', '/work/link-out', '/work/src/escape']);
    expect(await fsp.readFile(join(out, 'README.md'), 'utf8')).toBe('hello\n');
    expect(await fsp.readFile(join(out, 'src/new.txt'), 'utf8')).toBe('added in sandbox');
    expect([...(await fsp.readFile(join(out, 'src/deep/bin.dat')))]).toEqual([0, 1, 2, 255]);
    expect((await fsp.stat(join(out, 'run.sh'))).mode & 0o777).toBe(0o755);
    expect(await fsp.readlink(join(out, 'link-in'))).toBe('src/main.rs');
    const odd = Buffer.concat([Buffer.from(join(out, 'bad-')), Buffer.from([0xff, 0xfe])]);
    expect(await fsp.readFile(odd, 'utf8')).toBe('odd');
    // Re-import gives the same tree.
    const again = Vfs.create();
    await imp(again, out, '/w');
    expect(again.readdir('/w').map((e) => e.name)).toEqual(
      vfs
        .readdir('/work')
        .map((e) => e.name)
        .filter((n) => n !== 'dev' && n !== 'link-out'),
    );
  });

  it('refuses a non-empty export target and never writes through host symlinks', async () => {
    const vfs = Vfs.createDefault();
    vfs.mkdirp('/x/sub');
    vfs.writeFile('/x/sub/f', text('f'));
    const out = join(dir, 'out');
    await fsp.mkdir(out);
    await fsp.writeFile(join(out, 'existing'), '');
    await expect(exportTree(vfs, '/x', out)).rejects.toThrow(/not empty/);
    await fsp.symlink(dir, join(dir, 'trap'));
    await expect(exportTree(vfs, '/x', join(dir, 'trap'))).rejects.toThrow(
      /not a directory|not empty/,
    );
  });

  it('pins what it copied: later host changes reach neither the tree nor its snapshots', async () => {
    const host = join(dir, 'in');
    await makeHostTree(host);
    const vfs = Vfs.createDefault();
    await imp(vfs, host, '/ro', { readOnly: true });
    await imp(vfs, host, '/rw');
    const snap = vfs.snapshot();
    await fsp.writeFile(join(host, 'README.md'), 'changed on the host\n');
    await fsp.rm(join(host, 'src'), { recursive: true });
    await fsp.writeFile(join(host, 'new-on-host'), 'x');
    for (const top of ['/ro', '/rw']) {
      expect(str(vfs.readFile(`${top}/README.md`))).toBe('hello\n');
      expect(str(vfs.readFile(`${top}/src/main.rs`))).toBe('fn main() {}\n');
      expectErrno(() => vfs.stat(`${top}/new-on-host`), Errno.ENOENT);
    }
    vfs.writeFile('/rw/README.md', text('edited in the sandbox'));
    vfs.restore(snap);
    expect(str(vfs.readFile('/rw/README.md'))).toBe('hello\n');
    expect(str(vfs.fork(snap).readFile('/ro/README.md'))).toBe('hello\n');
  });

  it('never reads through host symlinks that leave the import dir', async () => {
    const outside = join(dir, 'outside');
    await fsp.mkdir(outside);
    await fsp.writeFile(join(outside, 'secret'), 'host secret');
    const host = join(dir, 'in');
    await fsp.mkdir(host);
    await fsp.symlink(join(outside, 'secret'), join(host, 'abs'));
    await fsp.symlink('../outside/secret', join(host, 'rel'));
    await fsp.symlink(outside, join(host, 'dirlink'));
    const vfs = Vfs.createDefault();
    const res = await imp(vfs, host, '/in');
    expect(res).toMatchObject({ files: 0, dirs: 0, symlinks: 3 });
    for (const name of ['abs', 'rel', 'dirlink/secret']) {
      expectErrno(() => vfs.readFile(`/in/${name}`), Errno.ENOENT);
    }
    // Even when the VFS holds the same path, it is the VFS's file, not the host's.
    vfs.mkdirp(outside);
    vfs.writeFile(join(outside, 'secret'), text('sandbox file'));
    expect(str(vfs.readFile('/in/abs'))).toBe('sandbox file');
  });

  it('refuses a huge host file from its size, before reading it', async () => {
    const host = join(dir, 'in');
    await fsp.mkdir(host);
    await fsp.writeFile(join(host, 'small'), 'ok');
    // Sparse: 64 GiB of nothing on disk; reading it all would take minutes.
    const huge = await fsp.open(join(host, 'huge'), 'w');
    await huge.truncate(64 * 1024 ** 3);
    await huge.close();
    const vfs = Vfs.createDefault();
    const t0 = performance.now();
    await expect(imp(vfs, host, '/in')).rejects.toMatchObject({
      errno: Errno.EFBIG,
      message: expect.stringContaining('huge'),
    });
    expect(performance.now() - t0).toBeLessThan(2000);
    // The space limit is checked the same way: no file of the tree is read past it.
    const small = Vfs.create({ limits: { maxBytes: 1024, maxFileSize: 2 ** 40 } });
    await expect(imp(small, host, '/in')).rejects.toMatchObject({
      errno: Errno.ENOSPC,
    });
  });

  it('skips fifos and sockets without blocking', async () => {
    const host = join(dir, 'in');
    await fsp.mkdir(host);
    await fsp.writeFile(join(host, 'plain'), 'p');
    execFileSync('mkfifo', [join(host, 'fifo')]);
    const vfs = Vfs.createDefault();
    const res = await imp(vfs, host, '/in');
    expect(res.files).toBe(1);
    expect(res.skipped).toEqual([join(host, 'fifo')]);
    expectErrno(() => vfs.lstat('/in/fifo'), Errno.ENOENT);
  });

  it('merges into an existing tree and never writes through a sandbox symlink', async () => {
    const host = join(dir, 'in');
    await makeHostTree(host);
    const vfs = Vfs.createDefault();
    vfs.mkdirp('/m/src');
    vfs.writeFile('/m/src/kept', text('kept'));
    vfs.writeFile('/target', text('untouched'));
    vfs.symlink('/target', '/m/README.md');
    await expect(imp(vfs, host, '/m')).rejects.toMatchObject({ errno: Errno.ELOOP });
    expect(str(vfs.readFile('/target'))).toBe('untouched');
    vfs.unlink('/m/README.md');
    await imp(vfs, host, '/m');
    expect(str(vfs.readFile('/m/src/kept'))).toBe('kept');
    expect(str(vfs.readFile('/m/README.md'))).toBe('hello\n');
  });

  it('reports progress and yields to the event loop on a large tree', async () => {
    const host = join(dir, 'in');
    await fsp.mkdir(host);
    const blob = Buffer.alloc(64 * 1024, 7);
    for (let i = 0; i < 400; i++) await fsp.writeFile(join(host, `f${i}`), blob);
    const vfs = Vfs.createDefault();
    const seen: number[] = [];
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    const res = await imp(vfs, host, '/in', { onProgress: (p) => seen.push(p.bytes) });
    clearInterval(timer);
    expect(res).toMatchObject({ files: 400, bytes: 400 * blob.length });
    expect(seen.at(-1)).toBe(400 * blob.length);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(Array.from(vfs.readFile('/in/f399').subarray(0, 4))).toEqual([7, 7, 7, 7]);
    // Timers ran during the import only if it yielded (it takes well over one slice).
    if (seen.length > 1) expect(ticks).toBeGreaterThan(0);
  });

  it('round-trips files larger than the copy buffers, byte for byte', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024 + 12345);
    for (let i = 0; i < big.length; i++) big[i] = (i * 31 + (i >> 11)) & 0xff;
    const host = join(dir, 'in');
    await fsp.mkdir(host);
    await fsp.writeFile(join(host, 'big.bin'), big);
    const vfs = Vfs.createDefault();
    await imp(vfs, host, '/b');
    expect(Buffer.from(vfs.readFile('/b/big.bin')).equals(big)).toBe(true);
    const out = join(dir, 'out');
    const res = await exportTree(vfs, '/b', out);
    expect(res).toMatchObject({ files: 1, bytes: big.length });
    expect((await fsp.readFile(join(out, 'big.bin'))).equals(big)).toBe(true);
    // A single file exports to the host path itself, refusing to replace anything.
    await exportTree(vfs, '/b/big.bin', join(dir, 'single.bin'));
    expect((await fsp.readFile(join(dir, 'single.bin'))).equals(big)).toBe(true);
    await expect(exportTree(vfs, '/b/big.bin', join(dir, 'single.bin'))).rejects.toMatchObject({
      code: 'EEXIST',
    });
  });

  it('fails with the VFS node limit, not a lookup error, when directories do not fit', async () => {
    const host = join(dir, 'in');
    await fsp.mkdir(join(host, 'a/b/c'), { recursive: true });
    const probe = Vfs.create();
    const base = probe.usage().nodes;
    const vfs = Vfs.create({ limits: { maxNodes: base + 2 } });
    await expect(imp(vfs, host, '/in')).rejects.toMatchObject({ errno: Errno.EDQUOT });
  });
});
