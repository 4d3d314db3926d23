import { beforeEach, describe, expect, it } from 'vitest';
import { Errno } from '../base/errno.js';
import { bytesToPath, pathToUtf8, utf8ToPath } from '../base/bytes.js';
import { Vfs } from './index.js';
import { MemoryVfs, ROOT_INO } from './memoryVfs.js';
import { expectErrno, str, text } from './testUtil.js';
import type { Cred } from './types.js';

const USER: Cred = { uid: 1000, gid: 1000 };
const OTHER: Cred = { uid: 2000, gid: 2000 };

let vfs: Vfs;
beforeEach(() => {
  vfs = Vfs.createDefault();
});

describe('directory sizes', () => {
  it('reports 20 bytes an entry, . and .. included, as tmpfs does', () => {
    vfs.mkdirp('/d/sub');
    expect(vfs.stat('/d/sub').size).toBe(40);
    expect(vfs.stat('/d').size).toBe(60);
    for (let i = 0; i < 200; i++) vfs.writeFile(`/d/f${i}`, text(''));
    expect(vfs.stat('/d').size).toBe(20 * 203);
  });
});

describe('listings', () => {
  it('stay right through renames over existing names, creates and removals', () => {
    vfs.mkdirp('/d');
    vfs.writeFile('/d/a', text('a'));
    vfs.mkdir('/d/b', 0o755);
    const kinds = () => vfs.readdir('/d').map((e) => `${e.name}:${e.kind}`);
    expect(kinds()).toEqual(['a:file', 'b:dir']);
    vfs.rmdir('/d/b');
    vfs.mkdirp('/e');
    vfs.writeFile('/e/x', text('x'));
    const before = vfs.readdir('/d');
    vfs.rename('/e/x', '/d/a'); // only replaces /d's entry: same name, another inode
    expect(before[0]?.ino).not.toBe(vfs.resolve('/d/a'));
    expect(vfs.readdir('/d').map((e) => e.ino)).toEqual([vfs.resolve('/d/a')]);
    vfs.symlink('a', '/d/s');
    expect(kinds()).toEqual(['a:file', 's:symlink']);
  });
});

