// The toolchain choice against fake toolchains: shell scripts that behave
// like rustc/cargo/clippy/rustfmt (a wasm target "exists" when its rustlib
// folder does), on fake PATHs, with a fake Debian tree.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
// @ts-expect-error -- plain .mjs module without type declarations
import * as toolchain from './toolchain.mjs';

interface Choice {
  ok: boolean;
  kind?: string;
  target?: string;
  why?: string;
  message?: string;
  clippy?: string[];
  fmt?: string[];
  registry?: string | null;
}
const { chooseToolchain, debianLayout, missingLinkerPackage, writeCargoConfig } = toolchain as {
  chooseToolchain(o: object): Choice;
  debianLayout(prefix: string): { bin: string; registry: string };
  missingLinkerPackage(d: { bin: string; registry: string }): string | null;
  writeCargoConfig(root: string, tc: { registry: string | null }): void;
};

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-toolchain-'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

function script(file: string, body: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
}

/** A fake rustc of version 1.`minor` in `bin`, with `targets` installed. */
function fakeRustc(
  bin: string,
  minor: number,
  targets: string[],
  opts: { noLinker?: boolean } = {},
) {
  for (const t of targets)
    fs.mkdirSync(path.join(bin, '..', 'lib', 'rustlib', t), { recursive: true });
  script(
    path.join(bin, 'rustc'),
    `d=\${0%/*}
if [ "$1" = --version ]; then echo "rustc 1.${minor}.0 (fake)"; exit 0; fi
t=; o=
while [ $# -gt 0 ]; do case $1 in --target) t=$2; shift;; -o) o=$2; shift;; esac; shift; done
if [ ! -d "$d/../lib/rustlib/$t" ]; then echo "error[E0463]: can't find crate for \\\`std\\\`" >&2; exit 1; fi
${opts.noLinker ? 'echo "error: linker \\`rust-lld\\` not found" >&2; exit 1' : ''}
printf 'asm' > "$o"`,
  );
}

/** rustup-like: rustc, cargo (with clippy/fmt subcommands of `clippyMinor`) and rustup. */
function fakeRustup(withTarget: boolean, clippyMinor = 95): string {
  const bin = path.join(tmp, 'rustup', 'bin');
  fakeRustc(bin, 95, withTarget ? ['wasm32-wasip1'] : []);
  script(
    path.join(bin, 'cargo'),
    `case "$1 $2" in
"clippy --version") echo "clippy 0.1.${clippyMinor} (fake)";;
"fmt --version") echo "rustfmt 1.8.0-stable (fake)";;
*) echo "cargo 1.95.0 (fake)";;
esac`,
  );
  script(path.join(bin, 'rustup'), 'echo "rustup 1.29.0 (fake)"');
  return bin;
}

/** A Debian tree: /usr/bin/{rustc,cargo,cargo-clippy,cargo-fmt,rustfmt}, the registry. */
function fakeDebian(opts: { noLinker?: boolean; noRegistry?: boolean } = {}) {
  const d = debianLayout(path.join(tmp, 'usr'));
  fakeRustc(d.bin, 63, ['wasm32-wasi'], opts);
  script(path.join(d.bin, 'cargo'), 'echo "cargo 1.65.0 (fake)"');
  script(path.join(d.bin, 'cargo-clippy'), 'echo "clippy 0.1.63 (fake)"');
  script(path.join(d.bin, 'cargo-fmt'), 'echo "rustfmt 1.5.1 (fake)"');
  script(path.join(d.bin, 'rustfmt'), 'echo "rustfmt 1.5.1 (fake)"');
  if (!opts.noRegistry) fs.mkdirSync(d.registry, { recursive: true });
  return d;
}

const noDebian = () => debianLayout(path.join(tmp, 'nothing'));
const env = (...dirs: string[]) => ({ PATH: dirs.join(path.delimiter) });

