/**
 * Hostile input to the shell: deep nesting, huge command lines, unterminated
 * constructs, NUL bytes and invalid UTF-8, runaway loops, endless producers.
 * Each must end with a clear error or the right result, never a crash, and
 * leave the sandbox usable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { parseRunArgs, runScript } from '../cli/run.js';
import { WorkerPool } from '../proc/node/workerPool.js';
import { defaultProgramsDir, Sandbox } from '../sandbox/sandbox.js';
import { bytesToPath, pathToBytes } from '../base/bytes.js';
import { compareResults, describeDifference, type CaseResult } from './compare.js';
import { runInSandbox, runOnHost } from './runners.js';

const shellBuilt = existsSync(join(defaultProgramsDir(), 'shell.wasm'));
if (!shellBuilt)
  console.warn('hostile shell tests skipped: resources/wasm/shell.wasm is not built');

let sb: Sandbox;
let hostDir: string;
let caseNo = 0;

afterAll(async () => {
  await sb?.destroy();
  if (hostDir) await rm(hostDir, { recursive: true, force: true });
  expect(await WorkerPool.drained()).toBe(true);
});

const dec = new TextDecoder();
const text = (r: CaseResult): { out: string; err: string } => ({
  out: dec.decode(r.stdout),
  err: dec.decode(r.stderr),
});

/** Run a script file in the sandbox (fresh directory each time). */
async function sandboxScript(script: string | Uint8Array): Promise<CaseResult & { dir: string }> {
  const dir = join(hostDir, `c${++caseNo}`);
  return { ...(await runInSandbox(sb, dir, script)), dir };
}

/** The same script under the host's bash and ours; returns both results. */
async function both(script: string | Uint8Array): Promise<{ bash: CaseResult; ours: CaseResult }> {
  const dir = join(hostDir, `c${++caseNo}`);
  const [bash, ours] = await Promise.all([runOnHost(dir, script), runInSandbox(sb, dir, script)]);
  return { bash, ours };
}

async function expectUsable(): Promise<void> {
  const r = await sandboxScript('echo still alive; exit 3\n');
  expect(text(r).out).toBe('still alive\n');
  expect(r.status).toBe(3);
}

function cliIo(input: string) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  stdin.end(input);
  return { streams: { stdin, stdout, stderr }, out: () => out, err: () => err };
}

