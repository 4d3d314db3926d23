#!/usr/bin/env node
// Differential runner for the coreutils: every case in
// crates/uu-<group>/tests/diff/<util>.cases runs with the host's GNU tool and
// with ours (native build or inside a sandbox) on identical files; stdout,
// stderr (program-name prefix normalised), exit status and the files left
// behind are compared.
//
// Identity: the sandbox runs its programs as an unprivileged account (uid and
// gid 1000). When this runner is root, the host side (and the native build)
// runs as uid/gid 1000 too, on a tree owned by that id, so both sides face
// the same permission checks and print their own real identity; the sandbox
// is given the host's name and accounts database (sandbox-runner.ts), so ids
// resolve to the same names. Nothing is rewritten in the outputs except the
// case directory ($TMP) and the program-name prefix of diagnostics.
//
// Starting tree: the shared fixtures plus the group's own, built once per
// group with fixed timestamps (directories included) and copied per case on
// the host (on tmpfs, in an order that lists sorted, like the VFS: see
// workRoot); the sandbox imports it once and restores a snapshot per case.
//
// Usage: node scripts/difftest.mjs [--group G] [--util U] [--impl native|sandbox]
//        [--verbose] [--json FILE] [--min-pass RATE] [--list-fixtures]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeFixtures } from './difftest/fixtures.mjs';
import { parseCaseLine } from './difftest/case-line.mjs';
import { digestHostTree } from './difftest/tree-digest.mjs';
import { detectRustToolchain } from './toolchain.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const GROUPS = ['files', 'text', 'pattern', 'data'];
// Host programs that differ in name from the utility under test.
const HOST_NAME = { awk: 'gawk' };
// Other names of our applets ([package.metadata.sandglass.aliases]): the
// native build runs them as the applet, as the sandbox's /usr/bin stub does.
const OUR_NAME = { gawk: 'awk', mawk: 'awk' };

function parseArgs(argv) {
  const opts = {
    groups: GROUPS,
    util: null,
    impl: 'native',
    verbose: false,
    json: null,
    minPass: 0,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--group') opts.groups = [next()];
    else if (a === '--util') opts.util = next();
    else if (a === '--impl') opts.impl = next();
    else if (a === '--verbose' || a === '-v') opts.verbose = true;
    else if (a === '--json') opts.json = next();
    else if (a === '--min-pass') opts.minPass = Number(next());
    else if (a === '--list-fixtures') opts.listFixtures = true;
    else throw new Error(`unknown option ${a}`);
  }
  return opts;
}

function loadCases(group, util) {
  const dir = path.join(root, 'crates', `uu-${group}`, 'tests', 'diff');
  if (!fs.existsSync(dir)) return [];
  const cases = [];
  for (const file of fs.readdirSync(dir).sort()) {
    if (!file.endsWith('.cases')) continue;
    const name = file.slice(0, -'.cases'.length);
    if (util && name !== util) continue;
    const lines = fs.readFileSync(path.join(dir, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      const t = line.trim();
      if (!t || t.startsWith('#')) return;
      try {
        const c = parseCaseLine(t);
        cases.push({ group, util: name, where: `${file}:${i + 1}`, line: t, ...c });
      } catch (e) {
        cases.push({
          group,
          util: name,
          where: `${file}:${i + 1}`,
          line: t,
          parseError: String(e.message),
        });
      }
    });
  }
  return cases;
}

function copyTree(src, dst) {
  fs.cpSync(src, dst, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
}

/** The unprivileged id both sides run as (the sandbox's own account). */
const RUN_ID = 1000;
const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
/** spawn options that drop root to RUN_ID (nothing when not root). */
const dropRoot = asRoot ? { uid: RUN_ID, gid: RUN_ID } : {};

/** Sets every directory's times to one fixed instant (children first). */
function fixDirTimes(dir) {
  const t = new Date(Date.UTC(2024, 1, 1, 12, 0, 0));
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) fixDirTimes(path.join(dir, e.name));
  }
  fs.utimesSync(dir, t, t);
}

/**
 * Directory order. POSIX leaves readdir order unspecified; the VFS lists
 * names sorted, ext4 in hash order, tmpfs in (reverse) creation order. So
 * the host trees live on tmpfs when there is one, and are created in the
 * order that makes their listing sorted: both sides then list alike, and
 * find/ls -U/tar compare traversal logic rather than filesystem hashing.
 */
