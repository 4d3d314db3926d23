import { describe, expect, it } from 'vitest';
import { Errno } from '../base/errno.js';
import { Vfs } from './index.js';
import { expectErrno, text } from './testUtil.js';

function show(vfs: Vfs, from: number, to?: number): string[] {
  return vfs
    .diff(from, to)
    .map((c) =>
      c.oldPath ? `${c.type} ${c.oldPath} -> ${c.path}` : `${c.type} ${c.path} ${c.kind}`,
    );
}

describe('diff', () => {
  it('lists created, modified, deleted and renamed nodes', () => {
    const vfs = Vfs.createDefault();
    vfs.writeFile('/tmp/keep', text('k'));
    vfs.writeFile('/tmp/edit', text('1'));
    vfs.writeFile('/tmp/gone', text('g'));
    vfs.mkdirp('/tmp/dir/sub');
    vfs.writeFile('/tmp/dir/sub/inner', text('i'));
    vfs.writeFile('/tmp/mv', text('m'));
    const s1 = vfs.snapshot();
    vfs.writeFile('/tmp/edit', text('2'));
    vfs.unlink('/tmp/gone');
    vfs.writeFile('/tmp/new', text('n'));
    vfs.rename('/tmp/dir', '/tmp/dir2');
    vfs.rename('/tmp/mv', '/home/user/mv');
    vfs.chmod('/tmp/keep', 0o600);
    vfs.link('/tmp/new', '/tmp/new-hard');
    vfs.read(vfs.resolve('/etc/passwd'), 0, 10); // atime only: not a change
    const s2 = vfs.snapshot();
    expect(show(vfs, s1, s2)).toEqual([
      'renamed /tmp/mv -> /home/user/mv',
      'renamed /tmp/dir -> /tmp/dir2',
      'modified /tmp/edit file',
      'deleted /tmp/gone file',
      'modified /tmp/keep file',
      'created /tmp/new file',
      'created /tmp/new-hard file',
    ]);
    expect(show(vfs, s2)).toEqual([]);
    expect(show(vfs, s2, s1).length).toBe(7);
    expectErrno(() => vfs.diff(999), Errno.EINVAL);
  });

  it('compares against the current tree and across restore', () => {
    const vfs = Vfs.create();
    const s = vfs.snapshot();
    vfs.mkdir('/a');
    expect(show(vfs, s)).toEqual(['created /a dir']);
    vfs.restore(s);
    expect(show(vfs, s)).toEqual([]);
  });

  it('costs what changed, not the tree size', () => {
    const vfs = Vfs.create({ limits: { maxNodes: 100_000 } });
    const empty = vfs.snapshot();
    for (let d = 0; d < 100; d++) {
      vfs.mkdir(`/d${d}`);
      for (let f = 0; f < 200; f++) vfs.writeFile(`/d${d}/f${f}`, text('x'));
    }
    const s = vfs.snapshot();
    vfs.writeFile('/d50/f7', text('y'));
    expect(show(vfs, s)).toEqual(['modified /d50/f7 file']);
    // Relative timing (robust on a loaded machine): one change vs 20k changes.
    const time = (fn: () => void, n: number): number => {
      const t0 = performance.now();
      for (let i = 0; i < n; i++) fn();
      return (performance.now() - t0) / n;
    };
    const small = time(() => vfs.diff(s), 200);
    const full = time(() => vfs.diff(empty), 3);
    expect(vfs.diff(empty).length).toBe(20_100);
    expect(small * 50).toBeLessThan(full);
  });
});
