import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fixtureWasmPath } from '../sandbox/testPrograms.js';
import { importMemory, limitMemory, MEMORY_IMPORT } from './memoryLimit.js';

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

describe('importMemory', () => {
  const wasm = limitMemory(new Uint8Array(readFileSync(fixtureWasmPath('fixture-exit'))), 40).bytes;

  it('turns the defined memory into an import of the same limits, the rest unchanged', () => {
    const r = importMemory(wasm);
    if (!r) throw new Error('not rewritten');
    expect(r.memory).toEqual({ initial: 17, maximum: 40 });
    expect(WebAssembly.validate(r.bytes)).toBe(true);
    const m = new WebAssembly.Module(r.bytes);
    const mems = WebAssembly.Module.imports(m).filter((i) => i.kind === 'memory');
    expect(mems).toEqual([
      { module: MEMORY_IMPORT.module, name: MEMORY_IMPORT.name, kind: 'memory' },
    ]);
    expect(WebAssembly.Module.exports(m)).toEqual(
      WebAssembly.Module.exports(new WebAssembly.Module(wasm)),
    );
    // It runs on the memory it is given, and only one of a fitting shape.
    const imports: Record<string, Record<string, unknown>> = {};
    for (const i of WebAssembly.Module.imports(m))
      if (i.kind === 'function') (imports[i.module] ??= {})[i.name] = () => 0;
    const memory = new WebAssembly.Memory({ initial: 17, maximum: 40 });
    const inst = new WebAssembly.Instance(m, { ...imports, [MEMORY_IMPORT.module]: { memory } });
    expect(inst.exports['memory']).toBe(memory);
    const tooBig = new WebAssembly.Memory({ initial: 17, maximum: 41 });
    expect(
      () => new WebAssembly.Instance(m, { ...imports, [MEMORY_IMPORT.module]: { memory: tooBig } }),
    ).toThrow();
  });

  it('adds an import section to a module without one', () => {
    // (module (memory 1 2) (export "memory" (memory 0)))
    const bare = Uint8Array.from([
      0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 5, 4, 1, 1, 1, 2, 7, 10, 1, 6, 0x6d, 0x65, 0x6d, 0x6f, 0x72,
      0x79, 2, 0,
    ]);
    const r = importMemory(bare);
    expect(r?.memory).toEqual({ initial: 1, maximum: 2 });
    expect(WebAssembly.validate(r?.bytes ?? new Uint8Array())).toBe(true);
  });

  it('leaves alone a module without a memory maximum or with a shared one', () => {
    const noMax = Uint8Array.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 5, 3, 1, 0, 1]);
    expect(importMemory(noMax)).toBeUndefined();
    const shared = Uint8Array.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 5, 4, 1, 3, 1, 2]);
    expect(importMemory(shared)).toBeUndefined();
    const none = Uint8Array.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);
    expect(importMemory(none)).toBeUndefined();
  });
});
