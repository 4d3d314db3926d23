import { describe, expect, it } from 'vitest';
import { DEFAULT_PANES, loadPanes, savePanes } from './layoutSlice.js';

function memoryStorage(): Pick<Storage, 'getItem' | 'setItem'> {
  const map = new Map<string, string>();
  return { getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v) };
}

describe('pane sizes', () => {
  it('round-trip through storage and are clamped', () => {
    const s = memoryStorage();
    expect(loadPanes(s)).toEqual(DEFAULT_PANES);
    savePanes(s, { left: 300, right: 5000, editorFraction: 0.3 });
    expect(loadPanes(s)).toEqual({ left: 300, right: 900, editorFraction: 0.3 });
    s.setItem('sandglass.layout.v1', '{not json');
    expect(loadPanes(s)).toEqual(DEFAULT_PANES);
  });
});