function workRoot() {
  for (const d of ['/dev/shm', os.tmpdir()]) {
    try {
      return fs.mkdtempSync(path.join(d, 'sg-diff-'));
    } catch {
      // not writable: try the next
    }
  }
  throw new Error('no writable temporary directory');
}

/** 'forward' or 'reverse' when creation order decides listing order here, else null. */
function probeCreationOrder(dir) {
  const p = path.join(dir, 'probe');
  fs.mkdirSync(p);
  const names = ['m', 'c', 'x', 'a', 'q', 'f'];
  for (const n of names) fs.writeFileSync(path.join(p, n), '');
  // opendir gives the filesystem's own order (readdirSync sorts).
  const d = fs.opendirSync(p);
  let got = '';
  for (let e = d.readSync(); e; e = d.readSync()) got += e.name;
  d.closeSync();
  fs.rmSync(p, { recursive: true });
  if (got === names.join('')) return 'forward';
  if (got === [...names].reverse().join('')) return 'reverse';
  return null;
}

const byBytes = (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/**
 * Copies `src` to `dst` creating entries so the host lists them sorted
 * (see workRoot), keeping modes and times, owned by the run id when root.
 */
function orderedCopy(src, dst, order) {
  const st = fs.lstatSync(src);
  if (st.isSymbolicLink()) {
    fs.symlinkSync(fs.readlinkSync(src), dst);
    if (asRoot) fs.lchownSync(dst, RUN_ID, RUN_ID);
    fs.lutimesSync(dst, st.atime, st.mtime);
    return;
  }
  if (st.isDirectory()) {
    fs.mkdirSync(dst);
    const names = fs.readdirSync(src).sort(byBytes);
    if (order === 'reverse') names.reverse();
    for (const n of names) orderedCopy(path.join(src, n), path.join(dst, n), order);
  } else fs.copyFileSync(src, dst);
  if (asRoot) fs.chownSync(dst, RUN_ID, RUN_ID);
  fs.chmodSync(dst, st.mode & 0o7777);
  fs.utimesSync(dst, st.atime, st.mtime);
}

/** Builds a group's starting tree: shared fixtures plus the group's own. */
function makeTemplate(base, groupFixtures, dst, order) {
  const staging = `${dst}.staging`;
  fs.rmSync(staging, { recursive: true, force: true });
  copyTree(base, staging);
  if (fs.existsSync(groupFixtures)) copyTree(groupFixtures, staging);
  fixDirTimes(staging);
  fs.rmSync(dst, { recursive: true, force: true });
  orderedCopy(staging, dst, order);
  fs.rmSync(staging, { recursive: true, force: true });
}

/** A fresh copy of `tpl` at `dst`. */
function freshCopy(tpl, dst, order) {
  fs.rmSync(dst, { recursive: true, force: true });
  orderedCopy(tpl, dst, order);
}

function normalise(text, prog, tmp) {
  let s = text.split(tmp).join('$TMP');
  const names = new Set([prog, HOST_NAME[prog], 'coreutils', 'procutils'].filter(Boolean));
  for (const n of names) {
    s = s.replace(new RegExp(`^${n.replace(/[[\]]/g, '\\$&')}: `, 'gm'), 'PROG: ');
  }
  return s;
}

/** $'..' quoting of raw bytes, so arguments that are not UTF-8 reach the program intact. */
function ansiQuote(buf) {
  let s = "$'";
  for (const b of buf) {
    if (b >= 0x20 && b < 0x7f && b !== 0x27 && b !== 0x5c) s += String.fromCharCode(b);
    else s += `\\x${b.toString(16).padStart(2, '0')}`;
  }
  return `${s}'`;
}

/** Runs `file` with argv[0] = `name` and byte-exact arguments. */
function runBytes(file, name, c, cwd, env) {
  const input = c.stdin ? fs.readFileSync(path.join(cwd, c.stdin)) : '';
  const common = { cwd, env, input, timeout: 20_000, maxBuffer: 256 << 20, ...dropRoot };
  const r = c.hasBinary
    ? spawnSync(
        'bash',
        ['-c', `exec -a ${name} ${file} ${c.argvBytes.slice(1).map(ansiQuote).join(' ')}`],
        common,
      )
    : spawnSync(file, c.argv.slice(1), { ...common, argv0: name });
  return {
    stdout: r.stdout ?? Buffer.alloc(0),
    stderr: r.stderr ?? Buffer.alloc(0),
    status: r.status ?? 128 + 9,
  };
}

function hostRunner() {
  return (c, cwd, env) => {
    const prog = HOST_NAME[c.argv[0]] ?? c.argv[0];
    return runBytes(prog, prog, c, cwd, env);
  };
}

function nativeRunner() {
  const target = process.env.CARGO_TARGET_DIR || path.join(root, 'target', 'difftest');
  // The toolchain setup chose (scripts/toolchain.mjs), for the host target.
  const tc = detectRustToolchain(root);
  if (!tc.ok) throw new Error(`${tc.message}; run \`npm run setup\` first`);
  const env = { ...tc.env, CARGO_TARGET_DIR: target };
  const b = spawnSync(tc.cargo, ['build', '-q', '-p', 'coreutils'], {
    cwd: root,
    env,
    stdio: 'inherit',
  });
  if (b.status !== 0) throw new Error('native build of coreutils failed');
  const bins = ['coreutils', 'procutils']
    .map((n) => path.join(target, 'debug', n))
    .filter((p) => fs.existsSync(p));
  const owner = new Map();
  for (const bin of bins) {
    const list = spawnSync(bin, ['--list'], { encoding: 'utf8' }).stdout ?? '';
    for (const u of list.split('\n').filter(Boolean)) if (!owner.has(u)) owner.set(u, bin);
  }
  return (c, cwd, env2) => {
    const name = OUR_NAME[c.argv[0]] ?? c.argv[0];
    const bin = owner.get(name);
    if (!bin)
      return {
        stdout: Buffer.alloc(0),
        stderr: Buffer.from(`(not implemented: ${c.argv[0]})\n`),
        status: -1,
      };
    // argv[0] is the utility name, as if invoked through its /usr/bin link.
    return runBytes(bin, name, c, cwd, env2);
  };
}

async function sandboxRunner() {
  // The sandbox is TypeScript source: load it through tsx so plain `node` works.
  const { tsImport } = await import('tsx/esm/api');
  const mod = await tsImport('./difftest/sandbox-runner.ts', import.meta.url);
  return mod.createSandboxRunner();
}

/** Whether every directory on the way to `dir` lets anyone search it. */
function worldSearchable(dir) {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    try {
      if ((fs.statSync(d).mode & 0o001) === 0) return false;
    } catch {
      return false;
    }
    if (d === '/') return true;
  }
}

