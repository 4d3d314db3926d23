/**
 * curl and wget against the host's curl 7.88 and wget 1.21: every case of
 * cases.ts runs under bash on the host and under our shell in a sandbox
 * whose policy allows the loopback test server's `127.0.0.1:PORT` and a
 * loopback port nothing listens on (`$C`, a refused connection), and
 * nothing else. stdout and exit status must be identical; stderr too
 * where the case says so, after normalize.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { openSync, closeSync } from 'node:fs';
import { WorkerPool } from '../proc/node/workerPool.js';
import { defaultProgramsDir, Sandbox } from '../sandbox/sandbox.js';
import { runProgram } from '../sandbox/testUtil.js';
import { CURL_CASES, WGET_CASES, type NetCase } from './cases.js';
import { normalizeStderr } from './normalize.js';
import { startTestServer, type TestServer } from './testServer.js';

const built = ((): boolean => {
  try {
    const m = JSON.parse(readFileSync(join(defaultProgramsDir(), 'manifest.json'), 'utf8')) as {
      programs?: { name?: string }[];
    };
    const names = new Set((m.programs ?? []).map((p) => p.name));
    return names.has('curl') && names.has('wget') && names.has('shell');
  } catch {
    return false;
  }
})();
const hostTools = existsSync('/usr/bin/curl') && existsSync('/usr/bin/wget');

let server: TestServer;
let closed: string;
let sb: Sandbox;
let root: string;

interface Result {
  stdout: string;
  stderr: string;
  status: number;
}

function env(dir: string): Record<string, string> {
  return { HOME: dir, PATH: '/usr/bin:/bin', LC_ALL: 'C', U: server.base, C: closed };
}

/** A loopback URL whose port nothing listens on (the policy allows it): a refused connection. */
async function closedPortUrl(): Promise<string> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

async function onHost(dir: string, script: string): Promise<Result> {
  await mkdir(dir, { recursive: true });
  const out = openSync(join(dir, '.out'), 'w');
  const err = openSync(join(dir, '.err'), 'w');
  try {
    const status = await new Promise<number>((resolve) => {
      const child = spawn('bash', ['--norc', '--noprofile', '-c', script], {
        cwd: dir,
        env: env(dir),
        stdio: ['ignore', out, err],
      });
      child.on('exit', (code) => resolve(code ?? 128));
    });
    return {
      stdout: await readFile(join(dir, '.out'), 'latin1'),
      stderr: await readFile(join(dir, '.err'), 'latin1'),
      status,
    };
  } finally {
    closeSync(out);
    closeSync(err);
  }
}

