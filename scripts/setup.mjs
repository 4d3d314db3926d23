#!/usr/bin/env node
// Brings a fresh machine to ready, quietly and quickly when nothing is
// missing (run by `prestart` and `pretest`). Node built-ins only: this runs
// before node_modules exists.
//
//   1. npm ci when node_modules is missing or older than package-lock.json
//   2. the Rust wasm toolchain (Debian apt as root, or rustup's target)
//   3. with --test: Debian chromium and the GNU tools the differential
//      suites compare against
//   4. an incremental build of every crate to resources/wasm/*.wasm
//   5. an incremental electron-vite build of out/ (engine, main, renderer)
//      and of the command line in out/cli (scripts/build-cli.mjs)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEBIAN_APT_PACKAGES, detectRustToolchain, missingLinkerPackage } from './toolchain.mjs';
import { fingerprint } from './fingerprint.mjs';
import { PYTHON_BUILD_INPUTS } from './build-python.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const forTests = process.argv.includes('--test');
// --verify: probe every tool by function even when nothing looks changed (CI does this).
const verify = process.argv.includes('--verify');
const stampPath = path.join(root, '.setup-stamp.json');
const t0 = Date.now();

// Crates the Rust workspace takes from Debian's librust-*-dev packages.
const DEBIAN_CRATE_PACKAGES = [
  'librust-regex-dev',
  'librust-fancy-regex-dev',
  'librust-serde-json-dev',
  'librust-flate2-dev',
  'librust-tar-dev',
  'librust-sha2-dev',
  'librust-md-5-dev',
  'librust-sha1-dev',
  'librust-similar-dev',
  'librust-chrono-dev',
  'librust-glob-dev',
  'librust-unicode-width-dev',
  'librust-memchr-dev',
  'librust-zip-dev',
  'librust-base64-dev',
  'librust-crc32fast-dev',
  'librust-libc-dev',
  // Dev-dependency: the shell parser's property tests.
  'librust-quickcheck-dev',
];
// Host tools the differential suites use as oracles, and the e2e browser:
// Debian package -> the command line that proves it works.
const TEST_TOOLS = {
  chromium: [
    'chromium',
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
    '--dump-dom',
    'about:blank',
  ],
  gawk: ['gawk', '--version'],
  jq: ['jq', '--version'],
  bc: ['bc', '--version'],
  zip: ['zip', '-v'],
  unzip: ['unzip', '-v'],
  tree: ['tree', '--version'],
  file: ['file', '--version'],
  xxd: ['xxd', '-v'],
  patch: ['patch', '--version'],
  bsdextrautils: ['hexdump', '--version'],
};

function log(msg) {
  console.log(`setup: ${msg}`);
}

function die(msg) {
  console.error(`setup: ${msg}`);
  process.exit(1);
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
  if (r.error) die(`${cmd}: ${r.error.message}`);
  if (r.status !== 0) die(`\`${cmd} ${args.join(' ')}\` failed (status ${r.status})`);
}

function commandExists(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

function readStamp() {
  try {
    return JSON.parse(fs.readFileSync(stampPath, 'utf8'));
  } catch {
    return {};
  }
}

let aptUpdated = false;
function aptInstall(packages, why) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const cmd = `apt-get install -y --no-install-recommends ${packages.join(' ')}`;
  if (!commandExists('apt-get'))
    die(`${why} missing: install ${packages.join(' ')} with your package manager`);
  if (!isRoot) die(`${why} missing; as root run: apt-get update && ${cmd}`);
  log(`installing ${why} (apt: ${packages.join(' ')})`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated) {
    run('apt-get', ['update', '-qq'], { env });
    aptUpdated = true;
  }
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], { env });
}

/** Runs a command line that proves a tool works; null when it does, else why not. */
function works(argv, timeout = 60_000) {
  const r = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8', timeout });
  if (r.error) return r.error.code === 'ENOENT' ? 'not installed' : r.error.message;
  if (r.status !== 0) {
    const line = `${r.stderr ?? ''}${r.stdout ?? ''}`.trim().split('\n')[0] ?? '';
    return `exit status ${r.status}${line ? `: ${line.slice(0, 160)}` : ''}`;
  }
  return null;
}

function missingDebPackages(packages) {
  const r = spawnSync('dpkg-query', ['-W', '-f', '${Package} ${Status}\n', ...packages], {
    encoding: 'utf8',
  });
  const ok = new Set(
    (r.stdout ?? '')
      .split('\n')
      .filter((l) => l.endsWith('install ok installed'))
      .map((l) => l.split(' ')[0]),
  );
  return packages.filter((p) => !ok.has(p));
}

// 1. npm dependencies
function ensureNodeModules() {
  const lock = path.join(root, 'package-lock.json');
  const installed = path.join(root, 'node_modules', '.package-lock.json');
  const stale =
    !fs.existsSync(installed) ||
    (fs.existsSync(lock) && fs.statSync(lock).mtimeMs > fs.statSync(installed).mtimeMs);
  if (stale) {
    // A linked node_modules is an install shared with other checkouts (git
    // worktrees): npm ci would empty the shared tree through the link.
    const modules = path.join(root, 'node_modules');
    if (fs.existsSync(modules) && fs.lstatSync(modules).isSymbolicLink()) {
      log(`node_modules links to ${fs.realpathSync(modules)}; not reinstalling a shared install`);
      return;
    }
    log('installing npm dependencies (npm ci)');
    run('npm', ['ci', '--no-audit', '--no-fund']);
  }
}