// The host side's PATH: when root drops to RUN_ID, entries it cannot search
// (root's own ~/.cargo/bin, ...) would turn "command not found" (127) into
// "Permission denied" (126), so they go.
const casePath = (process.env.PATH ?? '/usr/bin:/bin')
  .split(':')
  .filter((d) => d && (!asRoot || worldSearchable(d)))
  .join(':');

function caseEnv(tmp) {
  return {
    PATH: casePath,
    HOME: tmp,
    LC_ALL: 'C',
    TZ: 'UTC',
    COLUMNS: '80',
    TERM: 'dumb',
  };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const work = workRoot();
  const order = probeCreationOrder(work);
  if (!order)
    console.warn('difftest: directory order here is not creation order; find/ls -U may differ');
  const base = path.join(work, 'base');
  const fixtures = makeFixtures(base);
  if (opts.listFixtures) {
    for (const [name, desc] of fixtures) console.log(`${name.padEnd(28)} ${desc}`);
    fs.rmSync(work, { recursive: true, force: true });
    return;
  }
  const host = hostRunner();
  const sandbox = opts.impl === 'sandbox' ? await sandboxRunner() : null;
  const ours = sandbox ? null : nativeRunner();
  fs.chmodSync(work, 0o755); // mkdtemp's 0700 would lock out the dropped id
  const results = [];
  for (const group of opts.groups) {
    const cases = loadCases(group, opts.util);
    if (cases.length === 0) continue;
    const tpl = path.join(work, `tpl-${group}`);
    makeTemplate(base, path.join(root, 'crates', `uu-${group}`, 'tests', 'fixtures'), tpl, order);
    const hostDir = path.join(work, 'host');
    const oursDir = path.join(work, 'ours');
    if (sandbox) await sandbox.prepare(tpl, oursDir);
    for (const c of cases) {
      if (c.parseError) {
        results.push({ ...c, pass: false, why: `bad case line: ${c.parseError}` });
        continue;
      }
      // The sandbox API spawns with string argv: bytes that are not UTF-8
      // cannot reach the program there, so such cases run natively only.
      if (sandbox && c.hasBinary) continue;
      freshCopy(tpl, hostDir, order);
      const h = host(c, hostDir, { ...caseEnv(hostDir), ...c.env });
      h.tree = await digestHostTree(hostDir);
      let o;
      if (sandbox) o = await sandbox.run(c, oursDir, { ...caseEnv(oursDir), ...c.env });
      else {
        freshCopy(tpl, oursDir, order);
        o = ours(c, oursDir, { ...caseEnv(oursDir), ...c.env });
        o.tree = await digestHostTree(oursDir);
      }
      const prog = c.argv[0];
      const diffs = [];
      const hs = normalise(h.stdout.toString('latin1'), prog, hostDir);
      const os_ = normalise(o.stdout.toString('latin1'), prog, oursDir);
      if (hs !== os_) diffs.push(['stdout', hs, os_]);
      const he = normalise(h.stderr.toString('latin1'), prog, hostDir);
      const oe = normalise(o.stderr.toString('latin1'), prog, oursDir);
      if (he !== oe) diffs.push(['stderr', he, oe]);
      if (h.status !== o.status) diffs.push(['status', String(h.status), String(o.status)]);
      if (h.tree !== o.tree) diffs.push(['files', ...treeDelta(h.tree, o.tree)]);
      results.push({
        group: c.group,
        util: c.util,
        where: c.where,
        line: c.line,
        pass: diffs.length === 0,
        diffs,
      });
    }
  }
  await sandbox?.close();
  fs.rmSync(work, { recursive: true, force: true });
  report(results, opts);
}

