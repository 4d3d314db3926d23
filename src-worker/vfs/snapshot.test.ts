import { describe, expect, it } from 'vitest';
import { Errno } from '../base/errno.js';
import { CHUNK_SIZE } from './fileData.js';
import { Vfs } from './index.js';
import { expectErrno, str, text } from './testUtil.js';

describe('snapshots', () => {
  it('restore brings back contents, names, modes and usage', () => {
    const vfs = Vfs.createDefault();
    vfs.writeFile('/tmp/a', text('one'));
    vfs.mkdir('/tmp/d');
    const s1 = vfs.snapshot();
    const usage1 = vfs.usage();
    vfs.writeFile('/tmp/a', text('two, longer'));
    vfs.chmod('/tmp/a', 0o600);
    vfs.rmdir('/tmp/d');
    vfs.writeFile('/tmp/new', text('n'));
    vfs.rename('/etc/passwd', '/tmp/pw');
    vfs.restore(s1);
    expect(str(vfs.readFile('/tmp/a'))).toBe('one');
    expect(vfs.stat('/tmp/a').mode).toBe(0o644);
    expect(vfs.stat('/tmp/d').kind).toBe('dir');
    expectErrno(() => vfs.stat('/tmp/new'), Errno.ENOENT);
    expect(vfs.stat('/etc/passwd').kind).toBe('file');
    expect(vfs.usage()).toEqual(usage1);
    // The snapshot stays usable: change, restore again.
    vfs.unlink('/tmp/a');
    vfs.restore(s1);
    expect(str(vfs.readFile('/tmp/a'))).toBe('one');
  });

  it('snapshots taken in a row are each independent', () => {
    const vfs = Vfs.createDefault();
    const ino = vfs.open('/tmp/log', { create: true, write: true });
    const ids: number[] = [];
    for (let i = 0; i < 50; i++) {
      vfs.write(ino, 0, text(String(i)), { append: true });
      ids.push(vfs.snapshot());
    }
    vfs.restore(ids[9] as number);
    expect(str(vfs.readFile('/tmp/log'))).toBe('0123456789');
    vfs.restore(ids[49] as number);
    expect(str(vfs.readFile('/tmp/log')).length).toBe(90);
    vfs.dropSnapshot(ids[0] as number);
    expect(vfs.snapshots()).not.toContain(ids[0]);
    expectErrno(() => vfs.restore(ids[0] as number), Errno.EINVAL);
  });

  it('a write into a big shared file does not change the snapshot and copies only one chunk', () => {
    const vfs = Vfs.create();
    const big = new Uint8Array(8 * CHUNK_SIZE).fill(1);
    vfs.writeFile('/big', big);
    const s = vfs.snapshot();
    const ino = vfs.resolve('/big');
    vfs.write(ino, 3 * CHUNK_SIZE + 5, text('XY'));
    expect(str(vfs.read(ino, 3 * CHUNK_SIZE + 5, 2))).toBe('XY');
    const fork = vfs.fork(s);
    expect(Array.from(fork.read(ino, 3 * CHUNK_SIZE + 5, 2))).toEqual([1, 1]);
  });

  it('fork is independent in both directions', () => {
    const vfs = Vfs.createDefault();
    vfs.writeFile('/tmp/shared', text('base'));
    const child = vfs.fork();
    child.writeFile('/tmp/shared', text('child'));
    child.writeFile('/tmp/only-child', text('c'));
    vfs.writeFile('/tmp/only-parent', text('p'));
    vfs.write(vfs.resolve('/tmp/shared'), 0, text('BA'));
    expect(str(vfs.readFile('/tmp/shared'))).toBe('BAse');
    expect(str(child.readFile('/tmp/shared'))).toBe('child');
    expectErrno(() => vfs.stat('/tmp/only-child'), Errno.ENOENT);
    expectErrno(() => child.stat('/tmp/only-parent'), Errno.ENOENT);
    expect(child.snapshots()).toEqual([]);
    // Nodes the parent created just before forking are shared, not the parent's to mutate.
    vfs.writeFile('/tmp/fresh', text('before'));
    const late = vfs.fork();
    vfs.write(vfs.resolve('/tmp/fresh'), 0, text('AFTER!'));
    vfs.chmod('/tmp/fresh', 0o600);
    expect(str(late.readFile('/tmp/fresh'))).toBe('before');
    expect(late.stat('/tmp/fresh').mode).toBe(0o644);
    // A fork of a fork is independent too.
    const grandchild = child.fork();
    grandchild.unlink('/tmp/only-child');
    expect(str(child.readFile('/tmp/only-child'))).toBe('c');
  });

  it('hard links stay one inode across snapshot and restore', () => {
    const vfs = Vfs.createDefault();
    vfs.writeFile('/tmp/a', text('v1'));
    vfs.link('/tmp/a', '/home/user/b');
    const s = vfs.snapshot();
    vfs.write(vfs.resolve('/home/user/b'), 0, text('v2'));
    expect(str(vfs.readFile('/tmp/a'))).toBe('v2');
    vfs.unlink('/tmp/a');
    vfs.restore(s);
    expect(str(vfs.readFile('/tmp/a'))).toBe('v1');
    expect(vfs.stat('/tmp/a').nlink).toBe(2);
    vfs.write(vfs.resolve('/tmp/a'), 0, text('v3'));
    expect(str(vfs.readFile('/home/user/b'))).toBe('v3');
  });

  it('inos of nodes that vanished on restore give ENOENT and are never reused', () => {
    const vfs = Vfs.createDefault();
    const s = vfs.snapshot();
    const ino = vfs.open('/tmp/late', { create: true, write: true });
    vfs.write(ino, 0, text('late'));
    vfs.restore(s);
    expect(vfs.exists(ino)).toBe(false);
    expectErrno(() => vfs.read(ino, 0, 1), Errno.ENOENT);
    expectErrno(() => vfs.write(ino, 0, text('x')), Errno.ENOENT);
    expectErrno(() => vfs.statIno(ino), Errno.ENOENT);
    const again = vfs.open('/tmp/late2', { create: true, write: true });
    expect(again).not.toBe(ino);
    expect(vfs.fork().open('/tmp/x', { create: true })).not.toBe(ino);
  });

  it('restore emits an event and fork of an unknown snapshot fails', () => {
    const vfs = Vfs.create();
    const s = vfs.snapshot();
    const seen: string[] = [];
    vfs.subscribe((e) => seen.push(`${e.type} ${e.path}`));
    vfs.restore(s);
    expect(seen).toEqual(['restored /']);
    expectErrno(() => vfs.fork(12345), Errno.EINVAL);
  });
});