describe('path resolution', () => {
  it("parentOf names a directory's parent, follows renames, and knows only directories", () => {
    vfs.mkdirp('/a/b/c');
    const c = vfs.resolve('/a/b/c');
    expect(vfs.parentOf(c)).toBe(vfs.resolve('/a/b'));
    expect(vfs.parentOf(ROOT_INO)).toBe(ROOT_INO);
    vfs.rename('/a/b/c', '/a/c2');
    expect(vfs.parentOf(c)).toBe(vfs.resolve('/a'));
    vfs.writeFile('/a/f', text('x'));
    expect(vfs.parentOf(vfs.resolve('/a/f'))).toBeUndefined();
    vfs.rmdir('/a/c2');
    expect(vfs.parentOf(c)).toBeUndefined();
  });

  it('resolves absolute and relative paths, . and ..', () => {
    vfs.mkdirp('/a/b/c');
    vfs.writeFile('/a/b/c/f', text('x'));
    const f = vfs.resolve('/a/b/c/f');
    expect(vfs.resolve('c/f', { cwd: '/a/b' })).toBe(f);
    expect(vfs.resolve('./c/../c/./f', { cwd: '/a/b' })).toBe(f);
    expect(vfs.resolve('f', { cwd: vfs.resolve('/a/b/c') })).toBe(f);
    expect(vfs.resolve('//a///b//c/f')).toBe(f);
    expect(vfs.realpath('../b/./c/f', { cwd: '/a/b' })).toBe('/a/b/c/f');
  });

  it('never climbs above the root', () => {
    vfs.writeFile('/x', text('root x'));
    expect(str(vfs.readFile('/../../x'))).toBe('root x');
    expect(str(vfs.readFile('../'.repeat(1000) + 'x', { cwd: '/tmp' }))).toBe('root x');
    vfs.symlink('/..', '/tmp/up');
    expect(vfs.realpath('/tmp/up/../..')).toBe('/');
    vfs.symlink('../../../../..', '/tmp/deep');
    expect(str(vfs.readFile('/tmp/deep/x'))).toBe('root x');
    expect(vfs.realpath('/tmp/deep/x')).toBe('/x');
  });

  it('ENOENT, ENOTDIR and trailing slashes', () => {
    expectErrno(() => vfs.resolve('/nope'), Errno.ENOENT);
    expectErrno(() => vfs.resolve(''), Errno.ENOENT);
    vfs.writeFile('/tmp/f', text(''));
    expectErrno(() => vfs.resolve('/tmp/f/x'), Errno.ENOTDIR);
    expectErrno(() => vfs.resolve('/tmp/f/'), Errno.ENOTDIR);
    expectErrno(() => vfs.resolve('/tmp/f/..'), Errno.ENOTDIR);
    expect(vfs.resolve('/tmp/')).toBe(vfs.resolve('/tmp'));
    expectErrno(() => vfs.resolve('x', { cwd: '/tmp/f' }), Errno.ENOTDIR);
  });

  it('follows symlinks, with ELOOP after 40', () => {
    vfs.writeFile('/tmp/target', text('t'));
    vfs.symlink('target', '/tmp/l0');
    for (let i = 1; i <= 40; i++) vfs.symlink(`l${i - 1}`, `/tmp/l${i}`);
    expect(str(vfs.readFile('/tmp/l39'))).toBe('t');
    expectErrno(() => vfs.readFile('/tmp/l40'), Errno.ELOOP);
    vfs.symlink('loopb', '/tmp/loopa');
    vfs.symlink('loopa', '/tmp/loopb');
    expectErrno(() => vfs.stat('/tmp/loopa'), Errno.ELOOP);
    expect(vfs.lstat('/tmp/loopa').kind).toBe('symlink');
    vfs.symlink('self/x', '/tmp/self');
    expectErrno(() => vfs.stat('/tmp/self'), Errno.ELOOP);
    expectErrno(() => vfs.open('/tmp/l0', { nofollow: true }), Errno.ELOOP);
    expect(vfs.readlink('/tmp/l1')).toBe('l0');
    expectErrno(() => vfs.readlink('/tmp/target'), Errno.EINVAL);
  });

  it('ENAMETOOLONG for long components and paths, fast for a 1 MB path', () => {
    expectErrno(() => vfs.mkdir('/tmp/' + 'a'.repeat(256)), Errno.ENAMETOOLONG);
    vfs.mkdir('/tmp/' + 'a'.repeat(255));
    expectErrno(() => vfs.resolve('/' + 'a/'.repeat(2048)), Errno.ENAMETOOLONG);
    const huge = '/' + '../'.repeat(350_000);
    const t0 = performance.now();
    expectErrno(() => vfs.resolve(huge), Errno.ENAMETOOLONG);
    expectErrno(() => vfs.writeFile(huge + 'x', text('')), Errno.ENAMETOOLONG);
    expect(performance.now() - t0).toBeLessThan(50);
    expectErrno(() => vfs.symlink('x'.repeat(5000), '/tmp/long'), Errno.ENAMETOOLONG);
  });

  it('rejects NUL and non-byte chars', () => {
    expectErrno(() => vfs.resolve('/tmp/a\0b'), Errno.EINVAL);
    expectErrno(() => vfs.mkdir('/tmp/\u0100'), Errno.EINVAL);
  });

  it('keeps invalid UTF-8 names as bytes', () => {
    const name = bytesToPath(new Uint8Array([0xff, 0xfe, 0x41]));
    vfs.writeFile('/tmp/' + name, text('bin'));
    const ents = vfs.readdir('/tmp');
    expect(ents.map((e) => e.name)).toContain(name);
    expect(pathToUtf8(name)).toBe('\ufffd\ufffdA');
    const uname = utf8ToPath('/tmp/été');
    vfs.writeFile(uname, text('u'));
    expect(uname.length).toBe('/tmp/'.length + 5);
    expect(pathToUtf8(vfs.realpath(uname))).toBe('/tmp/été');
  });
});

