/**
 * Test support: a programs directory with a manifest for the kernel's
 * fixture programs (crates/fixtures), so kernel tests never depend on the
 * shell or coreutils builds. Fixtures come from resources/wasm, or from the
 * cargo target dir if the build script has not copied them yet.
 */
import { copyFileSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURES = [
  'fixture-alloc',
  'fixture-bigout',
  'fixture-cat',
  'fixture-echoargs',
  'fixture-exit',
  'fixture-fetch',
  'fixture-fs',
  'fixture-head',
  'fixture-printenv',
  'fixture-session',
  'fixture-sleep',
  'fixture-spawn',
  'fixture-spin',
  'fixture-stderr',
  'fixture-wasi',
  'fixture-yes',
] as const;

export function fixtureRole(name: string): 'shell' | 'proc' | 'utility' | 'net' {
  if (name === 'fixture-session') return 'shell';
  if (name === 'fixture-fetch') return 'net';
  if (name === 'fixture-spawn') return 'proc';
  return 'utility';
}

const root = fileURLToPath(new URL('../../', import.meta.url));

export function fixtureWasmPath(name: string): string {
  const candidates = [
    join(root, 'resources/wasm', `${name}.wasm`),
    join(root, 'target/kernel/wasm32-wasi/release', `${name}.wasm`),
    join(root, 'target/wasm32-wasi/release', `${name}.wasm`),
  ];
  for (const c of candidates) if (existsSync(c)) return c;
  throw new Error(
    `fixture ${name} not built: run cargo build --release --target wasm32-wasi -p fixtures`,
  );
}

let cached: string | undefined;

/** A temp dir with manifest.json + the fixture wasm files (made once per test process). */
export function fixtureProgramsDir(): string {
  if (cached) return cached;
  const dir = mkdtempSync(join(tmpdir(), 'sandglass-fixtures-'));
  const programs = FIXTURES.map((name) => {
    copyFileSync(fixtureWasmPath(name), join(dir, `${name}.wasm`));
    return { name, file: `${name}.wasm`, role: fixtureRole(name) };
  });
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ programs }, null, 2));
  cached = dir;
  return dir;
}
