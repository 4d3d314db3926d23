/**
 * The wasm shell in interactive mode on a sandbox terminal: prompt and OSC 133
 * marks, the line editor (cursor keys, Ctrl-A/E/K/U/W, backspace), history and
 * Ctrl-R, tab completion, PS2 continuation, Ctrl-C at the prompt and during a
 * foreground job, Ctrl-Z with jobs/fg, Ctrl-D; and API mode through Sandbox.run. Keystrokes go in through the tty like a user's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { WorkerPool } from '../proc/node/workerPool.js';
import { defaultProgramsDir, Sandbox } from '../sandbox/sandbox.js';
import type { Terminal } from '../sandbox/terminal.js';

/** SANDGLASS_SHELLTEST_PROGRAMS lets a developer try a freshly built shell.wasm. */
const programsDir = process.env['SANDGLASS_SHELLTEST_PROGRAMS'] ?? defaultProgramsDir();
const shellBuilt = existsSync(join(programsDir, 'shell.wasm'));
if (!shellBuilt) console.warn('interactive shell tests skipped: shell.wasm is not built');

const dec = new TextDecoder();
const ESC = '\x1b';
const BEL = '\x07';
const PROMPT_END = `${ESC}]133;B${BEL}`;
const LEFT = `${ESC}[D`;
const RIGHT = `${ESC}[C`;
const UP = `${ESC}[A`;
const DOWN = `${ESC}[B`;
const HOME = `${ESC}[H`;
const END = `${ESC}[F`;

/** A terminal with the output seen so far and helpers to wait on it. */
class Session {
  out = '';
  status: number | undefined;
  private seen = 0;

  constructor(readonly t: Terminal) {
    t.onData((d) => (this.out += dec.decode(d)));
    t.onExit((s) => (this.status = s));
  }