// 2. Rust toolchain for wasm: the first candidate that compiles and links a
// tiny wasm program (scripts/toolchain.mjs); Debian's when none does.
function ensureRust() {
  const onDebian = commandExists('apt-get') && commandExists('dpkg-query');
  let tc = detectRustToolchain(root, { verify, tools: forTests });
  if (!tc.ok) {
    if (!onDebian)
      die(
        `${tc.message}. Install Rust with rustup (https://rustup.rs), then: rustup target add wasm32-wasip1` +
          (forTests ? ' && rustup component add clippy rustfmt' : ''),
      );
    log(tc.message);
    const missing = missingDebPackages([
      ...DEBIAN_APT_PACKAGES,
      'binaryen',
      ...DEBIAN_CRATE_PACKAGES,
    ]);
    if (missing.length) aptInstall(missing, "Debian's Rust wasm toolchain");
    // rustc ships /usr/bin/rust-lld as a link to a linker it only recommends.
    const lld = missingLinkerPackage();
    if (lld) aptInstall([lld], `the wasm linker (rust-lld -> ${lld})`);
    tc = detectRustToolchain(root, { verify: true, tools: forTests });
    if (!tc.ok) die(tc.message);
  } else if (tc.kind === 'debian') {
    const missing = missingDebPackages(DEBIAN_CRATE_PACKAGES);
    if (missing.length) aptInstall(missing, 'crates for the Rust workspace');
  }
  if (!tc.cached) log(`Rust: ${tc.label}, ${tc.version}: ${tc.why}`);
  // wasm-opt shrinks the programs; optional off Debian, installed on it.
  if ((verify || !tc.cached) && works(['wasm-opt', '--version'])) {
    if (onDebian) aptInstall(['binaryen'], 'wasm-opt (binaryen)');
    else log('wasm-opt not found: programs stay unoptimised (install binaryen for smaller ones)');
    const why = works(['wasm-opt', '--version']);
    if (why && onDebian) die(`wasm-opt does not run after installing binaryen: ${why}`);
  }
  return tc;
}

// 3. test-only tools, each checked by running it (chromium renders a page headless)
function ensureTestTools(stamp) {
  const check = () =>
    Object.entries(TEST_TOOLS)
      .map(([pkg, argv]) => [
        pkg,
        argv[0],
        verify || !stamp.testTools ? works(argv) : which(argv[0]),
      ])
      .filter(([, , why]) => why);
  let broken = check();
  if (broken.length) {
    const names = broken.map(([, cmd, why]) => `${cmd} (${why})`).join(', ');
    aptInstall(
      broken.map(([pkg]) => pkg),
      `test tools: ${names}`,
    );
    broken = Object.entries(TEST_TOOLS)
      .map(([pkg, argv]) => [pkg, argv[0], works(argv)])
      .filter(([, , why]) => why);
    if (broken.length)
      die(`still not working: ${broken.map(([, cmd, why]) => `${cmd}: ${why}`).join('; ')}`);
  }
  stamp.testTools = true;
}

/** null when `cmd` is on PATH, else 'not installed' (the quick check between verifications). */
function which(cmd) {
  return commandExists(cmd) ? null : 'not installed';
}

async function main() {
  const major = Number(process.versions.node.split('.')[0]);
  const minor = Number(process.versions.node.split('.')[1]);
  if (major < 20 || (major === 20 && minor < 19))
    die(`Node >= 20.19 required, found ${process.versions.node}`);
  ensureNodeModules();
  ensureRust();
  const stamp = readStamp();
  if (forTests) {
    ensureTestTools(stamp);
    fs.writeFileSync(stampPath, JSON.stringify(stamp));
  }

  const crates = fingerprint(root, [
    'crates',
    'Cargo.toml',
    'Cargo.lock',
    'scripts/build-wasm.mjs',
  ]);
  const manifest = path.join(root, 'resources', 'wasm', 'manifest.json');
  if (stamp.crates !== crates || !fs.existsSync(manifest)) {
    log('building wasm programs');
    const { buildWasm } = await import('./build-wasm.mjs');
    await buildWasm({ quiet: true });
    stamp.crates = crates;
    fs.writeFileSync(stampPath, JSON.stringify(stamp));
  }
  // Python runtime (resources/python): rebuilt when Pyodide or its build or realm code changes
  // (the realm bundle also takes the channel client and syscall numbers: a snapshot made from
  // an older bundle has its driver compiled under another key, so every boot compiled it again).
  const python = fingerprint(root, PYTHON_BUILD_INPUTS);
  const pythonDir = path.join(root, 'resources', 'python');
  if (stamp.python !== python || !fs.existsSync(path.join(pythonDir, 'manifest.json'))) {
    log('building the Python runtime');
    const { buildPython } = await import('./build-python.mjs');
    await buildPython({ quiet: true, outDir: pythonDir });
    stamp.python = python;
    fs.writeFileSync(stampPath, JSON.stringify(stamp));
  }
  const sources = fingerprint(root, [
    'src-main',
    'src-renderer',
    'src-worker',
    'electron.vite.config.ts',
    'package-lock.json',
  ]);
  if (stamp.app !== sources || !fs.existsSync(path.join(root, 'out', 'main'))) {
    log('building the app (electron-vite build)');
    run(path.join(root, 'node_modules', '.bin', 'electron-vite'), ['build', '--logLevel', 'warn']);
    stamp.app = sources;
    fs.writeFileSync(stampPath, JSON.stringify(stamp));
  }
  // The command line's own build (out/cli, stamped inside it); bin/sandglass.mjs
  // falls back to the sources while it is stale.
  const cli = await import('./build-cli.mjs');
  if (cli.builtCliFingerprint(root) !== cli.cliSourcesFingerprint(root)) {
    log('building the command line (out/cli)');
    await cli.buildCli(root);
  }
  const ms = Date.now() - t0;
  if (ms > 2000) log(`ready in ${(ms / 1000).toFixed(1)} s`);
}

main().catch((e) => die(e.stack ?? String(e)));
