import { describe, expect, it } from 'vitest';
import { newEdit } from './hamt.js';
import { trieEmpty, trieGet, trieRemove, trieSet } from './intTrie.js';

describe('intTrie', () => {
  it('agrees with a Map over random operations and grows levels', () => {
    let seed = 7;
    const rnd = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    const model = new Map<number, number>();
    let t = trieEmpty<number>();
    let edit = newEdit();
    for (let i = 0; i < 30000; i++) {
      const key = rnd(4) === 0 ? rnd(2_000_000) : rnd(5000);
      if (rnd(3) === 0) {
        t = trieRemove(t, key, edit);
        model.delete(key);
      } else {
        t = trieSet(t, key, i, edit);
        model.set(key, i);
      }
      if (i % 1009 === 0) edit = newEdit();
    }
    expect(t.size).toBe(model.size);
    const wrong = [...model].filter(([k, v]) => trieGet(t, k) !== v);
    expect(wrong).toEqual([]);
    expect(trieGet(t, 3_000_000_000)).toBeUndefined();
    expect(trieGet(t, -1)).toBeUndefined();
  });

  it('leaves old versions untouched and prunes on removal', () => {
    const e1 = newEdit();
    let t = trieEmpty<string>();
    for (let i = 0; i < 2000; i++) t = trieSet(t, i, `v${i}`, e1);
    const frozen = t;
    const e2 = newEdit();
    let u = trieSet(t, 10, 'x', e2);
    u = trieRemove(u, 11, e2);
    expect(trieGet(frozen, 10)).toBe('v10');
    expect(trieGet(frozen, 11)).toBe('v11');
    expect(trieGet(u, 10)).toBe('x');
    expect(trieGet(u, 11)).toBeUndefined();
    expect(u.size).toBe(1999);
    for (let i = 0; i < 2000; i++) u = trieRemove(u, i, e2);
    expect(u.size).toBe(0);
    expect(u.root).toBeNull();
    expect(frozen.size).toBe(2000);
    expect(trieRemove(frozen, 99999, e2)).toBe(frozen);
  });
});