describe('namespace operations', () => {
  it('mkdir / rmdir errors', () => {
    expectErrno(() => vfs.mkdir('/tmp'), Errno.EEXIST);
    expectErrno(() => vfs.mkdir('/'), Errno.EEXIST);
    expectErrno(() => vfs.mkdir('/nope/x'), Errno.ENOENT);
    vfs.mkdirp('/tmp/d/e');
    expectErrno(() => vfs.rmdir('/tmp/d'), Errno.ENOTEMPTY);
    expectErrno(() => vfs.rmdir('/'), Errno.EBUSY);
    expectErrno(() => vfs.rmdir('/tmp/d/e/.'), Errno.EINVAL);
    expectErrno(() => vfs.rmdir('/tmp/d/e/..'), Errno.ENOTEMPTY);
    vfs.writeFile('/tmp/file', text(''));
    expectErrno(() => vfs.rmdir('/tmp/file'), Errno.ENOTDIR);
    vfs.rmdir('/tmp/d/e/');
    vfs.rmdir('/tmp/d');
    expectErrno(() => vfs.stat('/tmp/d'), Errno.ENOENT);
    vfs.writeFile('/tmp/dangling-target', text(''));
    vfs.symlink('/nowhere', '/tmp/dangle');
    expectErrno(() => vfs.mkdir('/tmp/dangle'), Errno.EEXIST);
  });

  it('mkdirp creates parents and rejects files in the way', () => {
    vfs.mkdirp('/tmp/p/q/r');
    expect(vfs.stat('/tmp/p/q/r').kind).toBe('dir');
    vfs.mkdirp('/tmp/p/q/r');
    vfs.writeFile('/tmp/p/f', text(''));
    expectErrno(() => vfs.mkdirp('/tmp/p/f/g'), Errno.ENOTDIR);
  });

  it('unlink semantics', () => {
    expectErrno(() => vfs.unlink('/tmp'), Errno.EISDIR);
    expectErrno(() => vfs.unlink('/tmp/none'), Errno.ENOENT);
    vfs.writeFile('/tmp/f', text('data'));
    expectErrno(() => vfs.unlink('/tmp/f/'), Errno.ENOTDIR);
    vfs.symlink('/tmp/f', '/tmp/l');
    vfs.unlink('/tmp/l');
    expect(str(vfs.readFile('/tmp/f'))).toBe('data');
    vfs.unlink('/tmp/f');
    expectErrno(() => vfs.stat('/tmp/f'), Errno.ENOENT);
  });

  it('directory nlink counts subdirectories', () => {
    vfs.mkdir('/tmp/n');
    expect(vfs.stat('/tmp/n').nlink).toBe(2);
    vfs.mkdir('/tmp/n/a');
    vfs.mkdir('/tmp/n/b');
    vfs.writeFile('/tmp/n/f', text(''));
    expect(vfs.stat('/tmp/n').nlink).toBe(4);
    vfs.rename('/tmp/n/a', '/tmp/a');
    expect(vfs.stat('/tmp/n').nlink).toBe(3);
    vfs.rmdir('/tmp/n/b');
    expect(vfs.stat('/tmp/n').nlink).toBe(2);
  });

  it('hard links share the inode and keep data until the last name goes', () => {
    vfs.writeFile('/tmp/a', text('shared'));
    vfs.link('/tmp/a', '/tmp/b');
    expect(vfs.stat('/tmp/a').ino).toBe(vfs.stat('/tmp/b').ino);
    expect(vfs.stat('/tmp/a').nlink).toBe(2);
    vfs.write(vfs.resolve('/tmp/b'), 0, text('SH'));
    expect(str(vfs.readFile('/tmp/a'))).toBe('SHared');
    vfs.unlink('/tmp/a');
    expect(vfs.stat('/tmp/b').nlink).toBe(1);
    expect(vfs.pathOf(vfs.resolve('/tmp/b'))).toBe('/tmp/b');
    expect(vfs.parentIno(vfs.resolve('/tmp/b'))).toBe(vfs.resolve('/tmp'));
    expect(vfs.parentIno(ROOT_INO)).toBe(ROOT_INO);
    expect(vfs.parentIno(987654)).toBeUndefined();
    expectErrno(() => vfs.link('/tmp', '/tmp/dirlink'), Errno.EPERM);
    expectErrno(() => vfs.link('/tmp/b', '/etc/passwd'), Errno.EEXIST);
    expectErrno(() => vfs.link('/tmp/none', '/tmp/c'), Errno.ENOENT);
  });

  it('link does not follow a symlink source by default', () => {
    vfs.writeFile('/tmp/t', text(''));
    vfs.symlink('t', '/tmp/s');
    vfs.link('/tmp/s', '/tmp/h');
    expect(vfs.lstat('/tmp/h').kind).toBe('symlink');
    vfs.link('/tmp/s', '/tmp/h2', { follow: true });
    expect(vfs.lstat('/tmp/h2').ino).toBe(vfs.stat('/tmp/t').ino);
  });

  it('readdir is sorted by bytes and lists kinds', () => {
    for (const n of ['b', 'a', 'C', '_', 'aa']) vfs.writeFile('/tmp/' + n, text(''));
    vfs.mkdir('/tmp/dir');
    vfs.symlink('a', '/tmp/sym');
    const ents = vfs.readdir('/tmp');
    expect(ents.map((e) => e.name)).toEqual(['C', '_', 'a', 'aa', 'b', 'dir', 'sym']);
    expect(ents.find((e) => e.name === 'dir')?.kind).toBe('dir');
    expect(ents.find((e) => e.name === 'sym')?.kind).toBe('symlink');
    expectErrno(() => vfs.readdir('/tmp/a'), Errno.ENOTDIR);
  });

  it('open flags', () => {
    expectErrno(() => vfs.open('/tmp/new'), Errno.ENOENT);
    const ino = vfs.open('/tmp/new', { create: true, write: true, mode: 0o600 });
    expect(vfs.statIno(ino).mode).toBe(0o600);
    expectErrno(() => vfs.open('/tmp/new', { create: true, excl: true }), Errno.EEXIST);
    vfs.symlink('/tmp/missing-target', '/tmp/dl');
    expectErrno(() => vfs.open('/tmp/dl', { create: true, excl: true }), Errno.EEXIST);
    // O_CREAT through a dangling symlink creates the target, like Linux.
    const made = vfs.open('/tmp/dl', { create: true, write: true });
    expect(vfs.pathOf(made)).toBe('/tmp/missing-target');
    vfs.write(ino, 0, text('abc'));
    vfs.open('/tmp/new', { write: true, trunc: true });
    expect(vfs.statIno(ino).size).toBe(0);
    expectErrno(() => vfs.open('/tmp', { write: true }), Errno.EISDIR);
    expectErrno(() => vfs.open('/tmp', { create: true }), Errno.EISDIR);
    expectErrno(() => vfs.open('/tmp/new', { directory: true }), Errno.ENOTDIR);
    expect(vfs.open('/tmp', { directory: true })).toBe(vfs.resolve('/tmp'));
    expectErrno(() => vfs.open('/tmp/newdir/', { create: true }), Errno.EISDIR);
    expectErrno(() => vfs.read(vfs.resolve('/tmp'), 0, 1), Errno.EISDIR);
    expectErrno(() => vfs.read(vfs.resolve('/dev/null'), 0, 1), Errno.EINVAL);
  });

  it('mknod makes devices only for root', () => {
    const ino = vfs.mknod('/tmp/mydev', 'chardev', 0o600, 'null');
    expect(vfs.statIno(ino)).toMatchObject({ kind: 'chardev', device: 'null' });
    expectErrno(() => vfs.mknod('/tmp/d2', 'chardev', 0o600, 'null', { cred: USER }), Errno.EPERM);
    expect(vfs.mknod('/tmp/fifo', 'fifo', 0o600, undefined, { cred: USER })).toBeGreaterThan(0);
    expectErrno(() => vfs.mknod('/tmp/d3', 'chardev', 0o600), Errno.EINVAL);
  });
});

