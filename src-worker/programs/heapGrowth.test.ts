/**
 * Our programs must link crates/wasm-heap's `sbrk` instead of wasi-libc's:
 * V8 charges about 1 ms per `memory.grow`, and libc's grows 64 KiB at a time
 * (jq on 20 MB spent 2.3 s in sbrk). libc's is never exported; ours is,
 * being `#[no_mangle] pub`, which is what this checks.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultProgramsDir } from '../sandbox/sandbox.js';

const dir = defaultProgramsDir();

describe.each(['coreutils', 'procutils', 'shell'])('%s.wasm', (name) => {
  const file = join(dir, `${name}.wasm`);
  it.skipIf(!existsSync(file))('grows its heap through the geometric sbrk', () => {
    const module = new WebAssembly.Module(readFileSync(file));
    expect(WebAssembly.Module.exports(module).map((e) => e.name)).toContain('sbrk');
  });
});
