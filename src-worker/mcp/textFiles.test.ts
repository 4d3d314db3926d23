import { describe, expect, it } from 'vitest';
import { decodeText, replaceText, sandboxPath, selectLines } from './textFiles.js';

const enc = new TextEncoder();

describe('sandboxPath', () => {
  it('keeps absolute paths, resolves relative ones against /home/user', () => {
    expect(sandboxPath('/etc/passwd')).toBe('/etc/passwd');
    expect(sandboxPath('src/main.rs')).toBe('/home/user/src/main.rs');
  });
  it('cannot climb out of the sandbox root', () => {
    expect(sandboxPath('../../../../etc/shadow')).toBe('/etc/shadow');
    expect(sandboxPath('/../../..')).toBe('/');
  });
  it('refuses empty paths and NUL bytes', () => {
    expect(() => sandboxPath('')).toThrow(/empty/);
    expect(() => sandboxPath('/a\0b')).toThrow(/NUL/);
  });
});

describe('decodeText', () => {
  it('decodes UTF-8 and calls NUL bytes or invalid sequences binary', () => {
    expect(decodeText(enc.encode('héllo\n'))).toBe('héllo\n');
    expect(decodeText(new Uint8Array([104, 0, 105]))).toBeUndefined();
    expect(decodeText(new Uint8Array([0xff, 0xfe, 0x41]))).toBeUndefined();
  });
});

describe('selectLines', () => {
  const text = 'one\ntwo\nthree\nfour\n';
  it('returns the whole file by default', () => {
    expect(selectLines(text)).toEqual({ text, startLine: 1, endLine: 4, totalLines: 4 });
  });
  it('returns an inclusive 1-based range, clamped at the end', () => {
    expect(selectLines(text, 2, 3).text).toBe('two\nthree\n');
    expect(selectLines(text, 3, 99)).toMatchObject({ text: 'three\nfour\n', endLine: 4 });
  });
  it('keeps a missing final newline missing', () => {
    expect(selectLines('a\nb', 2).text).toBe('b');
    expect(selectLines('a\nb', 1, 1).text).toBe('a\n');
  });
  it('says what is wrong with a bad range', () => {
    expect(() => selectLines(text, 3, 2)).toThrow(/before start_line/);
    expect(() => selectLines(text, 9)).toThrow(/past the end \(4 lines\)/);
  });
  it('handles an empty file', () => {
    expect(selectLines('')).toEqual({ text: '', startLine: 0, endLine: 0, totalLines: 0 });
  });
});

describe('replaceText', () => {
  it('replaces a unique occurrence and names its line', () => {
    expect(replaceText('a\nfoo\nb\n', 'foo', 'bar', false)).toEqual({
      text: 'a\nbar\nb\n',
      replacements: 1,
      lines: [2],
    });
  });
  it('refuses an ambiguous match unless replace_all, naming the lines', () => {
    expect(() => replaceText('x\nx\ny\nx', 'x', 'z', false)).toThrow(/3 times \(lines 1, 2, 4\)/);
    expect(replaceText('x\nx\ny\nx', 'x', 'z', true)).toMatchObject({
      text: 'z\nz\ny\nz',
      replacements: 3,
    });
  });
  it('says when the text is not there, or empty', () => {
    expect(() => replaceText('abc', 'zzz', 'y', false)).toThrow(/not found/);
    expect(() => replaceText('abc', '', 'y', false)).toThrow(/empty/);
  });
  it('takes replacement text literally ($ patterns are not special)', () => {
    expect(replaceText('price', 'price', "$& $' $$", false).text).toBe("$& $' $$");
  });
  it('counts lines of multi-line matches from where they start', () => {
    expect(replaceText('a\nb\nc\nb\nc\n', 'b\nc', 'X', true).lines).toEqual([2, 4]);
  });
});