describe('rename', () => {
  it('moves files and replaces existing files atomically', () => {
    vfs.writeFile('/tmp/a', text('A'));
    vfs.writeFile('/tmp/b', text('B'));
    const inoA = vfs.resolve('/tmp/a');
    vfs.rename('/tmp/a', '/tmp/b');
    expect(vfs.resolve('/tmp/b')).toBe(inoA);
    expect(str(vfs.readFile('/tmp/b'))).toBe('A');
    expectErrno(() => vfs.stat('/tmp/a'), Errno.ENOENT);
    expect(vfs.usage().bytes).toBe(Vfs.createDefault().usage().bytes + 1);
  });

  it('directory over empty directory, not over non-empty or file', () => {
    vfs.mkdirp('/tmp/d1/sub');
    vfs.mkdir('/tmp/d2');
    vfs.rename('/tmp/d1', '/tmp/d2');
    expect(vfs.stat('/tmp/d2/sub').kind).toBe('dir');
    vfs.mkdir('/tmp/d3');
    expectErrno(() => vfs.rename('/tmp/d3', '/tmp/d2'), Errno.ENOTEMPTY);
    vfs.writeFile('/tmp/f', text(''));
    expectErrno(() => vfs.rename('/tmp/d3', '/tmp/f'), Errno.ENOTDIR);
    expectErrno(() => vfs.rename('/tmp/f', '/tmp/d3'), Errno.EISDIR);
    expectErrno(() => vfs.rename('/tmp/f/', '/tmp/g'), Errno.ENOTDIR);
  });

  it('refuses to move a directory into its own subtree', () => {
    vfs.mkdirp('/tmp/a/b/c');
    expectErrno(() => vfs.rename('/tmp/a', '/tmp/a/b/c/a'), Errno.EINVAL);
    expectErrno(() => vfs.rename('/tmp/a', '/tmp/a/x'), Errno.EINVAL);
    expectErrno(() => vfs.rename('/', '/tmp/root'), Errno.EBUSY);
    expectErrno(() => vfs.rename('/tmp/a/.', '/tmp/z'), Errno.EINVAL);
    expect(vfs.stat('/tmp/a/b/c').kind).toBe('dir');
  });

  it('same inode is a no-op; paths update for descendants', () => {
    vfs.writeFile('/tmp/x', text('x'));
    vfs.link('/tmp/x', '/tmp/y');
    vfs.rename('/tmp/x', '/tmp/y');
    expect(vfs.stat('/tmp/x').nlink).toBe(2);
    vfs.mkdirp('/tmp/m/n');
    vfs.writeFile('/tmp/m/n/f', text(''));
    const f = vfs.resolve('/tmp/m/n/f');
    vfs.rename('/tmp/m', '/home/user/moved');
    expect(vfs.pathOf(f)).toBe('/home/user/moved/n/f');
    expect(vfs.realpath('/home/user/moved/n/..')).toBe('/home/user/moved');
  });

  it('renames a symlink itself, not its target', () => {
    vfs.writeFile('/tmp/t', text(''));
    vfs.symlink('t', '/tmp/s');
    vfs.rename('/tmp/s', '/tmp/s2');
    expect(vfs.lstat('/tmp/s2').kind).toBe('symlink');
    expect(vfs.stat('/tmp/t').kind).toBe('file');
  });
});

