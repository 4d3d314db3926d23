import { describe, expect, it } from 'vitest';
import { encodeDirents } from '../kernel/handlers/files.js';
import { DirListings } from './dirListings.js';

const enc = new TextEncoder();
const entries = ['.', '..', 'a', 'bb', 'ccc'].map((n, i) => ({
  name: enc.encode(n),
  ino: 10 + i,
  filetype: 4,
}));

describe('DirListings', () => {
  it('serves every cookie of a prefetched listing like READDIR would', () => {
    const d = new DirListings();
    d.store(7, encodeDirents(entries, 0, 100));
    for (const cookie of [1, 3, 5]) {
      expect([...(d.from(7, cookie) ?? [])]).toEqual([
        ...encodeDirents(entries.slice(cookie), cookie, 100),
      ]);
    }
    expect(d.from(7, 99)?.length).toBe(0); // past the end: no entries
    expect(d.from(8, 0)).toBeUndefined(); // unknown fd: ask the kernel
  });

  it('serves cookie 0 once: a rewind must see the directory as it is now', () => {
    const d = new DirListings();
    d.store(5, encodeDirents(entries, 0, 100));
    expect(d.from(5, 0)?.length).toBeGreaterThan(0);
    expect(d.from(5, 2)).toBeDefined();
    expect(d.from(5, 0)).toBeUndefined();
    expect(d.from(5, 2)).toBeUndefined(); // dropped with the rewind
  });

  it('forgets a closed or replaced descriptor', () => {
    const d = new DirListings();
    d.store(5, encodeDirents(entries, 0, 100));
    d.forget(5);
    expect(d.from(5, 1)).toBeUndefined();
  });
});
