import { describe, expect, it } from 'vitest';
import { fileDiff, lineCounts, textOf } from './changes.js';

describe('line counts and file sides', () => {
  it('counts lines added and removed as a line diff does', () => {
    expect(lineCounts('', 'a\nb\n')).toEqual({ added: 2, removed: 0 });
    expect(lineCounts('a\nb\n', '')).toEqual({ added: 0, removed: 2 });
    expect(lineCounts('l1\nl2\nl3\n', 'l1\nL2\nl3\nl4\n')).toEqual({ added: 2, removed: 1 });
    expect(lineCounts('same\n', 'same\n')).toEqual({ added: 0, removed: 0 });
    expect(lineCounts('x', 'x\n')).toEqual({ added: 0, removed: 0 });
  });

  it('tells text from binary and bounds what it returns', () => {
    expect(textOf(new Uint8Array([104, 105]))).toBe('hi');
    expect(textOf(new Uint8Array([0, 1]))).toBeNull();
    expect(textOf(new Uint8Array([0xff, 0xfe]))).toBeNull();
    const d = fileDiff('/f', new Uint8Array([1, 0, 2]), new Uint8Array(3 * 1024 * 1024).fill(65));
    expect(d.before).toMatchObject({ size: 3, omitted: 'binary' });
    expect(d.after).toMatchObject({ size: 3 * 1024 * 1024, omitted: 'tooLarge' });
    expect(d.after?.text).toBeUndefined();
    expect(fileDiff('/g', null, new Uint8Array([104]))).toMatchObject({
      before: null,
      after: { text: 'h' },
    });
  });
});
