// Chooses the Rust toolchain that builds our wasm32 WASI programs by what
// works, not by what is present: each candidate compiles and links a tiny
// wasm program, and the first that succeeds is used. Candidates, in order:
//
//   1. the toolchain first on PATH (rustup's stable, say) + wasm32-wasip1,
//      crates from crates.io;
//   2. Debian's packaged rustc in /usr/bin + wasm32-wasi, crates from
//      /usr/share/cargo/registry through a directory source.
//
// The choice carries the exact commands for cargo, clippy and rustfmt of that
// compiler. Cargo runs `cargo-<sub>` from $CARGO_HOME/bin before PATH, so for
// Debian's toolchain clippy and fmt are called by absolute path with CARGO,
// RUSTC and RUSTFMT set: nothing else on the machine can shadow them.
// Node built-ins only: this runs before node_modules exists.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const DEBIAN_APT_PACKAGES = [
  'rustc',
  'cargo',
  'libstd-rust-dev-wasm32',
  'rust-clippy',
  'rustfmt',
];

const CONFIG_MARK = '# Written by scripts/setup.mjs';

function cargoConfig(registry) {
  return `${CONFIG_MARK} for Debian's toolchain (crates from librust-*-dev).
[source.crates-io]
replace-with = "debian"

[source.debian]
directory = "${registry}"

[net]
offline = true
`;
}

/** Where Debian's toolchain lives; tests point these at fake trees. */
export function debianLayout(prefix = '/usr') {
  return {
    bin: path.join(prefix, 'bin'),
    registry: path.join(prefix, 'share', 'cargo', 'registry'),
  };
}

function run(cmd, args, env, cwd) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', env, cwd, timeout: 120_000 });
  return {
    ok: !r.error && r.status === 0,
    out: r.stdout ?? '',
    err: r.error ? r.error.message : (r.stderr ?? ''),
  };
}

/** The first line of compiler output that says what went wrong. */
function firstError(text) {
  const lines = text.split('\n').map((l) => l.trim());
  return (
    lines.find((l) => l.startsWith('error')) ??
    lines.find((l) => l.length > 0) ??
    'no output'
  ).slice(0, 200);
}

/** Which program answers `cmd` on this PATH (absolute path or null). */
export function which(cmd, envPath) {
  for (const dir of (envPath ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const p = path.join(dir, cmd);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      if (fs.statSync(p).isFile()) return p;
    } catch {
      // not here
    }
  }
  return null;
}

/** The candidates on this machine, in order of preference. */
export function candidates({ env = process.env, debian = debianLayout() } = {}) {
  const list = [];
  const rustc = which('rustc', env.PATH);
  const cargo = which('cargo', env.PATH);
  const debRustc = path.join(debian.bin, 'rustc');
  // The PATH toolchain, unless it is Debian's itself (then candidate 2 covers it).
  if (rustc && cargo && path.dirname(rustc) !== debian.bin) {
    const e = { ...env };
    delete e.RUSTC;
    delete e.RUSTFMT;
    delete e.CARGO;
    const viaRustup = which('rustup', env.PATH) !== null;
    list.push({
      kind: viaRustup ? 'rustup' : 'path',
      label: viaRustup ? "rustup's toolchain" : `the toolchain on PATH (${path.dirname(rustc)})`,
      target: 'wasm32-wasip1',
      rustc,
      cargo,
      clippy: [cargo, 'clippy'],
      fmt: [cargo, 'fmt'],
      registry: null,
      env: e,
    });
  }
  if (fs.existsSync(debRustc) || fs.existsSync(path.join(debian.bin, 'cargo'))) {
    const e = {
      ...env,
      PATH: `${debian.bin}${path.delimiter}${env.PATH ?? ''}`,
      RUSTC: debRustc,
      CARGO: path.join(debian.bin, 'cargo'),
      RUSTFMT: path.join(debian.bin, 'rustfmt'),
    };
    delete e.RUSTUP_TOOLCHAIN;
    list.push({
      kind: 'debian',
      label: "Debian's rustc",
      target: 'wasm32-wasi',
      rustc: debRustc,
      cargo: path.join(debian.bin, 'cargo'),
      clippy: [path.join(debian.bin, 'cargo-clippy'), 'clippy'],
      fmt: [path.join(debian.bin, 'cargo-fmt')],
      registry: debian.registry,
      env: e,
    });
  }
  return list;
}

const PROBE_SOURCE = 'fn main() { println!("probe"); }\n';

/**
 * Compiles and links a tiny wasm program with the candidate's rustc, and
 * (with `tools`) checks that its clippy and rustfmt answer and belong to the
 * same compiler. Returns { ok, reason, version }.
 */
