import { describe, expect, it } from 'vitest';
import { Errno } from '../base/errno.js';
import { Vfs } from './index.js';
import { expectErrno, str, text } from './testUtil.js';

describe('limits', () => {
  it('EFBIG beyond the file size limit; file unchanged; VFS usable', () => {
    const vfs = Vfs.create({ limits: { maxFileSize: 100 } });
    const ino = vfs.open('/f', { create: true, write: true });
    vfs.write(ino, 0, new Uint8Array(90).fill(65));
    expectErrno(() => vfs.write(ino, 90, new Uint8Array(11)), Errno.EFBIG);
    vfs.write(ino, 0, new Uint8Array(1), { append: true });
    expectErrno(() => vfs.write(ino, 95, new Uint8Array(10)), Errno.EFBIG);
    expect(vfs.statIno(ino).size).toBe(91);
    expectErrno(() => vfs.truncate(ino, 101), Errno.EFBIG);
    expectErrno(() => vfs.writeFile('/f', new Uint8Array(101)), Errno.EFBIG);
    expect(vfs.statIno(ino).size).toBe(91);
    vfs.writeFile('/g', text('ok'));
    expect(str(vfs.readFile('/g'))).toBe('ok');
  });

  it('ENOSPC beyond total bytes; nothing else lost', () => {
    const vfs = Vfs.create({ limits: { maxBytes: 1000 } });
    vfs.writeFile('/a', new Uint8Array(600).fill(1));
    vfs.writeFile('/b', new Uint8Array(300).fill(2));
    expectErrno(() => vfs.writeFile('/c', new Uint8Array(200)), Errno.ENOSPC);
    expectErrno(() => vfs.stat('/c'), Errno.ENOENT);
    // Replacing /a with a bigger body that does not fit leaves /a intact.
    expectErrno(() => vfs.writeFile('/a', new Uint8Array(800)), Errno.ENOSPC);
    expect(vfs.readFile('/a').every((b) => b === 1)).toBe(true);
    expect(vfs.stat('/a').size).toBe(600);
    const b = vfs.resolve('/b');
    expectErrno(() => vfs.write(b, 300, new Uint8Array(101)), Errno.ENOSPC);
    expect(vfs.statIno(b).size).toBe(300);
    expectErrno(() => vfs.symlink('x'.repeat(200), '/s'), Errno.ENOSPC);
    expect(vfs.usage().bytes).toBe(900);
    // Overwriting in place needs no space.
    vfs.write(b, 0, new Uint8Array(300).fill(3));
    // Freeing space makes room again.
    vfs.unlink('/a');
    vfs.writeFile('/c', new Uint8Array(200));
    expect(vfs.usage().bytes).toBe(500);
  });

  it('EDQUOT beyond the node limit', () => {
    const vfs = Vfs.create({ limits: { maxNodes: 5 } });
    vfs.mkdir('/d');
    vfs.writeFile('/d/1', text(''));
    vfs.writeFile('/d/2', text(''));
    vfs.symlink('1', '/d/3');
    expect(vfs.usage().nodes).toBe(5);
    expectErrno(() => vfs.writeFile('/d/4', text('')), Errno.EDQUOT);
    expectErrno(() => vfs.mkdir('/e'), Errno.EDQUOT);
    expectErrno(() => vfs.stat('/d/4'), Errno.ENOENT);
    vfs.link('/d/1', '/d/hard'); // links cost no inode
    vfs.unlink('/d/2');
    vfs.mkdir('/e');
    expect(vfs.usage().nodes).toBe(5);
  });

  it('limits hold after restore (usage is part of the snapshot)', () => {
    const vfs = Vfs.create({ limits: { maxBytes: 100 } });
    const s = vfs.snapshot();
    vfs.writeFile('/a', new Uint8Array(100));
    expectErrno(() => vfs.writeFile('/b', new Uint8Array(1)), Errno.ENOSPC);
    vfs.restore(s);
    expect(vfs.usage().bytes).toBe(0);
    vfs.writeFile('/b', new Uint8Array(100));
  });

  it('rejects bad limit values', () => {
    expectErrno(() => Vfs.create({ limits: { maxBytes: Number.NaN } }), Errno.EINVAL);
    expectErrno(() => Vfs.create().setLimits({ maxNodes: -1 }), Errno.EINVAL);
  });

  it('setLimits applies to later growth without evicting anything', () => {
    const vfs = Vfs.create();
    vfs.writeFile('/a', new Uint8Array(500));
    vfs.setLimits({ maxBytes: 100 });
    expect(vfs.limits.maxBytes).toBe(100);
    expect(vfs.stat('/a').size).toBe(500);
    expectErrno(() => vfs.writeFile('/b', new Uint8Array(1)), Errno.ENOSPC);
    vfs.write(vfs.resolve('/a'), 0, new Uint8Array(10).fill(1)); // in place: no growth
    vfs.truncate(vfs.resolve('/a'), 50);
    vfs.writeFile('/b', new Uint8Array(50));
  });
});
