#!/usr/bin/env node
// The sandglass CLI. Runs the compiled CLI in out/cli/ (built by setup, or
// `node scripts/build-cli.mjs`): `run` and `exec` from their own CommonJS
// build through a V8 code cache (codeCache.mjs), every other command from
// the ES modules of main.js. In a dev checkout whose out/cli is missing or
// older than the sources, it says so on stderr and runs the TypeScript
// sources through tsx instead.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

const outDir = new URL('../out/cli/', import.meta.url);
const sources = new URL('../src-worker/', import.meta.url);
const argv = process.argv.slice(2);

/** out/cli/build.json, or undefined when there is no build. */
function readStamp() {
  try {
    return JSON.parse(readFileSync(new URL('build.json', outDir), 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Whether a source file out/cli was built from changed since (the build
 * records each one's size and mtime: a stat each, cheaper than walking
 * every source tree for scripts/build-cli.mjs's fingerprint).
 */
function sourcesChanged(stamp) {
  if (!Array.isArray(stamp.inputs)) return true;
  const root = fileURLToPath(new URL('../', import.meta.url));
  for (const [file, size, mtimeMs] of stamp.inputs) {
    const st = statSync(root + file, { throwIfNoEntry: false });
    if (st?.size !== size || st.mtimeMs !== mtimeMs) return true;
  }
  return false;
}

/**
 * Whether a warm engine (`sandglass engine`) may be listening: something at
 * its socket's path (engineSocketPath in src-worker/cli/warm/socket.ts,
 * which makes the real checks before using it).
 */
function warmEngineMayRun() {
  if (process.env.SANDGLASS_ENGINE === 'off') return false;
  const explicit = process.env.SANDGLASS_ENGINE_SOCKET;
  const base = process.env.XDG_RUNTIME_DIR || tmpdir();
  const socket = explicit
    ? resolve(explicit)
    : `${base}/sandglass-${process.getuid?.() ?? 'user'}/engine.sock`;
  return existsSync(socket);
}

/**
 * Boots the process worker of a cold `run` or `exec` now, so its bootstrap
 * (the longest step of a cold start) overlaps checking the build and
 * loading the CLI; the CLI's worker pool takes it over (PrestartedWorker
 * in src-worker/proc/node/workerPool.ts).
 */
function prestartWorker() {
  try {
    // Its stdout and stderr are not piped into ours (which would make
    // process.stdout and process.stderr now, on the way to loading the CLI):
    // whatever it prints is passed on as it comes, our streams made then.
    const worker = new Worker(new URL('workerEntry.cjs', outDir), {
      execArgv: [],
      stdout: true,
      stderr: true,
    });
    worker.stdout.on('data', (d) => process.stdout.write(d));
    worker.stderr.on('data', (d) => process.stderr.write(d));
    worker.unref();
    const state = { worker, booted: false, gone: false };
    worker.on('message', (m) => {
      if (m?.type === 'ready') state.booted = true;
    });
    const gone = () => {
      state.gone = true;
    };
    worker.on('error', gone);
    worker.on('exit', gone);
    return state;
  } catch {
    return undefined;
  }
}

/**
 * Starts compiling the shell a cold `run` will start, from the
 * rewritten bytes kept in out/cli (src-worker/cli/preparedShell.ts, which
 * describes the file): V8 compiles on its own threads while this thread
 * loads the CLI and creates the sandbox. Without a usable file, `main`
 * writes one after the command.
 */
function compilePreparedShell() {
  // With --programs the engine runs that directory's shell: nothing to prepare.
  if (argv.includes('--programs')) return undefined;
  const dir = fileURLToPath(outDir);
  try {
    const file = readFileSync(`${dir}shell.prepared`);
    const end = 4 + file.readUInt32LE(0);
    const header = JSON.parse(file.toString('latin1', 4, end));
    const st = statSync(header.source, { throwIfNoEntry: false });
    if (st?.size !== header.size || st.mtimeMs !== header.mtimeMs) return { dir };
    // Made for other programs than the engine's (defaultProgramsDir in
    // src-worker/sandbox/sandbox.ts): `main` writes it for these.
    const wasmDir = process.env.SANDGLASS_WASM_DIR;
    const programs = wasmDir
      ? resolve(wasmDir)
      : fileURLToPath(new URL('../resources/wasm', import.meta.url));
    if (resolve(dirname(header.source)) !== programs) return { dir };
    const module = WebAssembly.compile(file.subarray(end));
    module.catch(() => undefined); // then the engine compiles the shell as usual
    return { dir, header, module };
  } catch {
    return { dir };
  }
}

/** The entry to run: `main(argv, prestarted)`, and what to do once it has run. */
async function loadMain() {
  const oneShotCommand = argv[0] === 'run' || argv[0] === 'exec';
  const cold = oneShotCommand && !warmEngineMayRun();
  // Before anything else: the worker's boot is the longest chain of a cold start.
  const prestarted = cold ? prestartWorker() : undefined;
  const stamp = readStamp();
  const oneShot = oneShotCommand && typeof stamp?.oneShot === 'string';
  if (!oneShot) void prestarted?.worker.terminate();
  // `run` always starts the shell; `exec` runs the program it names.
  const shell = cold && oneShot && argv[0] === 'run' ? compilePreparedShell() : undefined;
  // An installed package has no sources to be stale against.
  if (existsSync(sources)) {
    if (stamp === undefined || sourcesChanged(stamp)) {
      void prestarted?.worker.terminate();
      process.stderr.write(
        `sandglass: out/cli is ${stamp === undefined ? 'missing' : 'stale'}; running from sources (slower; \`npm run setup\` builds it)\n`,
      );
      const { register } = await import('tsx/esm/api');
      register();
      return { main: (await import('../src-worker/cli/main.ts')).main };
    }
  }
  if (oneShot) {
    const { requireCached } = await import('./codeCache.mjs');
    const { exports, saveCache } = requireCached(fileURLToPath(new URL(stamp.oneShot, outDir)));
    return { main: (args) => exports.main(args, prestarted, shell), ran: saveCache };
  }
  return { main: (await import(new URL('main.js', outDir).href)).main };
}

const { main, ran } = await loadMain();
const code = await main(argv);
ran?.();
// Flush stdout/stderr before leaving; the sandbox has already been destroyed.
process.stdout.write('', () => process.exit(code));