export function probe(c, { tools = false } = {}) {
  const ver = run(c.rustc, ['--version'], c.env);
  if (!ver.ok) return { ok: false, reason: `${c.rustc} does not run: ${firstError(ver.err)}` };
  const version = ver.out.trim();
  if (c.registry && !fs.existsSync(c.registry))
    return { ok: false, version, reason: `no crate registry at ${c.registry}` };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandglass-probe-'));
  try {
    fs.writeFileSync(path.join(dir, 'probe.rs'), PROBE_SOURCE);
    const out = path.join(dir, 'probe.wasm');
    const r = run(
      c.rustc,
      ['--edition', '2021', '--target', c.target, '-o', out, 'probe.rs'],
      c.env,
      dir,
    );
    if (!r.ok || !fs.existsSync(out))
      return { ok: false, version, reason: `cannot build ${c.target}: ${firstError(r.err)}` };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (tools) {
    const minor = /rustc 1\.(\d+)/.exec(version)?.[1];
    const clippy = run(c.clippy[0], [...c.clippy.slice(1), '--version'], c.env);
    if (!clippy.ok)
      return { ok: false, version, reason: `clippy does not run: ${firstError(clippy.err)}` };
    const cm = /clippy 0\.1\.(\d+)/.exec(clippy.out)?.[1];
    if (minor && cm && cm !== minor)
      return {
        ok: false,
        version,
        reason: `clippy ${clippy.out.trim()} belongs to another compiler than ${version}`,
      };
    const fmt = run(c.fmt[0], [...c.fmt.slice(1), '--version'], c.env);
    if (!fmt.ok)
      return { ok: false, version, reason: `rustfmt does not run: ${firstError(fmt.err)}` };
  }
  return { ok: true, version, reason: `builds ${c.target}` };
}

/**
 * The first candidate that works, or { ok: false, tried } with a reason per
 * candidate. `tools` also requires clippy and rustfmt (the test suites).
 */
export function chooseToolchain({
  env = process.env,
  debian = debianLayout(),
  tools = false,
} = {}) {
  const tried = [];
  for (const c of candidates({ env, debian })) {
    const p = probe(c, { tools });
    if (p.ok) {
      const skipped = tried.map((t) => `${t.label}: ${t.reason}`).join('; ');
      const why = skipped ? `${p.reason} (${skipped})` : p.reason;
      return { ok: true, ...c, version: p.version, why, tried };
    }
    tried.push({ kind: c.kind, label: c.label, reason: p.reason });
  }
  const detail = tried.length
    ? tried.map((t) => `${t.label}: ${t.reason}`).join('; ')
    : 'no rustc found on PATH or in /usr/bin';
  return { ok: false, tried, message: `no Rust toolchain builds wasm here (${detail})` };
}

/** Points crates-io at Debian's registry in Debian mode, removes our config otherwise. */
export function writeCargoConfig(root, tc) {
  const p = path.join(root, '.cargo', 'config.toml');
  const current = fs.existsSync(p) ? fs.readFileSync(p, 'utf8') : null;
  if (tc.registry) {
    const want = cargoConfig(tc.registry);
    if (current === want) return;
    if (current !== null && !current.startsWith(CONFIG_MARK))
      throw new Error(
        `${p} exists and was not written by setup; move it away so setup can point cargo at ${tc.registry}`,
      );
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, want);
  } else if (current !== null && current.startsWith(CONFIG_MARK)) {
    // A stale Debian-registry config would redirect crates.io to a directory this toolchain does not use.
    fs.rmSync(p);
  }
}

const STAMP = '.toolchain.json';

/** What decides the choice: the compilers' identities and the Debian tree. */
function machineKey(env, debian) {
  const ident = (p) => {
    try {
      const st = fs.statSync(p);
      return `${p}:${st.size}:${st.mtimeMs}`;
    } catch {
      return `${p}:-`;
    }
  };
  const rustc = which('rustc', env.PATH);
  return [
    env.PATH,
    rustc && ident(rustc),
    ident(path.join(debian.bin, 'rustc')),
    ident(path.join(debian.bin, 'rust-lld')),
    ident(debian.registry),
    ident(path.join(os.homedir(), '.rustup', 'toolchains')),
  ].join('|');
}

/**
 * The toolchain setup chose (cached in target/.toolchain.json while the
 * machine's compilers are unchanged); `verify` probes again regardless.
 */
export function detectRustToolchain(root, { verify = false, tools = false } = {}) {
  const debian = debianLayout();
  const key = machineKey(process.env, debian);
  const stampPath = path.join(root, 'target', STAMP);
  if (!verify) {
    try {
      const s = JSON.parse(fs.readFileSync(stampPath, 'utf8'));
      if (s.key === key && (!tools || s.tools)) {
        const c = candidates({ debian }).find((x) => x.kind === s.kind);
        if (c) return { ok: true, ...c, version: s.version, why: s.why, cached: true };
      }
    } catch {
      // no stamp yet
    }
  }
  const tc = chooseToolchain({ debian, tools });
  if (!tc.ok) return tc;
  try {
    writeCargoConfig(root, tc);
  } catch (e) {
    return { ok: false, tried: tc.tried, message: e.message };
  }
  fs.mkdirSync(path.dirname(stampPath), { recursive: true });
  fs.writeFileSync(
    stampPath,
    JSON.stringify({ key, kind: tc.kind, version: tc.version, why: tc.why, tools }),
  );
  return tc;
}

/**
 * Debian's linker package when `rust-lld` is a dangling link (rustc ships the
 * link, the linker is only a Recommends of libstd-rust-dev-wasm32).
 */
export function missingLinkerPackage(debian = debianLayout()) {
  const link = path.join(debian.bin, 'rust-lld');
  let target;
  try {
    target = fs.readlinkSync(link);
  } catch {
    return null;
  }
  if (fs.existsSync(link)) return null;
  const m = /(lld-\d+)$/.exec(path.basename(target));
  return m ? m[1] : 'lld';
}
