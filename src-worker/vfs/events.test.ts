import { describe, expect, it, vi } from 'vitest';
import { Vfs } from './index.js';
import { text } from './testUtil.js';
import type { VfsEvent } from './types.js';

function record(vfs: Vfs): string[] {
  const out: string[] = [];
  vfs.subscribe((e: VfsEvent) =>
    out.push(
      e.oldPath
        ? `${e.type} ${e.oldPath} -> ${e.path}`
        : `${e.type} ${e.path} ${e.kind ?? ''}`.trim(),
    ),
  );
  return out;
}

describe('events', () => {
  it('reports created, modified, renamed and deleted with paths', async () => {
    const vfs = Vfs.createDefault();
    const seen = record(vfs);
    vfs.mkdir('/tmp/d');
    const ino = vfs.open('/tmp/d/f', { create: true, write: true });
    vfs.write(ino, 0, text('a'));
    vfs.write(ino, 1, text('b'));
    await Promise.resolve();
    vfs.write(ino, 2, text('c'));
    vfs.rename('/tmp/d', '/tmp/e');
    await Promise.resolve();
    vfs.write(ino, 0, text('z'));
    vfs.symlink('f', '/tmp/e/l');
    vfs.unlink('/tmp/e/l');
    vfs.unlink('/tmp/e/f');
    vfs.rmdir('/tmp/e');
    expect(seen).toEqual([
      'created /tmp/d dir',
      'created /tmp/d/f file',
      'modified /tmp/d/f file',
      'modified /tmp/d/f file',
      'renamed /tmp/d -> /tmp/e',
      'modified /tmp/e/f file',
      'created /tmp/e/l symlink',
      'deleted /tmp/e/l symlink',
      'deleted /tmp/e/f file',
      'deleted /tmp/e dir',
    ]);
  });

  it('rename over an existing file reports the replaced file as deleted', () => {
    const vfs = Vfs.create();
    vfs.writeFile('/a', text('a'));
    vfs.writeFile('/b', text('b'));
    const seen = record(vfs);
    // Listeners run after the rename completed: they see the final tree.
    vfs.subscribe((e) => {
      if (e.type === 'deleted') seen.push(`sees ${new TextDecoder().decode(vfs.readFile('/b'))}`);
    });
    vfs.rename('/a', '/b');
    expect(seen).toEqual(['deleted /b file', 'sees a', 'renamed /a -> /b']);
  });

  it('unsubscribe stops delivery; a throwing listener does not break the VFS', () => {
    const vfs = Vfs.create();
    const seen: string[] = [];
    const off = vfs.subscribe((e) => seen.push(e.path));
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vfs.subscribe(() => {
      throw new Error('listener bug');
    });
    vfs.mkdir('/x');
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
    off();
    vfs.mkdir('/y');
    expect(seen).toEqual(['/x']);
    expect(vfs.stat('/y').kind).toBe('dir');
  });
});
