import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fixtureWasmPath } from '../sandbox/testPrograms.js';
import { limitMemory } from './memoryLimit.js';

function memoryMax(bytes: Uint8Array): number | undefined {
  const m = new WebAssembly.Module(bytes);
  // Instantiate with stub imports and read the memory's growth limit by growing.
  const imports: Record<string, Record<string, () => number>> = {};
  for (const i of WebAssembly.Module.imports(m)) (imports[i.module] ??= {})[i.name] = () => 0;
  const inst = new WebAssembly.Instance(m, imports);
  const mem = inst.exports['memory'] as WebAssembly.Memory;
  const pages = mem.buffer.byteLength / 65536;
  let max = pages;
  try {
    while (max < 70_000) {
      mem.grow(1);
      max++;
    }
  } catch {
    return max;
  }
  return undefined;
}

describe('limitMemory', () => {
  const wasm = new Uint8Array(readFileSync(fixtureWasmPath('fixture-exit')));

  it('caps the memory maximum and keeps the module valid', () => {
    const r = limitMemory(wasm, 40);
    expect(r.maxPages).toBe(40);
    expect(WebAssembly.validate(r.bytes)).toBe(true);
    expect(memoryMax(r.bytes)).toBe(40);
  });

  it('refuses a limit below the module minimum with ENOMEM', () => {
    expect(() => limitMemory(wasm, 1)).toThrow(/pages/);
  });

  it('rejects non-wasm and truncated input with ENOEXEC, never crashing', () => {
    expect(() => limitMemory(new TextEncoder().encode('#!/bin/sh\n'), 10)).toThrow(
      /not a wasm module/,
    );
    expect(() => limitMemory(wasm.subarray(0, 20), 10)).toThrow(/malformed/);
    const bad = Uint8Array.from([
      0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 5, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    ]);
    expect(() => limitMemory(bad, 10)).toThrow(/malformed/);
  });
});
