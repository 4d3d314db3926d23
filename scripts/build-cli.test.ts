import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildCli,
  builtCliFingerprint,
  cliSourcesFingerprint,
  readCliStamp,
} from './build-cli.mjs';
import { fingerprint } from './fingerprint.mjs';

const repo = path.resolve(import.meta.dirname, '..');
let tmp: string;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sandglass-cli-build-'));
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('fingerprint', () => {
  it('changes when a file is edited, added or removed, not for skipped trees', () => {
    const root = path.join(tmp, 'fp');
    fs.mkdirSync(path.join(root, 'src/deep'), { recursive: true });
    fs.writeFileSync(path.join(root, 'src/a.ts'), 'a');
    fs.writeFileSync(path.join(root, 'src/deep/b.ts'), 'b');
    const first = fingerprint(root, ['src']);
    expect(fingerprint(root, ['src'])).toBe(first);
    fs.mkdirSync(path.join(root, 'src/node_modules'));
    fs.writeFileSync(path.join(root, 'src/node_modules/x.js'), 'ignored');
    expect(fingerprint(root, ['src'])).toBe(first);
    fs.writeFileSync(path.join(root, 'src/deep/b.ts'), 'bb');
    const edited = fingerprint(root, ['src']);
    expect(edited).not.toBe(first);
    fs.writeFileSync(path.join(root, 'src/c.ts'), '');
    const added = fingerprint(root, ['src']);
    expect(added).not.toBe(edited);
    fs.rmSync(path.join(root, 'src/c.ts'));
    expect(fingerprint(root, ['src'])).not.toBe(added);
    // Skipped files count for nothing.
    const skipTests = (name: string): boolean => name.endsWith('.test.ts');
    const withoutTests = fingerprint(root, ['src'], skipTests);
    fs.writeFileSync(path.join(root, 'src/deep/b.test.ts'), 'test');
    expect(fingerprint(root, ['src'], skipTests)).toBe(withoutTests);
    expect(fingerprint(root, ['src'])).not.toBe(edited);
  });
});

describe('requireCached', () => {
  /** Loads `file` in a new process (V8 keeps compiled scripts per process), runs it, saves. */
  function loadInChild(file: string, nodeOptions?: string): string {
    const codeCache = path.join(repo, 'bin/codeCache.mjs');
    const script = `const { requireCached } = await import(${JSON.stringify(codeCache)});
      const m = requireCached(${JSON.stringify(file)});
      process.stdout.write(String(m.exports.twice(21)));
      m.saveCache();`;
    // A script file, not `-e`: Node's own options would count as flags.
    const runner = path.join(tmp, 'load.mjs');
    fs.writeFileSync(runner, script);
    const r = spawnSync(process.execPath, [runner], {
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: nodeOptions ?? '' },
    });
    expect(r.stderr).toBe('');
    return r.stdout;
  }

  it('writes a missing or refused code cache after the run, and keeps a good one', () => {
    const dir = path.join(tmp, 'cache');
    fs.mkdirSync(dir);
    const file = path.join(dir, 'm.cjs');
    fs.writeFileSync(file, 'exports.twice = (x) => x * 2;\n');
    expect(loadInChild(file)).toBe('42');
    const written = fs.statSync(`${file}.cache`);
    expect(written.size).toBeGreaterThan(0);
    // Accepted: left as it is.
    expect(loadInChild(file)).toBe('42');
    expect(fs.statSync(`${file}.cache`).mtimeMs).toBe(written.mtimeMs);
    // A cache V8 refuses (here: garbage) costs a normal compile and is replaced.
    fs.writeFileSync(`${file}.cache`, 'not a code cache');
    expect(loadInChild(file)).toBe('42');
    expect(fs.readFileSync(`${file}.cache`).toString()).not.toBe('not a code cache');
    expect(fs.readdirSync(dir).sort()).toEqual(['m.cjs', 'm.cjs.cache']);
    // Other V8 flags (which refuse the shared cache) keep a cache of their own.
    const shared = fs.readFileSync(`${file}.cache`);
    expect(loadInChild(file, '--max-old-space-size=300')).toBe('42');
    expect(fs.readFileSync(`${file}.cache`)).toEqual(shared);
    expect(fs.readdirSync(dir).filter((f) => /^m\.cjs\.[0-9a-f]+\.cache$/.test(f))).toHaveLength(1);
  });
});

/** A throwaway checkout: copies of the sources, links to the installed parts. */
function makeCheckout(): string {
  const root = path.join(tmp, 'checkout');
  for (const dir of ['src-worker', 'sdk/typescript'])
    fs.cpSync(path.join(repo, dir), path.join(root, dir), { recursive: true });
  for (const f of [
    'scripts/build-cli.mjs',
    'scripts/fingerprint.mjs',
    'bin/sandglass.mjs',
    'bin/codeCache.mjs',
  ]) {
    fs.mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
    fs.copyFileSync(path.join(repo, f), path.join(root, f));
  }
  for (const l of ['node_modules', 'resources', 'package.json', 'tsconfig.json'])
    fs.symlinkSync(path.join(repo, l), path.join(root, l));
  return root;
}