describe.skipIf(!shellBuilt)('hostile input to the shell', () => {
  beforeAll(async () => {
    sb = await Sandbox.create();
    hostDir = await mkdtemp(join(tmpdir(), 'sg-hostile-'));
    await sb.mkdir(hostDir, { recursive: true });
  });

  describe('deep nesting', () => {
    it('stops runaway function recursion with a clear error', async () => {
      const r = await sandboxScript('f() { f; }\nf\necho "status $?"\n');
      expect(text(r).err).toMatch(/maximum function nesting level exceeded/);
      expect(text(r).err).not.toMatch(/wasm trap|RuntimeError/);
      expect(r.status).not.toBe(134);
      await expectUsable();
    });

    it('refuses command substitution nested thousands deep without crashing', async () => {
      const depth = 3000;
      const r = await sandboxScript(`echo ${'$(echo '.repeat(depth)}x${')'.repeat(depth)}\n`);
      expect(r.status).toBe(2);
      expect(text(r).err).toMatch(/nesting too deep|maximum .*nesting/);
      await expectUsable();
    });

    it('handles deep but reasonable nesting correctly', async () => {
      // Each level may be a process of its own; keep it well inside the time limit.
      const depth = 10;
      const r = await sandboxScript(`echo ${'$(echo '.repeat(depth)}deep${')'.repeat(depth)}\n`);
      expect(text(r).out).toBe('deep\n');
      expect(r.status).toBe(0);
    });

    it('refuses deeply nested subshells, groups and arithmetic with an error, not a crash', async () => {
      for (const script of [
        `${'( '.repeat(5000)}echo x${' )'.repeat(5000)}\n`,
        `${'{ '.repeat(5000)}echo x;${' };'.repeat(5000)}\n`,
      ]) {
        const r = await sandboxScript(script);
        // Either it works (prints x or 1) or it reports an error with status 1 or 2.
        if (r.status === 0) expect(text(r).out).toMatch(/^(x|1)\n$/);
        else {
          expect([1, 2]).toContain(r.status);
          expect(text(r).err.length).toBeGreaterThan(0);
        }
        expect(text(r).err).not.toMatch(/wasm trap|RuntimeError/);
      }
      await expectUsable();
    });
  });

  // bash evaluates these; we refuse past 1024 levels (bash's own expression
  // recursion limit) with its message instead of running out of stack.
  it('refuses arithmetic nested 5000 deep with a clear error and keeps running', async () => {
    const r = await sandboxScript(
      `echo $((${'('.repeat(5000)}1${')'.repeat(5000)}))\necho "after $?"\n` +
        `echo $((${'-'.repeat(5000)}1))\necho "after $?"\n` +
        `echo $((${'('.repeat(1000)}1+1${')'.repeat(1000)}))\n`,
    );
    expect(r.status).toBe(0);
    expect(text(r).err).not.toMatch(/wasm trap/);
    expect(text(r).err).toMatch(/expression recursion level exceeded/);
    expect(text(r).out).toBe('after 1\nafter 1\n2\n');
  });

  it('runs a 10 MB command line through sandglass run', { timeout: 60_000 }, async () => {
    const big = 'a'.repeat(10 * 1024 * 1024);
    const s = cliIo('');
    const code = await runScript(
      parseRunArgs(['-c', `x=${big}; echo "\${#x} \${x:0:3}"`]),
      s.streams,
    );
    expect(s.err()).toBe('');
    expect(code).toBe(0);
    expect(s.out()).toBe(`${big.length} aaa\n`);
    const a = cliIo('');
    expect(await runScript(parseRunArgs(['-c', 'echo ${#1}', 'name', big]), a.streams)).toBe(0);
    expect(a.out()).toBe(`${big.length}\n`);
  });

  describe('unterminated constructs give bash messages and statuses', () => {
    const cases: [string, string, number][] = [
      ['double quote', 'echo "abc\necho more\n', 2],
      ['single quote', "echo 'abc\n", 2],
      ['if', 'if true; then echo x\n', 2],
      ['for', 'for i in 1 2; do echo $i\n', 2],
      ['command substitution', 'echo $(echo hi\n', 2],
      ['case', 'case x in\n', 2],
      ['brace group', '{ echo a\n', 2],
      // bash warns and runs the command with what it read: status 0.
      ['heredoc', 'while read -r l; do echo "[$l]"; done <<EOF\nhello\nworld\n', 0],
    ];
    for (const [name, script, status] of cases) {
      it(name, async () => {
        const { bash, ours } = await both(script);
        expect(bash.status).toBe(status);
        const d = compareResults(bash, ours);
        expect(d ? describeDifference(d) : 'same').toBe('same');
      });
    }
  });

  describe('NUL bytes and invalid UTF-8', () => {
    it('writes NUL bytes to files unchanged', async () => {
      const r = await sandboxScript("printf 'a\\0b\\n' > nul.bin\n");
      expect(r.status).toBe(0);
      expect([...(await sb.readFile(`${r.dir}/nul.bin`))]).toEqual([0x61, 0, 0x62, 0x0a]);
    });

    // bash drops NULs in read (`2 ef`) unless NUL is the delimiter; -n does not count them.
    it('drops NUL bytes in read like bash', async () => {
      const { bash, ours } = await both(
        'printf \'e\\0f\\n\' | { read -r z; echo ${#z} "$z"; }\n' +
          "printf 'a\\0b\\0' | { read -r -d '' z; echo ${#z} \"$z\"; }\n" +
          'printf \'a\\0b\\n\' | { read -r -n 2 z; echo ${#z} "$z"; }\n' +
          'printf \'g\\0h\\n\' > f; read -r z < f; echo ${#z} "$z"\n',
      );
      const d = compareResults(bash, ours);
      expect(d ? describeDifference(d) : 'same').toBe('same');
    });

    // bash drops NULs from $(...) with one warning per substitution.
    it('drops NUL from command substitution like bash', async () => {
      const { bash, ours } = await both(
        'y=$(printf \'c\\0d\\0e\'); echo ${#y} "$y"\ny=$(echo x; printf \'\\0\'); echo "$y"\n',
      );
      const d = compareResults(bash, ours);
      expect(d ? describeDifference(d) : 'same').toBe('same');
    });

    // bash ends a $'...' string at an escaped NUL.
    it("ends $'...' at an escaped NUL like bash", async () => {
      const { bash, ours } = await both("x=$'a\\0b'; echo ${#x}\nx=$'c\\x00d'; echo ${#x} $x\n");
      expect(dec.decode(bash.stdout)).toBe('1\n1 c\n');
      expect(dec.decode(ours.stdout)).toBe('1\n1 c\n');
    });

    it('round-trips invalid UTF-8 in arguments to child processes', async () => {
      const r = await sandboxScript(
        "/bin/sh -c 'printf %s \"$1\" > arg.out; echo ${#1}' zero $'\\xc3\\x28\\x80z'\n",
      );
      expect(text(r).err).toBe('');
      expect([...(await sb.readFile(`${r.dir}/arg.out`))]).toEqual([0xc3, 0x28, 0x80, 0x7a]);
    });

    it('globs and reads file names holding invalid UTF-8', async () => {
      const dir = join(hostDir, `c${++caseNo}`);
      await sb.mkdir(dir, { recursive: true });
      const name = [0x62, 0x61, 0x64, 0xff, 0xfe, 0x6e];
      const bdir = bytesToPath(new TextEncoder().encode(dir));
      sb.vfs.writeFile(
        `${bdir}/${bytesToPath(new Uint8Array(name))}`,
        new Uint8Array([0x68, 0x69]),
      );
      const r = await runInSandbox(
        sb,
        dir,
        'for f in bad*; do printf %s "$f" > name.out; echo found; done\n',
      );
      expect(text(r).err).toBe('');
      expect(text(r).out).toBe('found\n');
      expect([...(await sb.readFile(`${dir}/name.out`))]).toEqual(name);
    });

    // Rust's std on WASI refuses non-UTF-8 paths; the shell opens and tests
    // paths through wasi-libc, which takes any bytes.
    it('creates, tests and reads files with invalid UTF-8 names', async () => {
      const r = await sandboxScript(
        "echo hi > $'bad\\xff\\xfename'\n[[ -e $'bad\\xff\\xfename' ]] && echo exists\n" +
          "[ -f $'bad\\xff\\xfename' -a -s $'bad\\xff\\xfename' ] && echo file\n" +
          "read -r w < $'bad\\xff\\xfename'; echo \"read $w\"\necho more >> $'bad\\xff\\xfename'\n" +
          'while read -r l; do echo "[$l]"; done < $\'bad\\xff\\xfename\'\n',
      );
      expect(text(r).err).toBe('');
      expect(text(r).out).toBe('exists\nfile\nread hi\n[hi]\n[more]\n');
      const names = sb.vfs
        .readdir(bytesToPath(new TextEncoder().encode(r.dir)))
        .map((e) => [...pathToBytes(e.name)]);
      expect(names).toContainEqual([0x62, 0x61, 0x64, 0xff, 0xfe, 0x6e, 0x61, 0x6d, 0x65]);
    });

    it('runs a script whose text holds invalid UTF-8 like bash', async () => {
      const script = new Uint8Array([
        ...new TextEncoder().encode("echo 'caf"),
        0xe9,
        ...new TextEncoder().encode("' $'\\xff' x\n"),
      ]);
      const { bash, ours } = await both(script);
      expect([...bash.stdout]).toEqual([...ours.stdout]);
      expect(ours.status).toBe(bash.status);
    });
  });

  describe('inherited descriptors', () => {
    it('sees fds the parent passed (sh -c with 3<f) and passes them on', async () => {
      const { bash, ours } = await both(
        "printf 'one\\ntwo\\n' > f\nbash -c 'read -u 3 a; echo \"a=$a\"; cat <&3' 3<f\n" +
          "bash -c 'bash -c \"cat <&4\"' 4<f\nbash -c 'echo hi >&5' 5>g; cat g\n" +
          'bash -c \'cat <&6\'; echo "status $?"\n',
      );
      const d = compareResults(bash, ours);
      expect(d ? describeDifference(d) : 'same').toBe('same');
      expect(dec.decode(ours.stdout)).toBe('a=one\ntwo\none\ntwo\nhi\nstatus 1\n');
    });
  });

  describe('limits', () => {
    it('stops a runaway loop at the time limit and the session stays usable', async () => {
      const t0 = performance.now();
      const r = await sb.run('while :; do :; done', { timeoutMs: 500 });
      expect(r.status).toBe(124);
      expect(r.stderr).toMatch(/time limit of 500 ms exceeded/);
      expect(performance.now() - t0).toBeLessThan(5000);
      const after = await sb.run('x=5; echo "ok $((x*2))"');
      expect(after).toMatchObject({ stdout: 'ok 10\n', status: 0 });
    });

    it('names the memory limit when it refuses one large allocation far below it', async () => {
      // awk doubles a string: the 128 MiB request fails while the process holds
      // about 130 MiB of a 256 MiB limit, and Rust aborts with a trap.
      const small = await Sandbox.create({ limits: { memoryBytes: 256 * 1024 * 1024 } });
      try {
        const r = await small.run(`awk 'BEGIN { s = "x"; while (1) s = s s }'`);
        expect(r.status).toBe(137);
        expect(r.stderr).toContain('sandglass: killed: memory limit of 256 MiB exceeded');
        expect(r.stderr).not.toMatch(/wasm trap/);
      } finally {
        await small.destroy();
      }
    });

    it('stops a runaway script process at its time limit', async () => {
      const p = await sb.spawn('/bin/sh', ['sh', '-c', 'i=0; while :; do i=$((i+1)); done'], {
        timeoutMs: 400,
      });
      expect((await p.wait()).status).toBe(124);
      await expectUsable();
    });

    for (const [what, cmd] of [
      ['fixture programs', 'fixture-yes | fixture-head -n 1'],
      ['coreutils', 'yes | head -n 1'],
    ] as const) {
      it(`ends yes | head -1 quickly (${what})`, async () => {
        const t0 = performance.now();
        const r = await sb.run(`${cmd}; echo "done \${PIPESTATUS[1]}"`, { timeoutMs: 10_000 });
        expect(r.stderr).toBe('');
        expect(r.stdout).toBe('y\ndone 0\n');
        expect(r.status).toBe(0);
        expect(performance.now() - t0).toBeLessThan(3000);
      });
    }
  });
});
