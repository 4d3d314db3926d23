/** Which modules a worker may restart, and the globals it exports to reset them. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importMemory, limitMemory } from '../limits/memoryLimit.js';
import { fixtureWasmPath } from '../sandbox/testPrograms.js';
import {
  dataSegmentsRestartable,
  exportGlobals,
  exportMutableGlobals,
  RESTART_GLOBAL,
} from './restart.js';

const HEADER = [0, 0x61, 0x73, 0x6d, 1, 0, 0, 0];
/** (memory 1 1) (export "memory" (memory 0)), with sections before and after the exports. */
function withMemory(before: number[], after: number[] = []): Uint8Array {
  return Uint8Array.from([
    ...HEADER,
    ...[5, 4, 1, 1, 1, 1],
    ...before,
    ...[7, 10, 1, 6, ...Array.from('memory', (c) => c.charCodeAt(0)), 2, 0],
    ...after,
  ]);
}

describe('exportGlobals', () => {
  it('exports exactly the mutable globals of a real program, which stays valid', () => {
    const wasm = readFileSync(fixtureWasmPath('fixture-exit'));
    const imported = importMemory(limitMemory(new Uint8Array(wasm), 64).bytes);
    const out = imported && exportGlobals(imported.bytes);
    if (!out) throw new Error('not restartable');
    expect(WebAssembly.validate(out)).toBe(true);
    const names = WebAssembly.Module.exports(new WebAssembly.Module(out)).map((e) => e.name);
    // wasm-ld's one mutable global: the stack pointer.
    expect(names.filter((n) => n.startsWith(RESTART_GLOBAL))).toEqual([`${RESTART_GLOBAL}0`]);
  });

  it('refuses a module with a start function or a passive data segment', () => {
    // (global (mut i32) (i32.const 7)): restartable, one global exported
    const ok = exportGlobals(withMemory([6, 6, 1, 0x7f, 1, 0x41, 7, 0x0b]));
    expect(ok && WebAssembly.validate(ok)).toBe(true);
    // (data "x") passive
    const passive = withMemory([], [11, 4, 1, 1, 1, 0x78]);
    expect(WebAssembly.validate(passive)).toBe(true);
    expect(exportGlobals(passive)).toBeUndefined();
    // Active segments (an offset of several LEB bytes, one with an explicit memory
    // index) qualify; a passive one after them does not.
    const active = [0, 0x41, 0x80, 0x80, 0x04, 0x0b, 1, 0x78, 2, 0, 0x41, 8, 0x0b, 1, 0x79];
    const withActive = exportGlobals(withMemory([], [11, 16, 2, ...active]));
    expect(withActive && WebAssembly.validate(withActive)).toBe(true);
    const thenPassive = withMemory([], [11, 19, 3, ...active, 1, 1, 0x7a]);
    expect(WebAssembly.validate(thenPassive)).toBe(true);
    expect(exportGlobals(thenPassive)).toBeUndefined();
    // Which is the data check alone: the globals' rewrite takes either.
    expect(dataSegmentsRestartable(thenPassive)).toBe(false);
    expect(dataSegmentsRestartable(withMemory([], [11, 16, 2, ...active]))).toBe(true);
    expect(exportMutableGlobals(thenPassive)).toBeDefined();
    // a start section (function 0)
    const start = Uint8Array.from([
      ...HEADER,
      ...[1, 4, 1, 0x60, 0, 0],
      ...[3, 2, 1, 0],
      ...[7, 1, 0],
      ...[8, 1, 0],
      ...[10, 4, 1, 2, 0, 0x0b],
    ]);
    expect(WebAssembly.validate(start)).toBe(true);
    expect(exportGlobals(start)).toBeUndefined();
  });
});
