import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileDiff, lineCounts, textOf } from './changes.js';

/** Lines added and removed as the host's diff(1) counts them. */
function hostDiff(dir: string, before: string, after: string): { added: number; removed: number } {
  writeFileSync(join(dir, 'a'), before);
  writeFileSync(join(dir, 'b'), after);
  let out = '';
  try {
    out = execFileSync('diff', [join(dir, 'a'), join(dir, 'b')], { encoding: 'utf8' });
  } catch (e) {
    out = (e as { stdout: string }).stdout;
  }
  const count = (mark: string): number => out.split('\n').filter((l) => l.startsWith(mark)).length;
  return { added: count('> '), removed: count('< ') };
}

/** Lines as `wc -l` counts them. */
function hostWc(dir: string, text: string): number {
  writeFileSync(join(dir, 'w'), text);
  return Number(execFileSync('wc', ['-l', join(dir, 'w')], { encoding: 'utf8' }).split(' ')[0]);
}

describe('line counts and file sides', () => {
  it('counts lines added and removed as a line diff does', () => {
    expect(lineCounts('', 'a\nb\n')).toEqual({ added: 2, removed: 0 });
    expect(lineCounts('a\nb\n', '')).toEqual({ added: 0, removed: 2 });
    expect(lineCounts('l1\nl2\nl3\n', 'l1\nL2\nl3\nl4\n')).toEqual({ added: 2, removed: 1 });
    expect(lineCounts('same\n', 'same\n')).toEqual({ added: 0, removed: 0 });
    expect(lineCounts('x', 'x\n')).toEqual({ added: 1, removed: 1 });
  });

  it('agrees with diff(1) and wc -l, final newline or not', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-lines-'));
    const texts = [
      '',
      '\n',
      'x',
      'x\n',
      'a\nb',
      'a\nb\n',
      'a\n\n',
      '\n\n\n',
      'a\nb\nc\n',
      'a\nB\nc',
    ];
    try {
      for (const before of texts) {
        // Against nothing: every line of the text is added (wc -l misses an unterminated last line).
        const full = lineCounts('', before).added;
        expect(full - (before === '' || before.endsWith('\n') ? 0 : 1)).toBe(hostWc(dir, before));
        for (const after of texts)
          expect([before, after, lineCounts(before, after)]).toEqual([
            before,
            after,
            hostDiff(dir, before, after),
          ]);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
