import { describe, expect, it } from 'vitest';
import type { DiffEntry } from '../../src-worker/contract/api.js';
import { diffRows } from './diffTree.js';

const entry = (path: string, change: DiffEntry['change'], plus = 0, minus = 0): DiffEntry => ({
  path,
  change,
  kind: 'file',
  text: true,
  linesAdded: plus,
  linesRemoved: minus,
});

describe('diffRows', () => {
  it('groups files under the folders that hold them, folders first, with totals', () => {
    const { rows, totals } = diffRows([
      entry('/home/user/b.txt', 'modified', 2, 1),
      entry('/home/user/src/a.rs', 'added', 10),
      entry('/tmp/x', 'deleted', 0, 3),
      entry('/home/user/a.txt', 'added', 1),
    ]);
    expect(
      rows.map((r) => `${'  '.repeat(r.depth)}${r.type === 'dir' ? r.name + '/' : r.name}`),
    ).toEqual([
      'home/',
      '  user/',
      '    src/',
      '      a.rs',
      '    a.txt',
      '    b.txt',
      'tmp/',
      '  x',
    ]);
    expect(totals).toEqual({ added: 2, modified: 1, deleted: 1, linesAdded: 13, linesRemoved: 4 });
    const user = rows.find((r) => r.path === '/home/user');
    expect(user?.type === 'dir' && user.totals).toMatchObject({
      added: 2,
      modified: 1,
      linesAdded: 13,
    });
  });

  it('puts files at the root at depth 0 and is empty for no changes', () => {
    expect(diffRows([entry('/top', 'added')]).rows).toMatchObject([
      { type: 'file', depth: 0, name: 'top' },
    ]);
    expect(diffRows([]).rows).toEqual([]);
  });
});