/** The lines only one side's tree digest has (the full digests are long). */
function treeDelta(h, o) {
  const hs = new Set(h.split('\n'));
  const os_ = new Set(o.split('\n'));
  return [
    h
      .split('\n')
      .filter((l) => !os_.has(l))
      .join('\n'),
    o
      .split('\n')
      .filter((l) => !hs.has(l))
      .join('\n'),
  ];
}

function clip(s) {
  return s.length > 600 ? `${s.slice(0, 600)}…(${s.length} chars)` : s;
}

function report(results, opts) {
  const byUtil = new Map();
  for (const r of results) {
    const k = `${r.group}/${r.util}`;
    const e = byUtil.get(k) ?? { pass: 0, total: 0 };
    e.total++;
    if (r.pass) e.pass++;
    byUtil.set(k, e);
  }
  for (const [k, e] of [...byUtil].sort()) {
    console.log(
      `${k.padEnd(22)} ${String(e.pass).padStart(4)}/${String(e.total).padEnd(4)} ${((100 * e.pass) / e.total).toFixed(1)}%`,
    );
  }
  const failed = results.filter((r) => !r.pass);
  if (opts.verbose) {
    for (const f of failed) {
      console.log(`\nDIFF ${f.where}: ${f.line}`);
      if (f.why) console.log(`  ${f.why}`);
      for (const [what, h, o] of f.diffs ?? []) {
        console.log(
          `  ${what}:\n    gnu : ${JSON.stringify(clip(h))}\n    ours: ${JSON.stringify(clip(o))}`,
        );
      }
    }
  }
  const pass = results.length - failed.length;
  const rate = results.length ? pass / results.length : 1;
  console.log(`\ndifftest: ${pass}/${results.length} cases pass (${(rate * 100).toFixed(1)}%)`);
  if (opts.json)
    fs.writeFileSync(opts.json, JSON.stringify({ results, pass, total: results.length }, null, 1));
  if (rate < opts.minPass) process.exitCode = 1;
}

main().then(
  // Sandbox workers may linger after close; the report is already out.
  () => process.exit(),
  (e) => {
    console.error(`difftest: ${e.message}`);
    process.exit(2);
  },
);