describe('chooseToolchain', () => {
  it('rustup without the wasm target, nothing else: fails and says why', () => {
    const tc = chooseToolchain({ env: env(fakeRustup(false)), debian: noDebian() });
    expect(tc.ok).toBe(false);
    expect(tc.message).toMatch(/rustup's toolchain: cannot build wasm32-wasip1: error\[E0463\]/);
  });

  it('rustup with the target is chosen', () => {
    const tc = chooseToolchain({ env: env(fakeRustup(true)), debian: noDebian() });
    expect(tc).toMatchObject({ ok: true, kind: 'rustup', target: 'wasm32-wasip1' });
    expect(tc.registry).toBeNull();
  });

  it("Debian only: Debian's rustc with wasm32-wasi and its own clippy and fmt", () => {
    const d = fakeDebian();
    const tc = chooseToolchain({ env: env(path.join(tmp, 'empty')), debian: d, tools: true });
    expect(tc).toMatchObject({ ok: true, kind: 'debian', target: 'wasm32-wasi' });
    // Called by absolute path so ~/.cargo/bin cannot shadow them.
    expect(tc.clippy?.[0]).toBe(path.join(d.bin, 'cargo-clippy'));
    expect(tc.fmt?.[0]).toBe(path.join(d.bin, 'cargo-fmt'));
    expect(tc.registry).toBe(d.registry);
  });

  it('both, rustup first on PATH without the target: Debian, and the reason names rustup', () => {
    const tc = chooseToolchain({ env: env(fakeRustup(false)), debian: fakeDebian() });
    expect(tc).toMatchObject({ ok: true, kind: 'debian' });
    expect(tc.why).toMatch(/builds wasm32-wasi \(rustup's toolchain: cannot build wasm32-wasip1/);
  });

  it('both, rustup with the target: rustup wins', () => {
    const tc = chooseToolchain({ env: env(fakeRustup(true)), debian: fakeDebian() });
    expect(tc).toMatchObject({ ok: true, kind: 'rustup' });
  });

  it('none: fails with a message', () => {
    const tc = chooseToolchain({ env: env(path.join(tmp, 'empty')), debian: noDebian() });
    expect(tc.ok).toBe(false);
    expect(tc.message).toMatch(/no Rust toolchain builds wasm here \(no rustc found/);
  });

  it("Debian with rust-lld dangling: the probe fails on linking, and names lld's package", () => {
    const d = fakeDebian({ noLinker: true });
    fs.symlinkSync('lld-14', path.join(d.bin, 'rust-lld'));
    const tc = chooseToolchain({ env: env(path.join(tmp, 'empty')), debian: d });
    expect(tc.ok).toBe(false);
    expect(tc.message).toMatch(/linker `rust-lld` not found/);
    expect(missingLinkerPackage(d)).toBe('lld-14');
    script(path.join(d.bin, 'lld-14'), 'exit 0');
    expect(missingLinkerPackage(d)).toBeNull();
  });

  it('Debian without its crate registry is not usable', () => {
    const tc = chooseToolchain({
      env: env(path.join(tmp, 'empty')),
      debian: fakeDebian({ noRegistry: true }),
    });
    expect(tc.ok).toBe(false);
    expect(tc.message).toMatch(/no crate registry at/);
  });

  it('with tools: a clippy of another compiler version is refused', () => {
    const tc = chooseToolchain({ env: env(fakeRustup(true, 80)), debian: noDebian(), tools: true });
    expect(tc.ok).toBe(false);
    expect(tc.message).toMatch(/clippy 0\.1\.80 \(fake\) belongs to another compiler/);
  });
});

describe('writeCargoConfig', () => {
  it('writes the Debian source, and removes its own stale config for rustup', () => {
    const cfg = path.join(tmp, '.cargo', 'config.toml');
    writeCargoConfig(tmp, { registry: '/usr/share/cargo/registry' });
    expect(fs.readFileSync(cfg, 'utf8')).toMatch(/directory = "\/usr\/share\/cargo\/registry"/);
    writeCargoConfig(tmp, { registry: null });
    expect(fs.existsSync(cfg)).toBe(false);
  });

  it('leaves a config it did not write, and says so when it would need to change it', () => {
    const cfg = path.join(tmp, '.cargo', 'config.toml');
    fs.mkdirSync(path.dirname(cfg));
    fs.writeFileSync(cfg, '[build]\njobs = 1\n');
    writeCargoConfig(tmp, { registry: null });
    expect(fs.readFileSync(cfg, 'utf8')).toBe('[build]\njobs = 1\n');
    expect(() => writeCargoConfig(tmp, { registry: '/r' })).toThrow(/was not written by setup/);
  });
});
