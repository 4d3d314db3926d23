/**
 * The interpreter memory snapshot made at setup (scripts/build-python.mjs)
 * holds nothing of the machine that built it: no path of the checkout, no
 * host name, no value of the builder's environment.
 */
import { existsSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaultPythonDir } from '../programs/python.js';

const dir = defaultPythonDir();
const file = join(dir, 'snapshot.bin');

describe.skipIf(!existsSync(file))('python memory snapshot', () => {
  it('is recorded in the manifest with the boot it needs', () => {
    const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as {
      snapshot?: { file: string; bytes: number; boot: Record<string, string> };
    };
    expect(m.snapshot?.file).toBe('snapshot.bin');
    expect(m.snapshot?.bytes).toBe(readFileSync(file).length);
    expect(m.snapshot?.boot['stdlib']).toBe('/pyodide/python_stdlib.zip');
  });

  it('holds no host path, host name or environment value', () => {
    const heap = readFileSync(file);
    const repo = fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, '');
    const secrets = [repo, hostname(), process.env.HOME, process.env.PATH, process.env.USER]
      // Short values (`/root`, `user`) occur by chance in a 31 MB heap.
      .filter((v): v is string => typeof v === 'string' && v.length >= 8);
    expect(secrets.length).toBeGreaterThan(0);
    // The search finds what the heap does hold: the interpreter's own paths.
    expect(heap.includes(Buffer.from('/lib/python314.zip'))).toBe(true);
    for (const s of secrets) expect(heap.includes(Buffer.from(s)), s).toBe(false);
  });
});