describe('permissions', () => {
  it('search, read and write permission with credentials', () => {
    vfs.mkdir('/tmp/priv', 0o700);
    vfs.writeFile('/tmp/priv/f', text('secret'));
    expectErrno(() => vfs.stat('/tmp/priv/f', { cred: USER }), Errno.EACCES);
    expectErrno(() => vfs.readdir('/tmp/priv', { cred: USER }), Errno.EACCES);
    vfs.chmod('/tmp/priv', 0o711);
    expect(vfs.stat('/tmp/priv/f', { cred: USER }).size).toBe(6);
    vfs.chmod('/tmp/priv/f', 0o600);
    expectErrno(() => vfs.readFile('/tmp/priv/f', { cred: USER }), Errno.EACCES);
    expectErrno(() => vfs.open('/tmp/priv/f', { write: true, cred: USER }), Errno.EACCES);
    expectErrno(() => vfs.writeFile('/tmp/priv/new', text(''), { cred: USER }), Errno.EACCES);
    expectErrno(() => vfs.mkdir('/etc/x', 0o755, { cred: USER }), Errno.EACCES);
    expect(str(vfs.readFile('/tmp/priv/f'))).toBe('secret');
    vfs.writeFile('/home/user/mine', text('m'), { cred: USER });
    expect(vfs.stat('/home/user/mine')).toMatchObject({ uid: 1000, gid: 1000 });
  });

  it('access() checks bits; root needs some x bit to execute', () => {
    vfs.writeFile('/tmp/s', text(''), { mode: 0o644 });
    expectErrno(() => vfs.access('/tmp/s', 1), Errno.EACCES);
    vfs.chmod('/tmp/s', 0o744);
    vfs.access('/tmp/s', 1);
    expectErrno(() => vfs.access('/tmp/s', 1, { cred: USER }), Errno.EACCES);
    vfs.access('/tmp/s', 4, { cred: USER });
    vfs.access('/tmp/s', 0, { cred: USER });
  });

  it('group permissions and supplementary groups', () => {
    vfs.writeFile('/tmp/g', text('g'), { mode: 0o640 });
    vfs.chown('/tmp/g', 0, 50);
    expectErrno(() => vfs.readFile('/tmp/g', { cred: USER }), Errno.EACCES);
    expect(str(vfs.readFile('/tmp/g', { cred: { uid: 1000, gid: 1000, groups: [50] } }))).toBe('g');
  });

  it('sticky /tmp: only owners remove entries', () => {
    vfs.writeFile('/tmp/hers', text(''), { cred: USER });
    expectErrno(() => vfs.unlink('/tmp/hers', { cred: OTHER }), Errno.EPERM);
    expectErrno(() => vfs.rename('/tmp/hers', '/tmp/stolen', { cred: OTHER }), Errno.EPERM);
    vfs.unlink('/tmp/hers', { cred: USER });
  });

  it('chmod/chown/utimes ownership rules', () => {
    vfs.writeFile('/home/user/f', text(''), { cred: USER });
    expectErrno(() => vfs.chmod('/home/user/f', 0o777, { cred: OTHER }), Errno.EPERM);
    vfs.chmod('/home/user/f', 0o4755, { cred: USER });
    expect(vfs.stat('/home/user/f').mode).toBe(0o4755);
    expectErrno(() => vfs.chown('/home/user/f', 0, -1, { cred: USER }), Errno.EPERM);
    expectErrno(() => vfs.chown('/home/user/f', -1, 0, { cred: USER }), Errno.EPERM);
    vfs.chown('/home/user/f', -1, 1000, { cred: USER });
    vfs.chown('/home/user/f', 0, 0);
    expect(vfs.stat('/home/user/f')).toMatchObject({ uid: 0, gid: 0, mode: 0o755 });
    expectErrno(() => vfs.utimes('/home/user/f', 5, 5, { cred: USER }), Errno.EPERM);
    vfs.utimes('/home/user/f', 1000, 2000);
    expect(vfs.stat('/home/user/f')).toMatchObject({ atime: 1000, mtime: 2000 });
    vfs.utimes('/home/user/f', undefined, null);
    expect(vfs.stat('/home/user/f').atime).toBe(1000);
    expect(vfs.stat('/home/user/f').mtime).toBeGreaterThan(2000);
    expectErrno(() => vfs.utimes('/home/user/f', Number.NaN, 1), Errno.EINVAL);
    expectErrno(() => vfs.chown('/home/user/f', 1.5, 0), Errno.EINVAL);
  });
});

