// Finds a Rust toolchain able to build wasm32 WASI programs and the
// environment to run cargo with. Debian's packaged rustc (target
// wasm32-wasi, crates from /usr/share/cargo/registry) is preferred where
// present; otherwise rustup with the wasm32-wasip1 target.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const DEBIAN_REGISTRY = '/usr/share/cargo/registry';
export const DEBIAN_APT_PACKAGES = [
  'rustc',
  'cargo',
  'libstd-rust-dev-wasm32',
  'rust-clippy',
  'rustfmt',
];

const CARGO_CONFIG = `# Written by scripts/setup.mjs for Debian's toolchain (crates from librust-*-dev).
[source.crates-io]
replace-with = "debian"

[source.debian]
directory = "${DEBIAN_REGISTRY}"

[net]
offline = true
`;

function has(cmd, args = ['--version'], env = process.env) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', env });
  return r.status === 0 ? r.stdout : null;
}

export function debianToolchainPresent() {
  return (
    fs.existsSync('/usr/bin/cargo') &&
    fs.existsSync('/usr/bin/rustc') &&
    fs.existsSync('/usr/lib/rustlib/wasm32-wasi') &&
    fs.existsSync(DEBIAN_REGISTRY)
  );
}

/** Writes .cargo/config.toml pointing crates-io at Debian's registry (only in Debian mode). */
export function writeDebianCargoConfig(root) {
  const p = path.join(root, '.cargo', 'config.toml');
  if (fs.existsSync(p) && fs.readFileSync(p, 'utf8') === CARGO_CONFIG) return;
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, CARGO_CONFIG);
}

export function detectRustToolchain(root) {
  if (debianToolchainPresent()) {
    writeDebianCargoConfig(root);
    const env = {
      ...process.env,
      PATH: `/usr/bin:${process.env.PATH ?? ''}`,
      RUSTC: '/usr/bin/rustc',
    };
    delete env.RUSTUP_TOOLCHAIN;
    return { ok: true, kind: 'debian', cargo: '/usr/bin/cargo', target: 'wasm32-wasi', env };
  }
  const installed = has('rustup', ['target', 'list', '--installed']);
  if (installed !== null) {
    // A stale Debian-registry config would redirect crates.io to a missing directory.
    const cfg = path.join(root, '.cargo', 'config.toml');
    if (fs.existsSync(cfg) && fs.readFileSync(cfg, 'utf8').includes(DEBIAN_REGISTRY))
      fs.rmSync(cfg);
    if (!installed.split('\n').includes('wasm32-wasip1')) {
      return { ok: false, message: 'Rust target missing: run `rustup target add wasm32-wasip1`' };
    }
    return {
      ok: true,
      kind: 'rustup',
      cargo: 'cargo',
      target: 'wasm32-wasip1',
      env: { ...process.env },
    };
  }
  return {
    ok: false,
    message:
      'No Rust toolchain for WebAssembly found. On Debian/Ubuntu (as root): apt-get install ' +
      `${DEBIAN_APT_PACKAGES.join(' ')} binaryen; elsewhere install rustup (https://rustup.rs) and run ` +
      '`rustup target add wasm32-wasip1`.',
  };
}