  async until(cond: () => boolean, what: string, ms = 20_000): Promise<void> {
    const end = Date.now() + ms;
    while (!cond()) {
      if (Date.now() > end)
        throw new Error(`timed out waiting for ${what}; output: ${JSON.stringify(this.out)}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  /** Output since the last call to `fresh()`. */
  get recent(): string {
    return this.out.slice(this.seen);
  }

  fresh(): void {
    this.seen = this.out.length;
  }

  /** Wait until a prompt has been drawn after the last `fresh()`. */
  async prompt(): Promise<void> {
    await this.until(() => this.recent.includes(PROMPT_END), 'a prompt');
  }

  /**
   * Type keys that end a command line; resolves with what the command printed
   * (between the C and D marks, CR LF made LF) and its exit status from D.
   */
  async run(keys: string): Promise<{ output: string; status: number }> {
    this.fresh();
    this.t.write(keys);
    const re = new RegExp(`${ESC}\\]133;C${BEL}([\\s\\S]*?)${ESC}\\]133;D;(\\d+)${BEL}`);
    await this.until(
      () => re.test(this.recent),
      `a command to finish after ${JSON.stringify(keys)}`,
    );
    const m = re.exec(this.recent);
    if (!m) throw new Error('unreachable');
    const rest = this.recent.slice((m.index ?? 0) + m[0].length);
    // the next prompt follows at once
    if (!rest.includes(PROMPT_END)) await this.prompt();
    return { output: (m[1] ?? '').replace(/\r\n/g, '\n').replace(/\r/g, ''), status: Number(m[2]) };
  }
}

describe.skipIf(!shellBuilt)('interactive shell on a terminal', () => {
  let sb: Sandbox;
  let s: Session;

  beforeAll(async () => {
    sb = await Sandbox.create({ programsDir, hostname: 'sandglass' });
    await sb.warm();
    s = new Session(await sb.openTerminal({ cols: 80, rows: 24 }));
    await s.prompt();
  }, 60_000);

  afterAll(async () => {
    await sb.destroy();
    expect(await WorkerPool.drained()).toBe(true);
  });

  it('draws the prompt between OSC 133 A and B marks', () => {
    const m = new RegExp(`${ESC}\\]133;A${BEL}([\\s\\S]*?)${ESC}\\]133;B${BEL}`).exec(s.out);
    expect(m).not.toBeNull();
    expect(m?.[1]).toMatch(/\$ $/);
  });

  it('runs a typed command, marks output start and end with the status', async () => {
    expect(await s.run('echo hi\r')).toEqual({ output: 'hi\n', status: 0 });
    expect(await s.run('(exit 7)\r')).toEqual({ output: '', status: 7 });
    expect((await s.run('nosuchcmd\r')).status).toBe(127);
  });

  it('edits the line: left/right, Home/End, backspace, Delete', async () => {
    expect((await s.run(`echo abc${LEFT}X\r`)).output).toBe('abXc\n');
    expect((await s.run(`cho mid${HOME}e${END}.\r`)).output).toBe('mid.\n');
    expect((await s.run(`echo abcd\x7f\x7f\r`)).output).toBe('ab\n');
    expect((await s.run(`echo xyz${LEFT}${LEFT}${LEFT}${RIGHT}\x1b[3~\r`)).output).toBe('xz\n');
  });

  it('edits the line: Ctrl-A/E/K/U/W', async () => {
    expect((await s.run(`cho one\x01e\x05 two\r`)).output).toBe('one two\n');
    expect((await s.run(`echo hello world\x01${RIGHT.repeat(10)}\x0b\r`)).output).toBe('hello\n');
    expect((await s.run(`garbage here\x15echo clean\r`)).output).toBe('clean\n');
    expect((await s.run(`echo one two\x17three\r`)).output).toBe('one three\n');
  });

  it('recalls history with up/down', async () => {
    await s.run('echo first\r');
    await s.run('echo second\r');
    expect((await s.run(`${UP}${UP}\r`)).output).toBe('first\n');
    // history now ends: first, second, first
    expect((await s.run(`${UP}${UP}${UP}${DOWN}\r`)).output).toBe('second\n');
  });

  it('searches history backwards with Ctrl-R and runs the match on Enter', async () => {
    await s.run('echo needle-one\r');
    await s.run('echo other\r');
    expect((await s.run('\x12needle\r')).output).toBe('needle-one\n');
    // Ctrl-G abandons the search and leaves the line as it was
    expect((await s.run('echo kept\x12zzz\x07\r')).output).toBe('kept\n');
  });

  it('completes paths and commands with Tab', async () => {
    expect((await s.run('echo /etc/hostn\t\r')).output).toBe('/etc/hostname\n');
    expect((await s.run('read -r h < /etc/hostn\t; echo "<$h>"\r')).output).toBe('<sandglass>\n');
    expect((await s.run('ech\tdone\r')).output).toBe('done\n');
    // a unique directory gets a slash, not a space
    expect((await s.run('echo /et\t\r')).output).toBe('/etc/\n');
    expect((await s.run('v=1; echo $BASH_VERSIO\t\r')).output).toMatch(/^5\./);
  });

  it('lists candidates when Tab is ambiguous', async () => {
    await s.run(': > /tmp/tcalpha1; : > /tmp/tcalpha2; : > /tmp/tcbeta\r');
    s.fresh();
    s.t.write('echo /tmp/tca\t\t');
    await s.until(
      () => s.recent.includes('tcalpha1') && s.recent.includes('tcalpha2'),
      'a candidate list',
    );
    expect((await s.run('1\r')).output).toBe('/tmp/tcalpha1\n');
  });

  it('continues open constructs with PS2', async () => {
    s.fresh();
    s.t.write('for i in 1 2; do\r');
    await s.until(() => s.recent.includes('> '), 'PS2');
    s.t.write('echo n$i\r');
    await s.until(() => (s.recent.match(/> /g) ?? []).length >= 2, 'PS2 again');
    expect(await s.run('done\r')).toEqual({ output: 'n1\nn2\n', status: 0 });
    expect((await s.run("echo 'a\rb'\r")).output).toBe('a\nb\n');
    // history keeps the whole construct
    expect((await s.run(`${UP}${UP}\r`)).output).toBe('n1\nn2\n');
  });

  it('Ctrl-C at the prompt cancels the line', async () => {
    s.fresh();
    s.t.write('echo nope\x03');
    // The prompt drawn after the ^C (a redraw of the previous prompt may come first).
    await s.until(
      () => s.recent.includes(PROMPT_END, s.recent.indexOf('^C') + 1) && s.recent.includes('^C'),
      'a prompt after ^C',
    );
    expect(s.recent).toContain('^C');
    expect(s.recent).not.toContain('133;C');
    expect(await s.run('echo yes\r')).toEqual({ output: 'yes\n', status: 0 });
  });

  it('Ctrl-C interrupts a foreground program; status 130; the next command runs', async () => {
    s.fresh();
    s.t.write('/usr/bin/fixture-sleep 100000; echo not-reached\r');
    await s.until(() => s.recent.includes(`133;C${BEL}`), 'the command to start');
    await new Promise((r) => setTimeout(r, 300));
    const before = s.out.length;
    s.t.write('\x03');
    await s.until(() => s.out.slice(before).includes('133;D;'), 'the interrupted command to end');
    await s.until(() => s.out.slice(before).includes(PROMPT_END), 'the prompt after ^C');
    expect(s.out.slice(before)).toContain(`133;D;130${BEL}`);
    expect(s.out.slice(before)).not.toContain('not-reached');
    expect(await s.run('echo $?\r')).toEqual({ output: '130\n', status: 0 });
    expect(await s.run('echo next\r')).toEqual({ output: 'next\n', status: 0 });
  });

  it('Ctrl-C interrupts a pipeline and a shell loop', async () => {
    for (const cmd of [
      '/usr/bin/fixture-sleep 100000 | /usr/bin/fixture-cat',
      'while :; do :; done',
      'for i in 1 2 3; do /usr/bin/fixture-sleep 100000; done',
    ]) {
      s.fresh();
      s.t.write(`${cmd}\r`);
      await s.until(() => s.recent.includes(`133;C${BEL}`), 'the command to start');
      await new Promise((r) => setTimeout(r, 300));
      const before = s.out.length;
      s.t.write('\x03');
      await s.until(
        () => s.out.slice(before).includes(PROMPT_END),
        `the prompt after ^C of ${cmd}`,
      );
      expect(s.out.slice(before)).toContain(`133;D;130${BEL}`);
      expect(await s.run('echo ok\r')).toEqual({ output: 'ok\n', status: 0 });
    }
  });

  it('Ctrl-Z stops a foreground program; jobs lists it; fg resumes it', async () => {
    s.fresh();
    s.t.write('/usr/bin/fixture-sleep 100000\r');
    await s.until(() => s.recent.includes(`133;C${BEL}`), 'the command to start');
    await new Promise((r) => setTimeout(r, 300));
    let before = s.out.length;
    s.t.write('\x1a');
    await s.until(() => s.out.slice(before).includes(PROMPT_END), 'the prompt after ^Z');
    expect(s.out.slice(before)).toMatch(/\[\d+\]\+ +Stopped +\/usr\/bin\/fixture-sleep 100000/);
    expect(s.out.slice(before)).toContain(`133;D;148${BEL}`);
    expect((await s.run('jobs\r')).output).toMatch(
      /^\[\d+\]\+ +Stopped +\/usr\/bin\/fixture-sleep 100000\n$/,
    );
    s.fresh();
    s.t.write('fg\r');
    await s.until(() => s.recent.includes('fixture-sleep 100000\r\n'), 'fg to print the job');
    await new Promise((r) => setTimeout(r, 300));
    before = s.out.length;
    s.t.write('\x03');
    await s.until(
      () => s.out.slice(before).includes(PROMPT_END),
      'the prompt after ^C of the resumed job',
    );
    expect(s.out.slice(before)).toContain(`133;D;130${BEL}`);
    expect((await s.run('jobs\r')).output).toBe('');
    expect(await s.run('echo ok\r')).toEqual({ output: 'ok\n', status: 0 });
  });

  it('Ctrl-D on an empty line exits with the last status', async () => {
    await s.run('(exit 3)\r');
    s.t.write('echo x\x01\x0b\x04');
    await s.until(() => s.status !== undefined, 'the shell to exit');
    expect(s.status).toBe(3);
  });
});

describe.skipIf(!shellBuilt)('API mode (--sandglass-api) through Sandbox.run', () => {
  let sb: Sandbox;

  beforeAll(async () => {
    sb = await Sandbox.create({ programsDir });
    await sb.warm();
  }, 60_000);

  afterAll(async () => {
    await sb.destroy();
    expect(await WorkerPool.drained()).toBe(true);
  });

  it('keeps variables, functions, options and cwd between commands', async () => {
    const a = await sb.run('x=5; f() { echo "f:$1"; }; set -o pipefail; cd /tmp; echo set');
    expect(a).toMatchObject({ stdout: 'set\n', stderr: '', status: 0 });
    const b = await sb.run('echo "$x"; f 1; pwd; [[ -o pipefail ]] && echo pf');
    expect(b).toMatchObject({ stdout: '5\nf:1\n/tmp\npf\n', status: 0 });
  });

  it('separates stdout and stderr and reports the exit status', async () => {
    const r = await sb.run('echo out; echo err >&2; echo out2; return 2 2>/dev/null || (exit 3)');
    expect(r).toMatchObject({ stdout: 'out\nout2\n', stderr: 'err\n', status: 3 });
    expect((await sb.run('false')).status).toBe(1);
    // the session shell runs as `sh`, so messages start like bash's invoked as sh
    expect(await sb.run('nosuch')).toMatchObject({
      stdout: '',
      stderr: 'sh: line 1: nosuch: command not found\n',
      status: 127,
    });
  });

  it('gives each command its own environment and cwd', async () => {
    const r = await sb.run('echo "$FOO"; /bin/sh -c \'echo "child:$FOO"\'', {
      env: { FOO: 'bar' },
    });
    expect(r.stdout).toBe('bar\nchild:bar\n');
    expect((await sb.run('echo "${FOO-unset}"')).stdout).toBe('unset\n');
    expect((await sb.run('pwd', { cwd: '/etc' })).stdout).toBe('/etc\n');
    expect((await sb.run('pwd; /bin/sh -c pwd', { cwd: '/home' })).stdout).toMatch(
      /^\/home\n\/home\n$/,
    );
    const bad = await sb.run('echo no', { cwd: '/nonexistent' });
    expect(bad.status).not.toBe(0);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toContain('/nonexistent');
  });

  it('feeds each command its own stdin', async () => {
    expect((await sb.run('read a b; echo "[$a|$b]"', { stdin: 'one two\nrest\n' })).stdout).toBe(
      '[one|two]\n',
    );
    expect((await sb.run('/usr/bin/fixture-cat', { stdin: 'piped\n' })).stdout).toBe('piped\n');
    expect((await sb.run('read a || echo eof')).stdout).toBe('eof\n');
  });

  it('an interrupted (timed out) command ends but the session keeps its state', async () => {
    await sb.run('keep=yes');
    const r = await sb.run('while :; do :; done', { timeoutMs: 500 });
    expect(r.status).toBe(124);
    expect((await sb.run('echo "$keep"')).stdout).toBe('yes\n');
  });

  it('exit ends the session cleanly; the next command gets a fresh shell', async () => {
    await sb.run('gone=1');
    expect(await sb.run('echo bye; exit 4')).toMatchObject({ stdout: 'bye\n', status: 4 });
    expect(await sb.run('echo "[${gone-}]"')).toMatchObject({ stdout: '[]\n', status: 0 });
  });
});