describe('contents', () => {
  it('installFiles makes what open(O_CREAT|O_TRUNC), write and chmod make, sharing the bytes', () => {
    const shared = text('#!stub one\n');
    vfs.writeFile('/tmp/old', text('a longer old body'));
    vfs.installFiles(
      [
        ['/opt/a/x', shared],
        ['/opt/b/x', shared],
        ['/opt/a/y', text('y\n')],
        ['/tmp/old', shared],
      ],
      0o755,
    );
    const by = vfs.open('/tmp/by-hand', { create: true, write: true, read: false, trunc: true });
    vfs.write(by, 0, shared);
    vfs.chmodIno(by, 0o755);
    const pick = (path: string) => {
      const st = vfs.stat(path);
      return [st.mode, st.uid, st.gid, st.nlink, st.size];
    };
    for (const path of ['/opt/a/x', '/opt/b/x', '/tmp/old'])
      expect(pick(path), path).toEqual(pick('/tmp/by-hand'));
    expect(vfs.stat('/opt/a').mode & 0o7777).toBe(0o755);
    expect(vfs.readdir('/opt/a').map((e) => e.name)).toEqual(['x', 'y']);
    expect(str(vfs.readFile('/tmp/old'))).toBe('#!stub one\n');
    // A write to one copy leaves the other and the caller's bytes alone.
    vfs.write(vfs.open('/opt/a/x', { write: true }), 0, text('W'));
    expect(str(vfs.readFile('/opt/a/x'))).toBe('W!stub one\n');
    expect(str(vfs.readFile('/opt/b/x'))).toBe('#!stub one\n');
    expect(str(shared)).toBe('#!stub one\n');
    expectErrno(() => vfs.installFiles([['/opt/a/x/z', shared]], 0o755), Errno.ENOTDIR);
  });

  it('pread/pwrite, append, holes and truncate', () => {
    const ino = vfs.open('/tmp/f', { create: true, write: true });
    expect(vfs.write(ino, 0, text('hello'))).toBe(5);
    expect(vfs.write(ino, 0, text(' world'), { append: true })).toBe(6);
    expect(str(vfs.read(ino, 0, 100))).toBe('hello world');
    expect(str(vfs.read(ino, 6, 3))).toBe('wor');
    expect(vfs.read(ino, 100, 10).length).toBe(0);
    vfs.write(ino, 20, text('!'));
    expect(Array.from(vfs.read(ino, 11, 10))).toEqual(new Array(9).fill(0).concat([33]));
    vfs.truncate(ino, 4);
    expect(str(vfs.readFile('/tmp/f'))).toBe('hell');
    vfs.truncate(ino, 8);
    expect(Array.from(vfs.read(ino, 0, 8))).toEqual([104, 101, 108, 108, 0, 0, 0, 0]);
    expectErrno(() => vfs.read(ino, -1, 1), Errno.EINVAL);
    expectErrno(() => vfs.truncate(ino, -1), Errno.EINVAL);
    expectErrno(() => vfs.write(999999, 0, text('x')), Errno.ENOENT);
  });

  it('timestamps move on write and on namespace changes', () => {
    let t = 1000;
    const v = MemoryVfs.create({ now: () => t });
    v.mkdir('/d');
    t = 2000;
    v.writeFile('/d/f', text('x'));
    expect(v.stat('/d')).toMatchObject({ mtime: 2000, ctime: 2000 });
    t = 3000;
    v.write(v.resolve('/d/f'), 0, text('y'));
    expect(v.stat('/d/f')).toMatchObject({ mtime: 3000, ctime: 3000 });
    t = 4000;
    v.read(v.resolve('/d/f'), 0, 1);
    expect(v.stat('/d/f').atime).toBe(4000);
    t = 5000;
    v.read(v.resolve('/d/f'), 0, 1);
    expect(v.stat('/d/f').atime).toBe(4000); // relatime: atime already newer than mtime
  });

  it('unlinked files stay readable while held', () => {
    vfs.writeFile('/tmp/held', text('still here'));
    const ino = vfs.open('/tmp/held');
    vfs.retain(ino);
    const before = vfs.usage();
    vfs.unlink('/tmp/held');
    expect(str(vfs.read(ino, 0, 100))).toBe('still here');
    expect(vfs.statIno(ino).nlink).toBe(0);
    expect(vfs.pathOf(ino)).toBeUndefined();
    vfs.release(ino);
    expect(vfs.exists(ino)).toBe(false);
    expect(vfs.usage().nodes).toBe(before.nodes - 1);
    expect(vfs.usage().bytes).toBe(before.bytes - 10);
  });

  it('a removed cwd gives ENOENT for relative lookups', () => {
    vfs.mkdir('/tmp/gone');
    const ino = vfs.resolve('/tmp/gone');
    vfs.retain(ino);
    vfs.rmdir('/tmp/gone');
    expectErrno(() => vfs.open('x', { cwd: ino, create: true }), Errno.ENOENT);
    expectErrno(() => vfs.resolve('..', { cwd: ino }), Errno.ENOENT);
    vfs.release(ino);
    expectErrno(() => vfs.resolve('x', { cwd: ino }), Errno.ENOENT);
  });
});

