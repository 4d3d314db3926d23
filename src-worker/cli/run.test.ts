import { afterAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { WorkerPool } from '../proc/node/workerPool.js';
import { defaultProgramsDir } from '../sandbox/sandbox.js';
import { UsageError } from './options.js';
import { parseRunArgs, runScript } from './run.js';

const haveShell = existsSync(join(defaultProgramsDir(), 'shell.wasm'));

afterAll(async () => {
  expect(await WorkerPool.drained()).toBe(true);
});

describe('sandglass run arguments', () => {
  it('parses -c with $0 and arguments, and FILE with arguments', () => {
    expect(parseRunArgs(['--timeout', '9', '-c', 'echo $1', 'n', '-x'])).toEqual({
      timeoutMs: 9,
      imports: [],
      programsDir: undefined,
      allowNet: [],
      denyNet: [],
      command: 'echo $1',
      rest: ['n', '-x'],
      save: undefined,
    });
    expect(parseRunArgs(['--save', 't.sgtl', '-c', 'true']).save).toBe('t.sgtl');
    const f = parseRunArgs(['--import', '/h:/mnt:ro', 'x.sh', '-c']);
    expect(f.command).toBeUndefined();
    expect(f.rest).toEqual(['x.sh', '-c']);
    expect(f.imports).toEqual([{ host: '/h', path: '/mnt', readOnly: true }]);
  });

  it('rejects bad usage', () => {
    expect(() => parseRunArgs([])).toThrow(UsageError);
    expect(() => parseRunArgs(['-c'])).toThrow(/needs a value/);
    expect(() => parseRunArgs(['--timeout', '-1', '-c', 'x'])).toThrow(/not a number of ms/);
    expect(parseRunArgs(['--timeout', '0', '-c', 'x']).timeoutMs).toBe(0);
    expect(() => parseRunArgs(['--bogus', 'x'])).toThrow(/unknown option/);
  });
});

function io(input: string) {
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

describe.skipIf(!haveShell)('sandglass run', () => {
  it('returns the script exit status and streams stdout/stderr', async () => {
    const s = io('');
    const code = await runScript(parseRunArgs(['-c', 'echo out; echo err >&2; exit 7']), s.streams);
    expect(code).toBe(7);
    expect(s.out()).toBe('out\n');
    expect(s.err()).toBe('err\n');
  });

  it('passes stdin through', async () => {
    const s = io('first line\nsecond\n');
    const code = await runScript(
      parseRunArgs(['-c', 'while read -r l; do echo "<$l>"; done']),
      s.streams,
    );
    expect(code).toBe(0);
    expect(s.out()).toBe('<first line>\n<second>\n');
  });

  it('ends the script stdin at once when host stdin is /dev/null, never reading it', async () => {
    const s = io('never read\n');
    const streams = {
      ...s.streams,
      get stdin(): never {
        throw new Error('stdin read');
      },
      stdinIsNull: true,
    };
    const code = await runScript(parseRunArgs(['-c', 'read -r l; echo "$?[$l]"; cat']), streams);
    expect(code).toBe(0);
    expect(s.out()).toBe('1[]\n');
  });

  it('gives -c its $0 and positional arguments', async () => {
    const s = io('');
    await runScript(parseRunArgs(['-c', 'echo "$0|$1|$2|$#"', 'name', 'a b', 'c']), s.streams);
    expect(s.out()).toBe('name|a b|c|2\n');
  });

  it('runs a host script file with $0 its name and the arguments', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sg-run-'));
    try {
      const file = join(dir, 'script.sh');
      await writeFile(file, 'echo "$0" "$@"\ncase $1 in x) exit 3;; esac\n');
      const s = io('');
      expect(await runScript(parseRunArgs([file, 'x', 'y z']), s.streams)).toBe(3);
      expect(s.out()).toBe(`${file} x y z\n`);
      const missing = io('');
      expect(await runScript(parseRunArgs([join(dir, 'nope.sh')]), missing.streams)).toBe(127);
      expect(missing.err()).toBe(
        `sandglass run: ${join(dir, 'nope.sh')}: No such file or directory\n`,
      );
      const isDir = io('');
      expect(await runScript(parseRunArgs([dir]), isDir.streams)).toBe(126);
      expect(isDir.err()).toMatch(/Is a directory/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('stops a runaway script at the time limit with status 124', async () => {
    const s = io('');
    const code = await runScript(
      parseRunArgs(['--timeout', '300', '-c', 'while :; do :; done']),
      s.streams,
    );
    expect(code).toBe(124);
    expect(s.err()).toMatch(/time limit of 300 ms exceeded/);
  });
});
