/** Tests of the preview1 fd glue's pure helpers. */
import { describe, expect, it } from 'vitest';
import { msToNs } from './fd.js';

describe('msToNs', () => {
  it('converts present-day millisecond times exactly', () => {
    expect(msToNs(1763690539013)).toBe(1763690539013000000n);
  });
  it('keeps sub-millisecond fractions', () => {
    expect(msToNs(1000.5)).toBe(1000500000n);
    expect(msToNs(0.000001)).toBe(1n);
  });
  it('drops the float noise below what a present-day double can hold', () => {
    // 1763706624464.999 is stored as ...464.9990234375: the host said .464999000.
    expect(msToNs(1763706624464.999)).toBe(1763706624464999000n);
  });
  it('handles times before the epoch', () => {
    expect(msToNs(-1.5)).toBe(-1500000n);
  });
  it('maps a non-finite time to zero instead of throwing', () => {
    expect(msToNs(Number.NaN)).toBe(0n);
  });
});
