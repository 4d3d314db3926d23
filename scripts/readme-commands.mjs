#!/usr/bin/env node
// Runs every command of README.md's ```sh blocks as written, from the repo
// root, so the README cannot drift from what works. Each command has an
// expectation below: `exit` commands must end with status 0 in time;
// long-running ones (servers, whole suites, full builds) must print their
// marker in time and are then stopped. A README command without an
// expectation fails: add one when you add a command.
//
//   node scripts/readme-commands.mjs [--list]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** command as written -> { exit: ms } | { marker: RegExp, ms } */
export const EXPECTATIONS = {
  'npm start': { marker: /Sandglass web workbench: http:\/\/127\.0\.0\.1:\d+\//, ms: 120_000 },
  'npm test': { marker: /^=== typecheck$/m, ms: 120_000 },
  'npm run bench': { marker: /^bench: /m, ms: 120_000 },
  'node scripts/test.mjs --only vitest': { marker: /^=== vitest$/m, ms: 60_000 },
  'npx vitest run src-worker/vfs': { exit: 120_000 },
  'node scripts/cargo.mjs test -p shell': { marker: /Compiling|Running|Finished/, ms: 120_000 },
  'npx playwright test e2e/web/appShell.spec.ts': { exit: 180_000 },
  // Builds the host coreutils first (quietly): minutes on a cold target/.
  'node scripts/difftest.mjs --group text --util wc -v': { exit: 600_000 },
  'node scripts/difftest.mjs --impl sandbox --util wc': { exit: 180_000 },
  'SANDGLASS_WASM_DIR=/tmp/sandglass-wasm npm run build:wasm': { marker: /\S/, ms: 120_000 },
  'npm run build:wasm': { exit: 300_000 },
  'node scripts/build-python.mjs': { exit: 300_000 },
  'npx tsx bench/python/startup.ts': { marker: /^first python3 of the engine: /m, ms: 300_000 },
  // One round is enough to show it runs and the checksums agree with the host's.
  'npx tsx bench/python/cpu.ts': { marker: /^round 1: sandbox /m, ms: 300_000 },
  "bin/sandglass.mjs run -c 'echo hello; ls /'": { exit: 60_000 },
  'bin/sandglass.mjs exec -- wc -c /etc/passwd': { exit: 60_000 },
  // The first python3 of an engine loads Pyodide (seconds on a busy machine).
  'bin/sandglass.mjs run -c \'python3 -c "print(6 * 7)" | wc -c\'': { exit: 120_000 },
  "printf 'cd /tmp\\npwd\\nexit\\n' | bin/sandglass.mjs shell": { exit: 60_000 },
  'echo \'{"jsonrpc":"2.0","id":1,"method":"hello","params":{"apiVersion":2}}\' | bin/sandglass.mjs rpc':
    { exit: 60_000 },
  'bin/sandglass.mjs serve': {
    marker: /Sandglass web workbench: http:\/\/127\.0\.0\.1:\d+\//,
    ms: 60_000,
  },
  'bin/sandglass.mjs --help': { exit: 30_000 },
  // Fetches node@22, the conformance suite and the Inspector from npm the first time.
  'node scripts/mcp-conformance.mjs': { exit: 900_000 },
  'npx tsx bench/mcp/roundTrip.ts --calls 200': { marker: /^stdio run echo hi +p50/m, ms: 180_000 },
  "bin/sandglass.mjs timeline save /tmp/demo.sgtl -c 'cd /tmp' -c 'echo one > a.txt; x=1' -c 'echo two >> a.txt; echo x=$x'":
    { exit: 60_000 },
  'bin/sandglass.mjs timeline load /tmp/demo.sgtl': { exit: 30_000 },
  'bin/sandglass.mjs timeline show /tmp/demo.sgtl': { exit: 30_000 },
  'bin/sandglass.mjs timeline diff /tmp/demo.sgtl 1 3': { exit: 60_000 },
  "bin/sandglass.mjs run --save /tmp/run.sgtl -c 'echo hi > /tmp/hi.txt'": { exit: 60_000 },
  // Exports to a new directory each time (an export refuses a non-empty one).
  "d=$(mktemp -d) && bin/sandglass.mjs run --import src-worker/cli:/src:ro --export /tmp/out:$d/out -c 'mkdir /tmp/out && wc -l /src/*.ts > /tmp/out/lines' && tail -1 $d/out/lines":
    { exit: 60_000 },
};

/** The commands of README.md's ```sh blocks, trailing `  # comments` removed. */
export function readmeCommands(text) {
  const out = [];
  let inSh = false;
  for (const line of text.split('\n')) {
    if (/^```sh\s*$/.test(line)) inSh = true;
    else if (/^```/.test(line)) inSh = false;
    else if (inSh) {
      const cmd = line.replace(/\s+#\s.*$/, '').trim();
      if (cmd && !cmd.startsWith('#')) out.push(cmd);
    }
  }
  return out;
}

function runOne(cmd, exp) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn('bash', ['-c', cmd], {
      cwd: root,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, SANDGLASS_PORT: '0' },
    });
    let out = '';
    let done = false;
    const finish = (ok, why) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      resolve({ ok, why, ms: Date.now() - t0, tail: out.slice(-600) });
    };
    const onData = (d) => {
      out += d.toString();
      if (out.length > 1 << 20) out = out.slice(-(1 << 19));
      if (exp.marker && exp.marker.test(out)) finish(true, 'marker seen');
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const limit = exp.exit ?? exp.ms;
    const timer = setTimeout(
      () => finish(false, `no ${exp.marker ? 'marker' : 'exit'} within ${limit} ms`),
      limit,
    );
    child.on('exit', (code, signal) => {
      if (exp.exit !== undefined) finish(code === 0, `exit ${code ?? signal}`);
      else if (!done)
        finish(exp.marker.test(out) || code === 0, `exited (${code ?? signal}) before its marker`);
    });
  });
}

async function main() {
  const cmds = readmeCommands(fs.readFileSync(path.join(root, 'README.md'), 'utf8'));
  if (process.argv.includes('--list')) {
    for (const c of cmds) console.log(c);
    return;
  }
  let passed = 0;
  let failed = 0;
  for (const cmd of cmds) {
    const exp = EXPECTATIONS[cmd];
    if (!exp) {
      console.log(`FAIL ${cmd}\n     no expectation in scripts/readme-commands.mjs: add one`);
      failed++;
      continue;
    }
    const r = await runOne(cmd, exp);
    console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${cmd} (${r.why}, ${(r.ms / 1000).toFixed(1)} s)`);
    if (!r.ok) console.log(r.tail.replace(/^/gm, '     '));
    if (r.ok) passed++;
    else failed++;
  }
  console.log(`readme commands: ${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1]))
  await main();
