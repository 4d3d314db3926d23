import { describe, expect, it } from 'vitest';
import { Errno } from '../base/errno.js';
import { Vfs } from './index.js';
import { expectErrno, str, text } from './testUtil.js';

describe('read-only subtrees', () => {
  it('give EROFS to writers, EXDEV to links out, and stay readable', () => {
    const vfs = Vfs.createDefault();
    vfs.mkdirp('/mnt/ro/sub');
    vfs.writeFile('/mnt/ro/file', text('frozen'));
    vfs.sealReadOnly('/mnt/ro');
    const ino = vfs.resolve('/mnt/ro/file');
    expect(vfs.stat('/mnt/ro/file').readOnly).toBe(true);
    expect(vfs.stat('/mnt/ro').dev).not.toBe(vfs.stat('/tmp').dev);
    expectErrno(() => vfs.write(ino, 0, text('x')), Errno.EROFS);
    expectErrno(() => vfs.truncate(ino, 0), Errno.EROFS);
    expectErrno(() => vfs.open('/mnt/ro/file', { write: true }), Errno.EROFS);
    expectErrno(() => vfs.writeFile('/mnt/ro/new', text('')), Errno.EROFS);
    expectErrno(() => vfs.mkdir('/mnt/ro/sub/x'), Errno.EROFS);
    expectErrno(() => vfs.unlink('/mnt/ro/file'), Errno.EROFS);
    expectErrno(() => vfs.rmdir('/mnt/ro/sub'), Errno.EROFS);
    expectErrno(() => vfs.chmod('/mnt/ro/file', 0o777), Errno.EROFS);
    expectErrno(() => vfs.rename('/mnt/ro/file', '/tmp/stolen'), Errno.EROFS);
    expectErrno(() => vfs.link('/mnt/ro/file', '/tmp/hard'), Errno.EXDEV);
    expectErrno(() => vfs.access('/mnt/ro/file', 2), Errno.EROFS);
    vfs.writeFile('/tmp/w', text(''));
    expectErrno(() => vfs.rename('/tmp/w', '/mnt/ro/w'), Errno.EROFS);
    expect(str(vfs.readFile('/mnt/ro/file'))).toBe('frozen');
    // Copying out is fine.
    vfs.writeFile('/tmp/copy', vfs.readFile('/mnt/ro/file'));
    expect(str(vfs.readFile('/tmp/copy'))).toBe('frozen');
  });
});
