/**
 * The realm's tiny wasm modules by key: compiled once, and a module handed in
 * by the worker (from an earlier realm's boot) is used instead of compiling.
 */
import { describe, expect, it } from 'vitest';
import { adoptHelper, helperKeys, helperModule, helperOf } from './wasmHelpers.js';

/** An empty wasm module (header only): any byte string would do for the cache. */
const EMPTY = Uint8Array.of(0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00);

describe('realm wasm helper modules', () => {
  it('compiles a key once and hands out the same module', () => {
    const a = helperModule('test:a', EMPTY);
    expect(helperModule('test:a', Uint8Array.of(1, 2, 3))).toBe(a);
    expect(helperKeys().split('\n')).toContain('test:a');
    expect(helperOf('test:a')).toBe(a);
  });

  it('uses a handed-in module for its key, with this realm prototype', () => {
    const given = new WebAssembly.Module(EMPTY);
    Object.setPrototypeOf(given, null);
    adoptHelper('test:b', given);
    // Bytes that do not compile: the handed-in module is taken, nothing is compiled.
    expect(helperModule('test:b', Uint8Array.of(0xff))).toBe(given);
    expect(Object.getPrototypeOf(given)).toBe(WebAssembly.Module.prototype);
  });
});