function sandglass(root: string, ...args: string[]): { stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [path.join(root, 'bin/sandglass.mjs'), ...args], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(r.status, r.stderr).toBe(0);
  return { stdout: r.stdout, stderr: r.stderr };
}

describe('the compiled CLI', () => {
  it('runs from out/cli when fresh, from the sources with a note when missing or stale', async () => {
    const root = makeCheckout();
    const missing = sandglass(root, 'run', '-c', 'echo hi');
    expect(missing.stdout).toBe('hi\n');
    expect(missing.stderr).toMatch(/^sandglass: out\/cli is missing; running from sources/);

    await buildCli(root);
    expect(builtCliFingerprint(root)).toBe(cliSourcesFingerprint(root));
    expect(fs.existsSync(path.join(root, 'out/cli/main.js'))).toBe(true);
    expect(fs.existsSync(path.join(root, 'out/cli/workerEntry.cjs'))).toBe(true);
    expect(fs.existsSync(path.join(root, 'out/cli/sdk.js'))).toBe(true);
    // The build ran one command, which wrote the one-shot build's code cache.
    const oneShot = path.join(root, 'out/cli', readCliStamp(root)?.oneShot ?? 'none');
    expect(fs.statSync(`${oneShot}.cache`).size).toBeGreaterThan(100_000);
    // ... and its process worker wrote the code cache its loader (workerEntry.cjs) uses.
    const outCli = path.join(root, 'out/cli');
    const workerCaches = fs
      .readdirSync(outCli)
      .filter((f) => /^workerEntry-.*\.cjs\.\d+\.cache$/.test(f));
    expect(workerCaches).toHaveLength(1);
    expect(fs.statSync(path.join(outCli, workerCaches[0] as string)).size).toBeGreaterThan(10_000);
    const fresh = sandglass(root, 'run', '-c', 'echo hi | cat; echo $((6*7))');
    expect(fresh).toEqual({ stdout: 'hi\n42\n', stderr: '' });

    // ... and the prepared shell the bin compiles first thing (src-worker/cli/preparedShell.ts).
    const prepared = path.join(outCli, 'shell.prepared');
    const header = (): { source: string; mtimeMs: number } => {
      const file = fs.readFileSync(prepared);
      return JSON.parse(file.toString('latin1', 4, 4 + file.readUInt32LE(0)));
    };
    const shellWasm = path.join(root, 'resources/wasm/shell.wasm');
    expect(header()).toMatchObject({ source: shellWasm, mtimeMs: fs.statSync(shellWasm).mtimeMs });
    const good = fs.readFileSync(prepared);
    // A stale one (its source changed since) is not used, and is written again after the run.
    const staleHeader = Buffer.from(JSON.stringify({ ...header(), mtimeMs: 1 }));
    const length = Buffer.alloc(4);
    length.writeUInt32LE(staleHeader.length);
    fs.writeFileSync(prepared, Buffer.concat([length, staleHeader, Buffer.from('\0asm')]));
    expect(sandglass(root, 'run', '-c', 'echo stale; exit 0')).toEqual({
      stdout: 'stale\n',
      stderr: '',
    });
    expect(fs.readFileSync(prepared)).toEqual(good);
    // Bytes V8 refuses under a good header: the shell is compiled as usual, the file replaced.
    fs.writeFileSync(
      prepared,
      Buffer.concat([good.subarray(0, 4 + good.readUInt32LE(0)), Buffer.from('\0asm')]),
    );
    expect(sandglass(root, 'run', '-c', 'echo corrupt')).toEqual({
      stdout: 'corrupt\n',
      stderr: '',
    });
    expect(fs.readFileSync(prepared)).toEqual(good);
    expect(sandglass(root, 'exec', '--', 'echo', 'a', 'b').stdout).toBe('a b\n');
    // Everything else loads the ES modules (the usage loads every subcommand).
    expect(sandglass(root, '--help').stdout).toMatch(/^ {2}run {6}run a shell script/m);

    // Tests are not part of the build, nor a file no bundle imports: they leave it fresh.
    fs.appendFileSync(path.join(root, 'src-worker/cli/run.test.ts'), '\n// edited\n');
    fs.writeFileSync(path.join(root, 'src-worker/cli/unused.ts'), 'export const x = 1;\n');
    expect(sandglass(root, 'run', '-c', 'echo hi').stderr).toBe('');
    // Each file the bundles were made of is checked: the worker's entry as much as the CLI's.
    const wasmJob = path.join(root, 'src-worker/proc/node/wasmJob.ts');
    const was = fs.statSync(wasmJob);
    fs.utimesSync(wasmJob, was.atime, new Date(was.mtimeMs + 1000));
    expect(sandglass(root, 'run', '-c', 'echo hi').stderr).toMatch(/out\/cli is stale/);
    await buildCli(root);

    fs.appendFileSync(path.join(root, 'src-worker/cli/main.ts'), '\n// edited\n');
    const stale = sandglass(root, 'run', '-c', 'echo hi');
    expect(stale.stdout).toBe('hi\n');
    expect(stale.stderr).toMatch(/^sandglass: out\/cli is stale; running from sources/);
  }, 240_000);
});
