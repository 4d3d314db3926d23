import { describe, expect, it } from 'vitest';
import {
  hamtEmpty,
  hamtForEach,
  hamtGet,
  hamtRemove,
  hamtSet,
  newEdit,
  type Hamt,
} from './hamt.js';

function entries<V>(m: Hamt<V>): Array<[string | number, V]> {
  const out: Array<[string | number, V]> = [];
  hamtForEach(m, (k, v) => out.push([k, v]));
  return out.sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1));
}

describe('hamt', () => {
  it('agrees with a Map over random operations (string and number keys)', () => {
    let seed = 12345;
    const rnd = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    for (const numeric of [false, true]) {
      const model = new Map<string | number, number>();
      let m = hamtEmpty<number>();
      let edit = newEdit();
      for (let i = 0; i < 20000; i++) {
        const key = numeric ? rnd(3000) : `k${rnd(3000)}`;
        if (rnd(3) === 0) {
          m = hamtRemove(m, key, edit);
          model.delete(key);
        } else {
          m = hamtSet(m, key, i, edit);
          model.set(key, i);
        }
        if (i % 997 === 0) edit = newEdit();
      }
      expect(m.size).toBe(model.size);
      const wrong = [...model].filter(([k, v]) => hamtGet(m, k) !== v);
      expect(wrong).toEqual([]);
      expect(entries(m).length).toBe(model.size);
      expect(hamtGet(m, numeric ? 99999 : 'absent')).toBeUndefined();
    }
  });

  it('keeps old versions intact after edits under a new token', () => {
    const e1 = newEdit();
    let m = hamtEmpty<string>();
    for (let i = 0; i < 1000; i++) m = hamtSet(m, i, `v${i}`, e1);
    const frozen = m;
    const e2 = newEdit();
    let n = hamtSet(m, 5, 'changed', e2);
    n = hamtRemove(n, 6, e2);
    n = hamtSet(n, 5000, 'new', e2);
    expect(hamtGet(frozen, 5)).toBe('v5');
    expect(hamtGet(frozen, 6)).toBe('v6');
    expect(hamtGet(frozen, 5000)).toBeUndefined();
    expect(frozen.size).toBe(1000);
    expect(hamtGet(n, 5)).toBe('changed');
    expect(hamtGet(n, 6)).toBeUndefined();
    expect(n.size).toBe(1000);
  });

  it('handles full hash collisions', () => {
    // Distinct numbers that agree in the low 32 bits hash identically.
    const e = newEdit();
    let m = hamtEmpty<string>();
    m = hamtSet(m, 7, 'a', e);
    m = hamtSet(m, 7 + 2 ** 32, 'b', e);
    m = hamtSet(m, 7 + 2 ** 33, 'c', e);
    expect(hamtGet(m, 7)).toBe('a');
    expect(hamtGet(m, 7 + 2 ** 32)).toBe('b');
    m = hamtRemove(m, 7 + 2 ** 32, newEdit());
    expect(hamtGet(m, 7 + 2 ** 32)).toBeUndefined();
    expect(hamtGet(m, 7 + 2 ** 33)).toBe('c');
    expect(m.size).toBe(2);
  });

  it('returns the same header when nothing changes', () => {
    const e = newEdit();
    const m = hamtSet(hamtEmpty<number>(), 'x', 1, e);
    expect(hamtSet(m, 'x', 1, e)).toBe(m);
    expect(hamtRemove(m, 'y', e)).toBe(m);
  });

  it('returns a new header when a value is replaced in place', () => {
    const e = newEdit(); // one token: owned nodes are updated in place
    let m = hamtEmpty<number>();
    for (let i = 0; i < 100; i++) m = hamtSet(m, `k${i}`, i, e);
    const before = m;
    m = hamtSet(m, 'k7', 700, e);
    expect(m).not.toBe(before);
    expect(hamtGet(m, 'k7')).toBe(700);
  });
});
