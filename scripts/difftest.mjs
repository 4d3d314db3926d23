#!/usr/bin/env node
// Differential runner for the coreutils: every case in
// crates/uu-<group>/tests/diff/<util>.cases runs with the host's GNU tool and
// with ours (native build or inside a sandbox) on identical files; stdout,
// stderr (program-name prefix normalised), exit status and the files left
// behind are compared.
//
// Usage: node scripts/difftest.mjs [--group G] [--util U] [--impl native|sandbox]
//        [--verbose] [--json FILE] [--min-pass RATE] [--list-fixtures]
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeFixtures } from './difftest/fixtures.mjs';
import { parseCaseLine } from './difftest/case-line.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const GROUPS = ['files', 'text', 'pattern', 'data'];
// Host programs that differ in name from the utility under test.
const HOST_NAME = { awk: 'gawk' };

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

/** A digest of a directory: names, types, permission bits, sizes, content hashes. */
export function digestTree(dir) {
  const out = [];
  const walk = (rel) => {
    const abs = path.join(dir, rel);
    for (const name of fs.readdirSync(abs).sort()) {
      const r = rel ? `${rel}/${name}` : name;
      const st = fs.lstatSync(path.join(dir, r));
      const perm = (st.mode & 0o7777).toString(8);
      if (st.isSymbolicLink()) out.push(`l ${r} -> ${fs.readlinkSync(path.join(dir, r))}`);
      else if (st.isDirectory()) {
        out.push(`d ${r} ${perm}`);
        walk(r);
      } else {
        const h = createHash('sha1')
          .update(fs.readFileSync(path.join(dir, r)))
          .digest('hex');
        out.push(`f ${r} ${perm} ${st.size} ${h.slice(0, 12)}`);
      }
    }
  };
  walk('');
  return out.join('\n');
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
  const common = { cwd, env, input, timeout: 20_000, maxBuffer: 256 << 20 };
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
  const env = {
    ...process.env,
    CARGO_TARGET_DIR: target,
    PATH: `/usr/bin:${process.env.PATH}`,
    RUSTC: fs.existsSync('/usr/bin/rustc') ? '/usr/bin/rustc' : 'rustc',
  };
  const cargo = fs.existsSync('/usr/bin/cargo') ? '/usr/bin/cargo' : 'cargo';
  const b = spawnSync(cargo, ['build', '-q', '-p', 'coreutils'], {
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
    const bin = owner.get(c.argv[0]);
    if (!bin)
      return {
        stdout: Buffer.alloc(0),
        stderr: Buffer.from(`(not implemented: ${c.argv[0]})\n`),
        status: -1,
      };
    // argv[0] is the utility name, as if invoked through its /usr/bin link.
    return runBytes(bin, c.argv[0], c, cwd, env2);
  };
}

async function sandboxRunner() {
  const mod = await import('./difftest/sandbox-runner.ts');
  return mod.createSandboxRunner();
}

function caseEnv(tmp) {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: tmp,
    LC_ALL: 'C',
    TZ: 'UTC',
    COLUMNS: '80',
    TERM: 'dumb',
  };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-diff-'));
  const base = path.join(work, 'base');
  const fixtures = makeFixtures(base);
  if (opts.listFixtures) {
    for (const [name, desc] of fixtures) console.log(`${name.padEnd(28)} ${desc}`);
    fs.rmSync(work, { recursive: true, force: true });
    return;
  }
  const host = hostRunner();
  const ours = opts.impl === 'sandbox' ? await sandboxRunner() : nativeRunner();
  const results = [];
  for (const group of opts.groups) {
    const cases = loadCases(group, opts.util);
    const groupFixtures = path.join(root, 'crates', `uu-${group}`, 'tests', 'fixtures');
    for (const c of cases) {
      if (c.parseError) {
        results.push({ ...c, pass: false, why: `bad case line: ${c.parseError}` });
        continue;
      }
      const dirs = ['host', 'ours'].map((side) => {
        const d = path.join(work, side);
        fs.rmSync(d, { recursive: true, force: true });
        copyTree(base, d);
        if (fs.existsSync(groupFixtures)) copyTree(groupFixtures, d);
        return d;
      });
      const h = host(c, dirs[0], caseEnv(dirs[0]));
      const o = await ours(c, dirs[1], caseEnv(dirs[1]));
      const prog = c.argv[0];
      const diffs = [];
      const hs = normalise(h.stdout.toString('latin1'), prog, dirs[0]);
      const os_ = normalise(o.stdout.toString('latin1'), prog, dirs[1]);
      if (hs !== os_) diffs.push(['stdout', hs, os_]);
      const he = normalise(h.stderr.toString('latin1'), prog, dirs[0]);
      const oe = normalise(o.stderr.toString('latin1'), prog, dirs[1]);
      if (he !== oe) diffs.push(['stderr', he, oe]);
      if (h.status !== o.status) diffs.push(['status', String(h.status), String(o.status)]);
      const ht = digestTree(dirs[0]);
      const ot = digestTree(dirs[1]);
      if (ht !== ot) diffs.push(['files', ht, ot]);
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
  fs.rmSync(work, { recursive: true, force: true });
  report(results, opts);
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
      console.log(`\nFAIL ${f.where}: ${f.line}`);
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

main().catch((e) => {
  console.error(`difftest: ${e.message}`);
  process.exit(2);
});