describe('default layout', () => {
  it('has the standard tree', () => {
    for (const d of [
      '/bin',
      '/usr/bin',
      '/usr/local/bin',
      '/etc',
      '/home/user',
      '/tmp',
      '/dev',
      '/dev/fd',
      '/proc',
      '/var',
      '/var/tmp',
    ]) {
      expect(vfs.stat(d).kind, d).toBe('dir');
    }
    expect(vfs.stat('/tmp').mode).toBe(0o1777);
    expect(vfs.stat('/home/user')).toMatchObject({ uid: 1000, gid: 1000 });
    expect(str(vfs.readFile('/etc/passwd'))).toContain(
      'user:x:1000:1000:user:/home/user:/bin/bash',
    );
    expect(str(vfs.readFile('/etc/group'))).toContain('user:x:1000:');
    expect(str(vfs.readFile('/etc/hostname'))).toBe('sandglass\n');
    expect(str(vfs.readFile('/etc/profile'))).toContain('PATH=');
    for (const d of [
      'null',
      'zero',
      'full',
      'random',
      'urandom',
      'tty',
      'stdin',
      'stdout',
      'stderr',
    ]) {
      expect(vfs.stat('/dev/' + d)).toMatchObject({ kind: 'chardev', device: d });
    }
    expect(vfs.readdir('/proc')).toEqual([]);
    expect(vfs.resolve('/')).toBe(ROOT_INO);
    expect(str(Vfs.createDefault({ hostname: 'box' }).readFile('/etc/hostname'))).toBe('box\n');
    expect(str(vfs.readFile('/etc/hosts'))).toContain('localhost');
    expectErrno(() => Vfs.createDefault({ hostname: 'bad\nname' }), Errno.EINVAL);
  });
});
