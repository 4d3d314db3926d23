#!/usr/bin/env node
// Builds every binary of the Cargo workspace for WASI, shrinks it with
// wasm-opt when present, and writes resources/wasm/<bin>.wasm plus
// resources/wasm/manifest.json (the kernel's program registry).
//
// Two toolchains are supported from the same Cargo.toml/Cargo.lock:
// Debian's rustc (target wasm32-wasi, crates from /usr/share/cargo/registry)
// and rustup stable (target wasm32-wasip1, crates.io).
//
// A binary's role (which import namespaces the kernel grants it) is declared
// in its crate's Cargo.toml: [package.metadata.sandglass.roles] bin = "role";
// undeclared binaries are plain utilities.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { detectRustToolchain } from './toolchain.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// SANDGLASS_WASM_DIR lets a developer build into a private directory (and
// point tests at it) while others use resources/wasm in the same tree.
const outDir = process.env.SANDGLASS_WASM_DIR
  ? path.resolve(process.env.SANDGLASS_WASM_DIR)
  : path.join(root, 'resources', 'wasm');

function run(cmd, args, env) {
  const r = spawnSync(cmd, args, { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.error) throw r.error;
  return r.status ?? 1;
}

/** Reads binaries, their roles and program links from `cargo metadata`. */
function workspaceBinaries(tc) {
  const r = spawnSync(tc.cargo, ['metadata', '--format-version', '1', '--no-deps', '--offline'], {
    cwd: root,
    env: tc.env,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  if (r.status !== 0) throw new Error(`cargo metadata failed: ${r.stderr}`);
  const meta = JSON.parse(r.stdout);
  const bins = [];
  for (const pkg of meta.packages) {
    const sg = pkg.metadata?.sandglass ?? {};
    for (const t of pkg.targets) {
      if (!t.kind.includes('bin')) continue;
      bins.push({
        pkg: pkg.name,
        name: t.name,
        role: sg.roles?.[t.name] ?? 'utility',
        links: sg.links?.[t.name] ?? [],
        aliases: sg.aliases?.[t.name] ?? {},
        multicall: Boolean(sg.multicall?.[t.name]),
      });
    }
  }
  return bins;
}

/**
 * Asks a multicall binary for its applet list by running `BIN --list` once
 * under a minimal in-script WASI shim (build time only: the product runs
 * programs through the kernel's own host).
 */
async function listApplets(wasmPath, name) {
  const module = await WebAssembly.compile(fs.readFileSync(wasmPath));
  let memory;
  let out = '';
  const args = [name, '--list'].map((a) => Buffer.from(`${a}\0`));
  const ENOSYS = 52;
  class Exit extends Error {}
  const wasi = {
    args_sizes_get: (c, s) => {
      const v = new DataView(memory.buffer);
      v.setUint32(c, args.length, true);
      v.setUint32(
        s,
        args.reduce((n, a) => n + a.length, 0),
        true,
      );
      return 0;
    },
    args_get: (argv, buf) => {
      const v = new DataView(memory.buffer);
      let p = buf;
      args.forEach((a, i) => {
        v.setUint32(argv + 4 * i, p, true);
        new Uint8Array(memory.buffer, p, a.length).set(a);
        p += a.length;
      });
      return 0;
    },
    environ_sizes_get: (c, s) => {
      const v = new DataView(memory.buffer);
      v.setUint32(c, 0, true);
      v.setUint32(s, 0, true);
      return 0;
    },
    environ_get: () => 0,
    fd_write: (fd, iovs, n, written) => {
      const v = new DataView(memory.buffer);
      let total = 0;
      for (let i = 0; i < n; i++) {
        const p = v.getUint32(iovs + 8 * i, true);
        const l = v.getUint32(iovs + 8 * i + 4, true);
        if (fd === 1) out += Buffer.from(memory.buffer, p, l).toString('utf8');
        total += l;
      }
      v.setUint32(written, total, true);
      return 0;
    },
    proc_exit: () => {
      throw new Exit();
    },
    fd_prestat_get: () => 8,
  };
  const imports = {};
  for (const imp of WebAssembly.Module.imports(module)) {
    if (imp.kind !== 'function') continue;
    imports[imp.module] ??= {};
    const own = imp.module === 'wasi_snapshot_preview1' ? wasi[imp.name] : undefined;
    imports[imp.module][imp.name] = own ?? (() => ENOSYS);
  }
  const inst = await WebAssembly.instantiate(module, imports);
  memory = inst.exports.memory;
  try {
    inst.exports._start();
  } catch (e) {
    if (!(e instanceof Exit)) throw e;
  }
  return out.split('\n').filter(Boolean);
}

function newer(src, dst) {
  if (!fs.existsSync(dst)) return true;
  return fs.statSync(src).mtimeMs > fs.statSync(dst).mtimeMs;
}

/**
 * 128-bit SIMD: memchr/memmem, regex prefilters and LLVM's loop vectoriser
 * use it (wc -l, grep, sort run 1.5-3x faster). Every engine we run on has it
 * (V8 since Node 16.4 / Chromium 91). (+bulk-memory was tried: no
 * measurable change on grep, sed, awk, sort or the shell.)
 */
const WASM_RUSTFLAGS = '-C target-feature=+simd128';
/** Features the binaries use; stripped modules carry no features section for wasm-opt to read. */
const WASM_OPT_FEATURES = [
  '--enable-simd',
  '--enable-sign-ext',
  '--enable-mutable-globals',
  '--enable-nontrapping-float-to-int',
  '--enable-bulk-memory',
  '--enable-multivalue',
  '--enable-reference-types',
];

/**
 * wasm-opt's arguments. Binaryen inlines every function that has a single
 * caller whatever its size: the shell's parser and executor became a few
 * functions of 44-122 KB that V8 compiles whole on their first call
 * (Liftoff, in the process's thread) even when a command uses a sliver of
 * them: 30-50 ms of a cold `sh -c 'echo hi'` and ~8 MB of compiler memory.
 * Capped, a program compiles what it runs (the shell's largest function is
 * then 21 KB; files within 0.2 % of the size).
 */
const WASM_OPT_ARGS = [
  '-Oz',
  '--strip-debug',
  '--one-caller-inline-max-function-size=200',
  ...WASM_OPT_FEATURES,
];

/** The wasm-opt arguments the programs in `dir` were made with (manifest.json). */
function builtWith(dir) {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')).wasmOpt;
  } catch {
    return undefined;
  }
}

export async function buildWasm({ quiet = false } = {}) {
  const tc = detectRustToolchain(root);
  if (!tc.ok) throw new Error(tc.message);
  const triple = tc.target.toUpperCase().replace(/-/g, '_');
  const env = { ...tc.env, [`CARGO_TARGET_${triple}_RUSTFLAGS`]: WASM_RUSTFLAGS };
  // One cargo invocation per package: built together, Cargo would unify
  // dependency features across them (coreutils' Unicode regex tables would
  // land in the shell).
  const bins = workspaceBinaries(tc);
  for (const pkg of [...new Set(bins.map((b) => b.pkg))]) {
    const args = ['build', '--release', '--target', tc.target, '-p', pkg, '--bins'];
    if (quiet) args.push('-q');
    if (run(tc.cargo, args, env) !== 0) throw new Error(`cargo build -p ${pkg} failed`);
  }
  const relDir = path.join(
    tc.env.CARGO_TARGET_DIR ?? path.join(root, 'target'),
    tc.target,
    'release',
  );
  fs.mkdirSync(outDir, { recursive: true });
  const wasmOpt = spawnSync('wasm-opt', ['--version']).status === 0;
  const optArgs = wasmOpt ? WASM_OPT_ARGS.join(' ') : 'none';
  // Other wasm-opt arguments than last time: every program again.
  const again = builtWith(outDir) !== optArgs;
  const programs = [];
  for (const bin of bins) {
    const src = path.join(relDir, `${bin.name}.wasm`);
    if (!fs.existsSync(src)) continue;
    const dst = path.join(outDir, `${bin.name}.wasm`);
    if (again || newer(src, dst)) {
      const ok =
        wasmOpt &&
        spawnSync('wasm-opt', [...WASM_OPT_ARGS, src, '-o', dst], { stdio: 'inherit' }).status ===
          0;
      if (!ok) {
        if (wasmOpt) console.warn(`build-wasm: wasm-opt failed on ${bin.name}.wasm; kept as built`);
        fs.copyFileSync(src, dst);
      }
      if (!quiet)
        console.log(`wasm: ${bin.name}.wasm ${(fs.statSync(dst).size / 1024).toFixed(0)} KiB`);
    }
    const entry = { name: bin.name, file: `${bin.name}.wasm`, role: bin.role };
    if (bin.links.length) entry.links = bin.links;
    if (bin.multicall) {
      entry.applets = await listApplets(dst, bin.name);
      if (entry.applets.length === 0) throw new Error(`${bin.name} --list printed no applets`);
      for (const [alias, applet] of Object.entries(bin.aliases)) {
        if (!entry.applets.includes(applet))
          throw new Error(`${bin.name}: alias ${alias} names no applet ${applet}`);
      }
      if (Object.keys(bin.aliases).length) entry.aliases = bin.aliases;
    }
    programs.push(entry);
  }
  const manifest = { version: 1, target: tc.target, wasmOpt: optArgs, programs };
  const manifestPath = path.join(outDir, 'manifest.json');
  const text = `${JSON.stringify(manifest, null, 2)}\n`;
  if (!fs.existsSync(manifestPath) || fs.readFileSync(manifestPath, 'utf8') !== text) {
    fs.writeFileSync(manifestPath, text);
  }
  return manifest;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  buildWasm().catch((e) => {
    console.error(`build-wasm: ${e.message}`);
    process.exit(1);
  });
}
