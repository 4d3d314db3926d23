import { describe, expect, it } from 'vitest';
import { writeTar } from './tar.js';

const dec = new TextDecoder();
const str = (b: Uint8Array, off: number, len: number) =>
  dec.decode(b.subarray(off, off + len)).replace(/\0.*$/s, '');

describe('writeTar', () => {
  it('writes ustar headers with valid checksums, sizes and padded data', () => {
    const long = `proj/${'d'.repeat(80)}/${'f'.repeat(60)}`;
    const tar = writeTar([
      { name: 'proj', kind: 'dir', mode: 0o755, mtimeMs: 0 },
      {
        name: 'proj/hello.txt',
        kind: 'file',
        mode: 0o644,
        mtimeMs: 1_700_000_000_000,
        data: new TextEncoder().encode('hi\n'),
      },
      { name: long, kind: 'file', mode: 0o600, mtimeMs: 0, data: new Uint8Array(600) },
    ]);
    // dir header, file header + 1 block, long header + 2 blocks, 2 end blocks.
    expect(tar.length).toBe(512 * 8);
    const headers = [0, 512, 1536];
    for (const off of headers) {
      const h = tar.subarray(off, off + 512);
      expect(str(h, 257, 6)).toBe('ustar');
      const stored = parseInt(str(h, 148, 8).trim(), 8);
      let sum = 0;
      for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : (h[i] ?? 0);
      expect(stored).toBe(sum);
    }
    expect(str(tar, 0, 100)).toBe('proj/');
    expect(str(tar, 156, 1)).toBe('5');
    expect(str(tar, 512, 100)).toBe('proj/hello.txt');
    expect(parseInt(str(tar, 512 + 124, 12), 8)).toBe(3);
    expect(str(tar, 1024, 3)).toBe('hi\n');
    expect(`${str(tar, 1536 + 345, 155)}/${str(tar, 1536, 100)}`).toBe(long);
    expect(tar.subarray(512 * 6).every((b) => b === 0)).toBe(true);
  });
  it('refuses paths it cannot store', () => {
    expect(() =>
      writeTar([{ name: 'x'.repeat(300), kind: 'file', mode: 0o644, mtimeMs: 0 }]),
    ).toThrow(/too long/);
  });
});
