import { describe, expect, it } from 'vitest';
import type { FileEntry } from '../../src-worker/contract/api.js';
import { modeString, visibleRows, windowOf } from './rows.js';

const e = (path: string, kind: FileEntry['kind'] = 'file'): FileEntry => ({
  name: path.slice(path.lastIndexOf('/') + 1),
  path,
  kind,
  mode: 0o644,
  size: 0,
  mtimeMs: 0,
});

describe('tree rows', () => {
  it('shows children of expanded directories only, depth first', () => {
    const dirs = { '/': [e('/a', 'dir'), e('/b', 'dir'), e('/c')], '/a': [e('/a/x')] };
    const rows = visibleRows(dirs, { '/': true, '/a': true, '/b': true });
    expect(rows.map((r) => [r.entry.path, r.depth, r.loading])).toEqual([
      ['/a', 0, false],
      ['/a/x', 1, false],
      ['/b', 0, true],
      ['/c', 0, false],
    ]);
    expect(visibleRows(dirs, { '/': true }).map((r) => r.entry.path)).toEqual(['/a', '/b', '/c']);
  });
  it('formats modes like ls', () => {
    expect(modeString('dir', 0o755)).toBe('drwxr-xr-x');
    expect(modeString('file', 0o640)).toBe('-rw-r-----');
    expect(modeString('symlink', 0o777)).toBe('lrwxrwxrwx');
    expect(modeString('dir', 0o1777)).toBe('drwxrwxrwt');
    expect(modeString('file', 0o4755)).toBe('-rwsr-xr-x');
    expect(modeString('file', 0o2644)).toBe('-rw-r-Sr--');
  });
  it('renders only the rows in view for 10k entries', () => {
    expect(windowOf(10_000, 22 * 5000, 660, 22)).toEqual({ start: 4990, end: 5040 });
    expect(windowOf(3, 0, 660, 22)).toEqual({ start: 0, end: 3 });
  });
});