async function inSandbox(dir: string, script: string): Promise<Result> {
  await runProgram(sb, '/bin/mkdir', ['mkdir', '-p', dir]);
  const r = await runProgram(sb, '/bin/sh', ['sh', '-c', script], {
    cwd: dir,
    env: env(dir),
    timeoutMs: 20_000,
  });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

/** Both sides decode output the same way: bytes as Latin-1 on the host, UTF-8 lossy here. */
function text(s: string): string {
  return Buffer.from(s, 'latin1').toString('utf8');
}

let n = 0;
async function check(k: NetCase): Promise<void> {
  const dir = join(root, `case${++n}`);
  const host = await onHost(`${dir}h`, k.script);
  const ours = await inSandbox(`${dir}h`, k.script);
  expect({ stdout: ours.stdout, status: ours.status }).toEqual({
    stdout: text(host.stdout),
    status: host.status,
  });
  if (k.stderr === 'exact') {
    expect(normalizeStderr(ours.stderr)).toBe(normalizeStderr(text(host.stderr)));
  }
}

describe.skipIf(!built || !hostTools)('curl and wget against the host tools', () => {
  beforeAll(async () => {
    server = await startTestServer();
    closed = await closedPortUrl();
    root = await mkdtemp(join(tmpdir(), 'sg-netdiff-'));
    sb = await Sandbox.create({
      network: {
        policy: {
          allowedHosts: [
            `127.0.0.1:${server.port}`,
            closed.slice('http://'.length),
            'server.test',
            'nosuch.test',
          ],
          blockedHosts: ['*.ads.test'],
        },
        // Names come from a table: nothing asks a real DNS server.
        resolver: (host) =>
          host === 'server.test'
            ? Promise.resolve(['127.0.0.1'])
            : Promise.reject(new Error(`getaddrinfo ENOTFOUND ${host}`)),
      },
    });
    await sb.warm();
  });

  afterAll(async () => {
    await sb?.destroy();
    await server?.close();
    if (root) await rm(root, { recursive: true, force: true });
    expect(await WorkerPool.drained()).toBe(true);
  });

  it('has the cases the brief asks for', () => {
    expect(CURL_CASES.length).toBeGreaterThanOrEqual(60);
    expect(WGET_CASES.length).toBeGreaterThanOrEqual(25);
  });

  describe('curl', () => {
    for (const k of CURL_CASES) it(k.name, () => check(k), 30_000);
  });

  describe('wget', () => {
    for (const k of WGET_CASES) it(k.name, () => check(k), 30_000);
  });

  // Names the host cannot resolve: what ours print for a lookup that
  // fails and one that the gateway made.
  describe('names', () => {
    const run = (script: string): Promise<Result> => inSandbox(join(root, `name${++n}`), script);

    it('curl: a name that does not resolve is exit 6', async () => {
      expect(await run('curl -sS http://nosuch.test/')).toEqual({
        stdout: '',
        stderr: 'curl: (6) Could not resolve host: nosuch.test\n',
        status: 6,
      });
    });

    it('wget: a name that does not resolve is exit 4', async () => {
      const r = await run('wget http://nosuch.test/');
      expect(r.status).toBe(4);
      expect(normalizeStderr(r.stderr)).toBe(
        "--DATE--  http://nosuch.test/\nResolving nosuch.test (nosuch.test)... failed: Name or service not known.\nwget: unable to resolve host address 'nosuch.test'\n",
      );
    });

    it('curl and wget name the address the gateway connected to', async () => {
      const url = `http://server.test:${server.port}/text`;
      const c = await run(`curl -s -w '%{remote_ip} %{url_effective}\\n' ${url}`);
      expect(c.stdout).toBe(`hello world\n127.0.0.1 ${url}\n`);
      const w = await run(`wget -O - ${url}`);
      expect(w.stdout).toBe('hello world\n');
      expect(normalizeStderr(w.stderr).split('\n').slice(0, 4)).toEqual([
        `--DATE--  ${url}`,
        'Resolving server.test (server.test)... 127.0.0.1',
        `Connecting to server.test (server.test)|127.0.0.1|:${server.port}... connected.`,
        'HTTP request sent, awaiting response... 200 OK',
      ]);
    });
  });

  // The host tools cannot be denied by a policy: these say what ours print.
  describe('policy denials', () => {
    const loopback =
      'network policy denied 127.0.0.1:1: 127.0.0.1 is a loopback address; only an allowedHosts entry naming it or its range allows it';
    const run = (script: string): Promise<Result> => inSandbox(join(root, `deny${++n}`), script);

    it('curl: a loopback port the policy does not name', async () => {
      const r = await run("curl -sS -w '%{http_code} %{exitcode}\\n' http://127.0.0.1:1/x");
      expect(r).toEqual({
        stdout: '000 7\n',
        stderr: `curl: (7) Failed to connect to 127.0.0.1 port 1: ${loopback}\n`,
        status: 7,
      });
    });

    it('curl: a blocked name, before any lookup', async () => {
      const r = await run('curl -s http://x.ads.test/; echo "rc=$?"; curl -sS http://x.ads.test/');
      expect(r.stdout).toBe('rc=7\n');
      expect(r.stderr).toBe(
        'curl: (7) Failed to connect to x.ads.test port 80: network policy denied x.ads.test:80: blockedHosts entry "*.ads.test"\n',
      );
    });

    it('curl -L: a redirect to a denied address', async () => {
      const r = await run('curl -sSL $U/redirect-denied');
      expect(r).toEqual({
        stdout: '',
        stderr: `curl: (7) Failed to connect to 127.0.0.1 port 1: ${loopback}\n`,
        status: 7,
      });
    });

    it('wget: the connect line fails with the rule, exit 4', async () => {
      const r = await run('wget http://127.0.0.1:1/x');
      expect(r.status).toBe(4);
      expect(normalizeStderr(r.stderr)).toBe(
        `--DATE--  http://127.0.0.1:1/x\nConnecting to 127.0.0.1:1... failed: ${loopback}.\n`,
      );
      const nv = await run('wget -nv http://x.ads.test/; echo "rc=$?"');
      expect(nv.stdout).toBe('rc=4\n');
      expect(nv.stderr).toBe(
        'failed: network policy denied x.ads.test:80: blockedHosts entry "*.ads.test".\n',
      );
    });
  });
});
