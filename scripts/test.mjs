#!/usr/bin/env node
// `npm test`: every suite in order, all run even when one fails, then one
// totals line `N passed, N failed[, N skipped]`; exit status 1 if anything
// failed. Checks without test counts (typecheck, lint, fmt, clippy) count
// as one test each.
//
// The summary names every failed test (with the first line of its message),
// so the tail of a CI log says what failed.
//
//   node scripts/test.mjs [--only name,name]   (names: see SUITES)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { detectRustToolchain } from './toolchain.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const tc = detectRustToolchain(root, { tools: true });
const cargoEnv = { ...tc.env, CARGO_TARGET_DIR: path.join(root, 'target', 'host') };
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sandglass-test-'));

function exec(cmd, args, env = process.env) {
  const r = spawnSync(cmd, args, { cwd: root, env, encoding: 'utf8', maxBuffer: 1 << 30 });
  process.stdout.write(r.stdout ?? '');
  process.stderr.write(r.stderr ?? '');
  if (r.error) console.error(String(r.error));
  return { status: r.status ?? 1, out: `${r.stdout ?? ''}\n${r.stderr ?? ''}` };
}

/** A check with no test count of its own: one test, passed or failed. */
function check(cmd, args, env) {
  const r = exec(cmd, args, env);
  return { passed: r.status === 0 ? 1 : 0, failed: r.status === 0 ? 0 : 1, skipped: 0 };
}

function cargoTest() {
  const r = exec(tc.cargo, ['test', '--workspace', '--no-fail-fast'], cargoEnv);
  const t = { passed: 0, failed: 0, skipped: 0 };
  for (const m of r.out.matchAll(/test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored/g)) {
    t.passed += Number(m[1]);
    t.failed += Number(m[2]);
    t.skipped += Number(m[3]);
  }
  if (r.status !== 0 && t.failed === 0) t.failed = 1; // a build failure is a failure
  // libtest's list after "failures:": one indented test name per line.
  const list = /\nfailures:\n((?: {4}\S+\n)+)/g;
  t.names = [...r.out.matchAll(list)].flatMap((m) => m[1].trim().split(/\s+/));
  return t;
}

