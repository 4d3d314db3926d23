import { afterAll, describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { WorkerPool } from '../proc/node/workerPool.js';
import { fixtureProgramsDir } from '../sandbox/testPrograms.js';
import { parseExecArgs, runExec } from './exec.js';
import { UsageError } from './options.js';
import { startLoopbackServer } from '../net/testing/loopbackServer.js';

afterAll(async () => {
  expect(await WorkerPool.drained()).toBe(true);
});

describe('sandglass exec arguments', () => {
  it('parses options and the program', () => {
    expect(
      parseExecArgs(['--timeout', '50', '--import', '/h/d:/mnt/d:ro', '--', 'ls', '-l']),
    ).toEqual({
      timeoutMs: 50,
      imports: [{ host: '/h/d', path: '/mnt/d', readOnly: true }],
      exports: [],
      programsDir: undefined,
      cwd: undefined,
      allowNet: [],
      denyNet: [],
      argv: ['ls', '-l'],
    });
    expect(
      parseExecArgs(['--allow-net', 'a.com, *.b.org:443', '--deny-net', '10.0.0.0/8', 'x']),
    ).toMatchObject({ allowNet: ['a.com', '*.b.org:443'], denyNet: ['10.0.0.0/8'] });
    expect(parseExecArgs(['cat']).argv).toEqual(['cat']);
  });

  it('rejects bad usage', () => {
    expect(() => parseExecArgs([])).toThrow(UsageError);
    expect(() => parseExecArgs(['--timeout', 'x', 'cat'])).toThrow(/not a number of ms/);
    expect(() => parseExecArgs(['--import', 'nocolon', 'cat'])).toThrow(/HOST:PATH/);
    expect(() => parseExecArgs(['--frob', 'cat'])).toThrow(/unknown option/);
    expect(() => parseExecArgs(['--allow-net', 'foo.*.com', 'cat'])).toThrow(
      /--allow-net: "foo.\*.com": a wildcard may only open an entry/,
    );
  });
});

describe('sandglass exec', () => {
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

  it('streams stdin to stdout and returns the status', async () => {
    const s = io('streamed\n');
    const code = await runExec(
      parseExecArgs(['--programs', fixtureProgramsDir(), '--', 'fixture-cat']),
      s.streams,
    );
    expect(code).toBe(0);
    expect(s.out()).toBe('streamed\n');
  });

  it('returns 127 for a missing program and 124 on timeout', async () => {
    const s = io('');
    expect(
      await runExec(parseExecArgs(['--programs', fixtureProgramsDir(), 'nope']), s.streams),
    ).toBe(127);
    expect(s.err()).toMatch(/nope: .*No such file/);
    const t = io('');
    expect(
      await runExec(
        parseExecArgs(['--programs', fixtureProgramsDir(), '--timeout', '200', 'fixture-spin']),
        t.streams,
      ),
    ).toBe(124);
    expect(t.err()).toBe('sandglass: killed: time limit of 200 ms exceeded\n');
  });

  it('reaches only what --allow-net lists; nobody is asked', async () => {
    const server = await startLoopbackServer();
    try {
      const url = `${server.origin}/hello`;
      const ok = io('');
      const args = ['--programs', fixtureProgramsDir(), '--allow-net', `127.0.0.1:${server.port}`];
      expect(await runExec(parseExecArgs([...args, 'fixture-fetch', url]), ok.streams)).toBe(0);
      expect(ok.out()).toBe('hello\n');
      const no = io('');
      const local = `http://localhost:${server.port}/hello`;
      expect(await runExec(parseExecArgs([...args, 'fixture-fetch', local]), no.streams)).toBe(7);
      expect(no.err()).toBe(
        `fixture-fetch: network policy denied localhost:${server.port}: denied by policy: no allowedHosts entry matches and no person is connected to approve it\n`,
      );
      const blocked = io('');
      const deny = [...args, '--deny-net', `127.0.0.1:${server.port}`, 'fixture-fetch', url];
      expect(await runExec(parseExecArgs(deny), blocked.streams)).toBe(7);
      expect(blocked.err()).toContain(`blockedHosts entry "127.0.0.1:${server.port}"`);
    } finally {
      await server.close();
    }
  });
});
