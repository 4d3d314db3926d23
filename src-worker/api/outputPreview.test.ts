import { describe, expect, it } from 'vitest';
import { OutputPreview } from './outputPreview.js';

const enc = new TextEncoder();

describe('OutputPreview', () => {
  it('keeps short output whole', () => {
    const p = new OutputPreview(8);
    p.push(enc.encode('abc'));
    p.push(enc.encode('def'));
    expect([p.text(), p.total]).toEqual(['abcdef', 6]);
  });
  it('keeps head and tail of long output, whatever the chunking, and counts every byte', () => {
    const whole = Array.from({ length: 1000 }, (_, i) => String.fromCharCode(97 + (i % 26))).join(
      '',
    );
    for (const size of [1, 3, 7, 64, 1000]) {
      const p = new OutputPreview(10);
      for (let i = 0; i < whole.length; i += size) p.push(enc.encode(whole.slice(i, i + size)));
      expect(p.total).toBe(1000);
      expect(p.text()).toBe(`${whole.slice(0, 10)}\n[… 980 bytes not kept …]\n${whole.slice(-10)}`);
    }
  });
  it('needs no marker when nothing was left out', () => {
    expect(OutputPreview.of('0123456789abcdefghij', 10).text()).toBe('0123456789abcdefghij');
  });
});
