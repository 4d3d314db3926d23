import { describe, expect, it } from 'vitest';
import { capOutput } from './output.js';

describe('capOutput', () => {
  it('leaves output within the cap whole', () => {
    expect(capOutput('hello\n', 1024)).toEqual({ text: 'hello\n', bytes: 6, truncated: false });
  });
  it('keeps the head and the tail of longer output and counts every byte', () => {
    const lines = Array.from({ length: 10_000 }, (_, i) => `line ${i}`).join('\n');
    const out = capOutput(lines, 1024);
    expect(out.truncated).toBe(true);
    expect(out.bytes).toBe(Buffer.byteLength(lines));
    expect(out.text.startsWith('line 0\nline 1\n')).toBe(true);
    expect(out.text.endsWith('line 9999')).toBe(true);
    expect(out.text).toMatch(/bytes not kept/);
    expect(Buffer.byteLength(out.text)).toBeLessThan(1024 + 64);
  });
  it('counts bytes of multi-byte text, not characters', () => {
    expect(capOutput('é'.repeat(10), 1024).bytes).toBe(20);
  });
});
