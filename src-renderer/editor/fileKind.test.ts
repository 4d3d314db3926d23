import { describe, expect, it } from 'vitest';
import { decodeText, formatBytes, hexDump } from './fileKind.js';

describe('fileKind', () => {
  it('treats UTF-8 without NULs as text and the rest as binary', () => {
    expect(decodeText(new TextEncoder().encode('héllo\n'))).toBe('héllo\n');
    expect(decodeText(new Uint8Array([0x68, 0, 0x69]))).toBeNull();
    expect(decodeText(new Uint8Array([0xff, 0xfe, 0x41]))).toBeNull();
  });
  it('dumps hex with offsets and ASCII', () => {
    const lines = hexDump(new TextEncoder().encode('ABCDEFGHIJKLMNOPQ\n'));
    expect(lines[0]).toBe(
      '00000000  41 42 43 44 45 46 47 48 49 4a 4b 4c 4d 4e 4f 50  ABCDEFGHIJKLMNOP',
    );
    expect(lines[1]).toMatch(/^00000010 {2}51 0a\s+Q\.$/);
  });
  it('formats sizes', () => {
    expect(formatBytes(10)).toBe('10 B');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.0 MiB');
  });
});
