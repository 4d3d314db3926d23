import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PYTHON_LINKS } from './python.js';
import { ProgramRegistry, STUB_MAGIC } from './registry.js';

function registryWith(programs: unknown[]): ProgramRegistry {
  const dir = mkdtempSync(join(tmpdir(), 'sg-registry-'));
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ programs }));
  return new ProgramRegistry(dir);
}

describe('ProgramRegistry stubs', () => {
  it('installs applets, their aliases and links in /bin and /usr/bin', () => {
    const r = registryWith([
      {
        name: 'procutils',
        file: 'procutils.wasm',
        role: 'proc',
        applets: ['awk', 'env'],
        aliases: { gawk: 'awk', mawk: 'awk' },
      },
      { name: 'shell', file: 'shell.wasm', role: 'shell', links: ['/bin/sh'] },
    ]);
    const stubs = r.stubs();
    expect(stubs.get('/usr/bin/awk')).toBe(`${STUB_MAGIC}procutils awk\n`);
    expect(stubs.get('/usr/bin/gawk')).toBe(`${STUB_MAGIC}procutils awk\n`);
    expect(stubs.get('/bin/mawk')).toBe(`${STUB_MAGIC}procutils awk\n`);
    expect(stubs.get('/bin/sh')).toBe(`${STUB_MAGIC}shell\n`);
  });

  it('ignores aliases that are not name -> applet strings', () => {
    const r = registryWith([
      { name: 'p', file: 'p.wasm', role: 'utility', applets: ['a'], aliases: ['x', { y: 1 }] },
    ]);
    // python3's stubs join whenever the Python runtime is built; they are not this manifest's.
    const fromManifest = [...r.stubs().keys()].filter((p) => !PYTHON_LINKS.includes(p));
    expect(fromManifest.sort()).toEqual(['/bin/a', '/usr/bin/a']);
  });
});
