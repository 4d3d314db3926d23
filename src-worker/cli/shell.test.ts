import { afterAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { WorkerPool } from '../proc/node/workerPool.js';
import { defaultProgramsDir } from '../sandbox/sandbox.js';
import { UsageError } from './options.js';
import { parseShellArgs, runShell } from './shell.js';

const haveShell = existsSync(join(defaultProgramsDir(), 'shell.wasm'));

afterAll(async () => {
  expect(await WorkerPool.drained()).toBe(true);
});

describe('sandglass shell arguments', () => {
  it('parses imports and rejects strays', () => {
    expect(
      parseShellArgs(['--import', '/a:/b', '--cwd', '/tmp', '--allow-net', 'example.com']),
    ).toEqual({
      imports: [{ host: '/a', path: '/b', readOnly: false }],
      exports: [],
      programsDir: undefined,
      cwd: '/tmp',
      allowNet: ['example.com'],
      denyNet: [],
    });
    expect(() => parseShellArgs(['x'])).toThrow(UsageError);
    expect(() => parseShellArgs(['--import'])).toThrow(/needs a value/);
  });
});

/** A stand-in for the host terminal: records raw-mode changes and has a size. */
function fakeTty() {
  const stdin = Object.assign(new PassThrough(), {
    isTTY: true,
    modes: [] as boolean[],
    setRawMode(raw: boolean) {
      stdin.modes.push(raw);
      return stdin;
    },
  });
  const stdout = Object.assign(new PassThrough(), { columns: 100, rows: 40 });
  const stderr = new PassThrough();
  let out = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  return { stdin, stdout, stderr, out: () => out };
}

describe.skipIf(!haveShell)('sandglass shell', () => {
  it('runs typed commands, follows resizes, exits with the shell and restores the tty', async () => {
    const t = fakeTty();
    let resize: (() => void) | undefined;
    const done = runShell(parseShellArgs([]), {
      stdin: t.stdin,
      stdout: t.stdout,
      stderr: t.stderr,
      onResize: (l) => {
        resize = l;
        return () => (resize = undefined);
      },
    });
    const waitFor = async (re: RegExp): Promise<void> => {
      for (let i = 0; i < 200 && !re.test(t.out()); i++)
        await new Promise((r) => setTimeout(r, 25));
      expect(t.out()).toMatch(re);
    };
    t.stdin.write('echo "sum $((40+2))"\r');
    await waitFor(/sum 42/);
    t.stdout.columns = 123;
    resize?.();
    // stty (coreutils) reads the kernel terminal's size; without it, only the subscription is checked.
    t.stdin.write(
      'if command -v stty >/dev/null; then echo "size=$(stty size)"; else echo size=none; fi\r',
    );
    await waitFor(/size=(40 123|none)\r?\n/);
    expect(resize).toBeDefined();
    t.stdin.write('exit 4\r');
    expect(await done).toBe(4);
    expect(t.stdin.modes).toEqual([true, false]);
    expect(resize).toBeUndefined();
  });

  it('exits when non-terminal input ends', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let out = '';
    stdout.on('data', (d: Buffer) => (out += d.toString()));
    stdin.end('echo piped-in\n');
    const code = await runShell(parseShellArgs([]), { stdin, stdout, stderr: new PassThrough() });
    expect(code).toBe(0);
    expect(out).toMatch(/piped-in\r?\n/);
  });
});