/** The first non-empty line of a failure message, without terminal colours. */
function firstLine(message = '') {
  // eslint-disable-next-line no-control-regex
  const plain = String(message).replace(/\x1b\[[0-9;]*m/g, '');
  return (
    plain
      .split('\n')
      .find((l) => l.trim())
      ?.trim()
      .slice(0, 200) ?? ''
  );
}

function vitest() {
  const out = path.join(tmp, 'vitest.json');
  const r = exec(bin('vitest'), [
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}`,
  ]);
  try {
    const j = JSON.parse(fs.readFileSync(out, 'utf8'));
    const t = {
      passed: j.numPassedTests,
      failed: j.numFailedTests,
      skipped: j.numPendingTests + j.numTodoTests,
      names: j.testResults.flatMap((f) => {
        const file = path.relative(root, f.name);
        const tests = f.assertionResults.filter((a) => a.status === 'failed');
        if (tests.length === 0 && f.status === 'failed')
          return [`${file}: ${firstLine(f.message)}`];
        return tests.map((a) => `${file} > ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`);
      }),
      // Passed on the retry (vitest.config.ts) after failing once: shown, not counted.
      flaky: j.testResults.flatMap((f) =>
        f.assertionResults
          .filter((a) => a.status === 'passed' && a.failureMessages?.length)
          .map(
            (a) =>
              `${path.relative(root, f.name)} > ${a.fullName}: ${firstLine(a.failureMessages[0])}`,
          ),
      ),
    };
    // Suites that fail to load report no tests; count them.
    if (r.status !== 0 && t.failed === 0) t.failed = Math.max(1, j.numFailedTestSuites);
    return t;
  } catch {
    return { passed: 0, failed: 1, skipped: 0 };
  }
}

function playwright() {
  const out = path.join(tmp, 'playwright.json');
  const env = { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: out };
  const r = exec(bin('playwright'), ['test', '--reporter=list,json'], env);
  try {
    const report = JSON.parse(fs.readFileSync(out, 'utf8'));
    const s = report.stats;
    const t = { passed: s.expected + s.flaky, failed: s.unexpected, skipped: s.skipped };
    t.names = playwrightFailures(report.suites ?? [], 'unexpected');
    t.flaky = playwrightFailures(report.suites ?? [], 'flaky');
    if (r.status !== 0 && t.failed === 0) t.failed = 1;
    return t;
  } catch {
    return { passed: 0, failed: 1, skipped: 0 };
  }
}

/** `file > title: message` of every spec with this outcome (`unexpected`, `flaky`) in a playwright report. */
function playwrightFailures(suites, outcome) {
  return suites.flatMap((suite) => [
    ...(suite.specs ?? []).flatMap((spec) =>
      (spec.tests ?? [])
        .filter((t) => t.status === outcome)
        .map((t) => {
          const error = t.results?.find((x) => x.error)?.error?.message;
          return `${spec.file} > ${spec.title}: ${firstLine(error)}`;
        }),
    ),
    ...playwrightFailures(suite.suites ?? [], outcome),
  ]);
}

function readmeCommands() {
  const r = exec(process.execPath, ['scripts/readme-commands.mjs']);
  const m = /readme commands: (\d+) passed, (\d+) failed/.exec(r.out);
  if (!m) return { passed: 0, failed: 1, skipped: 0 };
  const names = [...r.out.matchAll(/^FAIL (.*)$/gm)].map((f) => f[1]);
  return { passed: Number(m[1]), failed: Number(m[2]), skipped: 0, names };
}

const wasmCheckEnv = { ...cargoEnv, CARGO_TARGET_DIR: path.join(root, 'target', 'clippy-wasm') };
const SUITES = [
  ['typecheck', () => check('npm', ['run', '-s', 'typecheck'])],
  ['lint', () => check(bin('eslint'), ['.', '--max-warnings=0'])],
  ['prettier', () => check(bin('prettier'), ['--check', '--log-level=warn', '.'])],
  // clippy and rustfmt of the chosen compiler, by the commands the toolchain probe checked.
  ['cargo-fmt', () => check(tc.fmt[0], [...tc.fmt.slice(1), '--all', '--check'], cargoEnv)],
  [
    'clippy',
    () =>
      check(
        tc.clippy[0],
        [...tc.clippy.slice(1), '--workspace', '--all-targets', '--', '-D', 'warnings'],
        cargoEnv,
      ),
  ],
  [
    'clippy-wasm',
    () =>
      check(
        tc.clippy[0],
        [
          ...tc.clippy.slice(1),
          '--workspace',
          '--bins',
          '--target',
          tc.target,
          '--',
          '-D',
          'warnings',
        ],
        wasmCheckEnv,
      ),
  ],
  ['cargo-test', cargoTest],
  ['vitest', vitest],
  // Coreutils in the sandbox against the host's GNU tools (issue target: 98 %).
  [
    'coreutils-diff',
    () =>
      check(process.execPath, [
        'scripts/difftest.mjs',
        '--impl',
        'sandbox',
        '--verbose',
        '--min-pass',
        '0.98',
      ]),
  ],
  // Every command README.md shows, run as written (scripts/readme-commands.mjs).
  ['readme', readmeCommands],
  ['e2e', playwright],
];

function main() {
  if (!tc.ok) {
    console.error(tc.message);
    process.exit(1);
  }
  const only = process.argv.includes('--only')
    ? process.argv[process.argv.indexOf('--only') + 1].split(',')
    : null;
  const total = { passed: 0, failed: 0, skipped: 0 };
  const rows = [];
  for (const [name, fn] of SUITES) {
    if (only && !only.includes(name)) continue;
    console.log(`\n=== ${name}`);
    const t0 = Date.now();
    const t = fn();
    rows.push([name, t, Date.now() - t0]);
    total.passed += t.passed;
    total.failed += t.failed;
    total.skipped += t.skipped;
  }
  console.log('\n=== summary');
  for (const [name, t, ms] of rows) {
    const mark = t.failed ? 'FAIL' : 'ok  ';
    console.log(
      `${mark} ${name.padEnd(14)} ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped (${(ms / 1000).toFixed(1)} s)`,
    );
    for (const n of (t.failed ? t.names : undefined) ?? []) console.log(`       ✗ ${n}`);
    for (const n of t.flaky ?? []) console.log(`       ~ passed on retry: ${n}`);
  }
  fs.rmSync(tmp, { recursive: true, force: true });
  const skipped = total.skipped ? `, ${total.skipped} skipped` : '';
  console.log(`${total.passed} passed, ${total.failed} failed${skipped}`);
  process.exit(total.failed ? 1 : 0);
}

main();
