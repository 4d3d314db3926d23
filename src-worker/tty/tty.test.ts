import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkerPool } from '../proc/node/workerPool.js';
import { Sandbox } from '../sandbox/sandbox.js';
import { fixtureProgramsDir } from '../sandbox/testPrograms.js';
import {
  SIGINT,
  SIGWINCH,
  Tty,
  TTY_CANON,
  TTY_ECHO,
  TTY_ICRNL,
  TTY_ISIG,
  TTY_RAW_OUTPUT,
} from './tty.js';

const enc = new TextEncoder();
const dec = new TextDecoder();

function make(): { tty: Tty; out: () => string; sigs: [number, number][] } {
  let out = '';
  const sigs: [number, number][] = [];
  const tty = new Tty({
    output: (d) => (out += dec.decode(d)),
    signal: (g, s) => sigs.push([g, s]),
  });
  return { tty, out: () => out, sigs };
}

describe('line discipline', () => {
  it('canonical mode buffers a line with erase and kill, echoing', () => {
    const { tty, out } = make();
    tty.input(enc.encode('helo\x7flo'));
    expect(tty.read(100)).toBeNull();
    tty.input(enc.encode(' wrld\x17world\r'));
    expect(dec.decode(tty.read(100) ?? new Uint8Array())).toBe('hello world\n');
    tty.input(enc.encode('gone\x15kept\n'));
    expect(dec.decode(tty.read(100) ?? new Uint8Array())).toBe('kept\n');
    expect(out()).toContain('helo\b \blo');
    expect(out().endsWith('kept\r\n')).toBe(true);
  });

  it('erases a whole UTF-8 character', () => {
    const { tty } = make();
    tty.input(enc.encode('aé\x7f\n'));
    expect(dec.decode(tty.read(100) ?? new Uint8Array())).toBe('a\n');
  });

  it('Ctrl-D gives EOF on an empty line and flushes a partial one', () => {
    const { tty } = make();
    tty.input(enc.encode('ab\x04'));
    expect(dec.decode(tty.read(100) ?? new Uint8Array())).toBe('ab');
    tty.input(enc.encode('\x04'));
    expect(tty.read(100)?.length).toBe(0);
    expect(tty.read(100)).toBeNull();
  });

  it('raw mode passes bytes at once without echo', () => {
    const { tty, out } = make();
    tty.mode = TTY_ISIG;
    tty.input(enc.encode('x\x7f'));
    expect(Array.from(tty.read(10) ?? [])).toEqual([0x78, 0x7f]);
    expect(out()).toBe('');
    tty.mode = 0;
    tty.input(Uint8Array.of(3, 0x0d));
    expect(Array.from(tty.read(10) ?? [])).toEqual([3, 0x0d]);
    // With ICRNL (a pyrepl-style raw mode) Enter's CR reads as LF.
    tty.mode = TTY_ISIG | TTY_ICRNL;
    tty.input(Uint8Array.of(0x0d));
    expect(Array.from(tty.read(10) ?? [])).toEqual([0x0a]);
  });

  it('writes LF as CRLF unless output processing is off', () => {
    const { tty, out } = make();
    tty.write(enc.encode('a\nb'));
    tty.setMode(TTY_ISIG | TTY_RAW_OUTPUT);
    tty.write(enc.encode('\nc\r\n'));
    tty.setMode(TTY_CANON | TTY_ECHO | TTY_ISIG);
    tty.write(enc.encode('d\n'));
    expect(out()).toBe('a\r\nb\nc\r\nd\r\n');
  });

  it('leaving canonical mode makes typed-ahead keys readable', () => {
    const { tty } = make();
    tty.input(enc.encode('echo /tmp/tca\t\t'));
    expect(tty.read(100)).toBeNull();
    tty.setMode(TTY_ISIG);
    expect(dec.decode(tty.read(100) ?? new Uint8Array())).toBe('echo /tmp/tca\t\t');
  });

  it('isig sends signals to the foreground group; resize sends SIGWINCH', () => {
    const { tty, out, sigs } = make();
    tty.fgPgrp = 7;
    tty.input(enc.encode('abc\x03'));
    expect(sigs).toEqual([[7, SIGINT]]);
    expect(out().endsWith('^C\r\n')).toBe(true);
    expect(tty.read(10)).toBeNull();
    tty.resize(100, 40);
    expect(sigs[1]).toEqual([7, SIGWINCH]);
    expect([tty.cols, tty.rows]).toEqual([100, 40]);
  });

  it('output gets CRLF', () => {
    const { tty, out } = make();
    tty.write(enc.encode('a\nb\n'));
    expect(out()).toBe('a\r\nb\r\n');
    expect(TTY_CANON | TTY_ECHO | TTY_ISIG).toBe(tty.mode);
  });
});

describe('terminals', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await Sandbox.create({
      programsDir: fixtureProgramsDir(),
      terminalShell: { path: '/usr/bin/fixture-cat', argv: ['cat'] },
    });
    await sb.warm();
  });
  afterAll(async () => {
    await sb.destroy();
    expect(await WorkerPool.drained()).toBe(true);
  });

  async function until(cond: () => boolean): Promise<void> {
    const end = Date.now() + 20_000;
    while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
  }

  it('runs a program on a tty: echo, line input, Ctrl-C to the foreground group', async () => {
    const t = await sb.openTerminal({ cols: 80, rows: 24 });
    let out = '';
    t.onData((d) => (out += dec.decode(d)));
    let status: number | undefined;
    t.onExit((s) => (status = s));
    t.write('hi\r');
    await until(() => out === 'hi\r\nhi\r\n');
    expect(out).toBe('hi\r\nhi\r\n');
    t.write('\x03');
    await until(() => status !== undefined);
    expect(status).toBe(130);
  });

  it('programs see the tty as a terminal (wasi-libc isatty) and pipes as not', async () => {
    const tsb = await Sandbox.create({
      programsDir: fixtureProgramsDir(),
      terminalShell: { path: '/usr/bin/fixture-wasi', argv: ['wasi', 'tty'] },
    });
    try {
      const t = await tsb.openTerminal();
      let out = '';
      t.onData((d) => (out += dec.decode(d)));
      let status: number | undefined;
      t.onExit((s) => (status = s));
      await until(() => status !== undefined);
      expect(out).toBe('fd 0 tty=true\r\nfd 1 tty=true\r\nfd 2 tty=true\r\n');
      let piped = '';
      const p = await tsb.spawn('/usr/bin/fixture-wasi', ['wasi', 'tty'], {
        stdout: (d) => (piped += dec.decode(d)),
      });
      await p.wait();
      expect(piped).toBe('fd 0 tty=false\nfd 1 tty=false\nfd 2 tty=false\n');
    } finally {
      await tsb.destroy();
    }
  });

  it('Ctrl-D ends input', async () => {
    const t = await sb.openTerminal();
    let status: number | undefined;
    t.onExit((s) => (status = s));
    t.write('\x04');
    await until(() => status !== undefined);
    expect(status).toBe(0);
  });
});
