/**
 * The net syscalls end to end: a real wasm program (crates/fixtures
 * fixture-fetch, role `net`) asks the kernel, the kernel asks the gateway,
 * the gateway talks to a loopback server started here. Policy entries name
 * 127.0.0.1:PORT explicitly; nothing leaves loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sandbox } from '../sandbox/sandbox.js';
import { readFileSync } from 'node:fs';
import { fixtureProgramsDir, fixtureWasmPath } from '../sandbox/testPrograms.js';
import { checkImports } from '../wasi/sandglass/index.js';
import { runProgram } from '../sandbox/testUtil.js';
import type { AuditRecord } from './audit.js';
import type { NetRequestInfo } from './policy.js';
import { startLoopbackServer, type LoopbackServer } from './testing/loopbackServer.js';

let server: LoopbackServer;
let sb: Sandbox;
const audit: AuditRecord[] = [];
const FETCH = '/usr/bin/fixture-fetch';

beforeAll(async () => {
  server = await startLoopbackServer();
  sb = await Sandbox.create({
    programsDir: fixtureProgramsDir(),
    network: {
      sandboxId: 'sb-test',
      policy: { allowedHosts: [`127.0.0.1:${server.port}`] },
      onAudit: (r) => audit.push(r),
    },
  });
  await sb.warm();
});

afterAll(async () => {
  await sb.destroy();
  await server.close();
});

const fetch = (args: string[], opts: Parameters<typeof runProgram>[3] = {}) =>
  runProgram(sb, FETCH, ['fixture-fetch', ...args], opts);

describe('net syscalls from wasm', () => {
  it('GETs through the gateway from a wasm program', async () => {
    const r = await fetch(['-i', `${server.origin}/hello`]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^HTTP 200 OK\n/);
    expect(r.stdout).toContain('X-Custom: Yes\n');
    expect(r.stdout.endsWith('\nhello\n')).toBe(true);
    const rec = audit.find((a) => a.url === `${server.origin}/hello`);
    expect(rec).toMatchObject({
      sandboxId: 'sb-test',
      decision: 'allow',
      status: 200,
      bytesReceived: 6,
      argv: ['fixture-fetch', '-i', `${server.origin}/hello`],
    });
    expect(rec?.pid).toBeGreaterThan(1);
  });

  it('sends an inline body and headers in order', async () => {
    const r = await fetch([
      '-X',
      'PUT',
      '-H',
      'X-One: 1',
      '-H',
      'x-two: 2',
      '-d',
      'payload',
      `${server.origin}/echo`,
    ]);
    expect(r.status).toBe(0);
    const echo = JSON.parse(r.stdout) as { method: string; rawHeaders: string[]; body: string };
    expect(echo.method).toBe('PUT');
    expect(echo.body).toBe('payload');
    const names = echo.rawHeaders.filter((_, i) => i % 2 === 0);
    expect(names.indexOf('X-One')).toBeLessThan(names.indexOf('x-two'));
  });

  it('streams a request body from stdin', async () => {
    const data = 'x'.repeat(3 * 1024 * 1024 + 17);
    const r = await fetch(['--stdin', `${server.origin}/echo`], { stdin: data });
    expect(r.stderr).toBe('');
    expect((JSON.parse(r.stdout) as { size: number }).size).toBe(data.length);
  });

  it('streams a large response body', async () => {
    const bytes = 24 * 1024 * 1024 + 5;
    let got = 0;
    const p = await sb.spawn(FETCH, ['fixture-fetch', `${server.origin}/big?bytes=${bytes}`], {
      stdout: (d) => (got += d.length),
    });
    expect((await p.wait()).status).toBe(0);
    expect(got).toBe(bytes);
  });

  it('follows redirects only when asked', async () => {
    const url = `${server.origin}/redirect?to=/hello`;
    const plain = await fetch(['-i', url]);
    expect(plain.stdout).toMatch(/^HTTP 302 /);
    const followed = await fetch(['-L', url]);
    expect(followed.stdout).toBe('hello\n');
  });

  it('denies by default with the rule in the message and curl exit 7', async () => {
    const other = await startLoopbackServer();
    try {
      const r = await fetch([`${other.origin}/hello`]);
      expect(r.status).toBe(7);
      expect(r.stderr).toBe(
        `fixture-fetch: network policy denied 127.0.0.1:${other.port}: 127.0.0.1 is a loopback address; only an allowedHosts entry naming it or its range allows it\n`,
      );
      expect(other.seen).toHaveLength(0);
    } finally {
      await other.close();
    }
  });

  it('reports failures with their own exit codes', async () => {
    expect((await fetch(['ftp://x/'])).status).toBe(3);
    const smuggle = await fetch(['-H', 'X-A: 1\r\nHost: evil', `${server.origin}/hello`]);
    expect(smuggle.status).toBe(43);
    const chain = `/redirect?to=${encodeURIComponent('/redirect?to=/hello')}`;
    expect((await fetch(['-L', '--max-redirs', '2', `${server.origin}${chain}`])).stdout).toBe(
      'hello\n',
    );
    const loop = await fetch(['-L', '--max-redirs', '1', `${server.origin}${chain}`]);
    expect(loop.status).toBe(47);
    expect(loop.stderr).toMatch(/redirects followed/);
  });
});

describe('SSRF through the syscalls', () => {
  // Another loopback port nobody listed: every spelling of it must be refused
  // before a byte is sent, exactly as the gateway's own suite checks.
  let other: LoopbackServer;
  beforeAll(async () => {
    other = await startLoopbackServer();
  });
  afterAll(async () => other.close());

  const special = (host: string) =>
    `${host} is a loopback address; only an allowedHosts entry naming it or its range allows it`;

  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['2130706433', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    // The message names the URL's host as WHATWG writes it; the check folds it to IPv4.
    ['[::ffff:127.0.0.1]', '[::ffff:7f00:1]'],
  ])('refuses %s on an unlisted port', async (spelling, shown) => {
    const r = await fetch([`http://${spelling}:${other.port}/hello`]);
    expect(r.status).toBe(7);
    expect(r.stderr).toBe(
      `fixture-fetch: network policy denied ${shown}:${other.port}: ${special('127.0.0.1')}\n`,
    );
    expect(other.seen).toHaveLength(0);
  });

  it('a listed spelling is the listed host', async () => {
    expect((await fetch([`http://127.1:${server.port}/hello`])).stdout).toBe('hello\n');
    expect((await fetch([`http://0x7f000001:${server.port}/hello`])).stdout).toBe('hello\n');
  });

  it.each([
    ['http://169.254.169.254/latest/meta-data/', 'cloud-metadata'],
    ['http://[fd00:ec2::254]/', 'cloud-metadata'],
    ['http://10.0.0.1/', 'private'],
    ['http://[::1]:9/', 'loopback'],
    ['http://0.0.0.0:9/', 'unspecified'],
  ])('refuses %s (%s)', async (url, kind) => {
    const r = await fetch([url]);
    expect(r.status).toBe(7);
    expect(r.stderr).toMatch(new RegExp(`is an? ${kind} address`));
  });

  it('refuses userinfo tricks and smuggled headers before connecting', async () => {
    const trick = await fetch([`http://127.0.0.1:${server.port}@evil.test/`]);
    expect(trick.status).toBe(3);
    expect(trick.stderr).toContain('credentials in the URL');
    const before = server.seen.length;
    const smuggled = await fetch(['-H', 'X: 1\nHost: evil', `${server.origin}/hello`]);
    expect(smuggled.status).toBe(43);
    const second = await fetch(['-H', 'Host: evil.test', `${server.origin}/hello`]);
    expect(second.status).toBe(43);
    expect(server.seen.length).toBe(before);
  });

  it('re-checks redirects hop by hop: an allowed server cannot bounce inside', async () => {
    const inside = `http://127.0.0.1:${other.port}/hello`;
    const r = await fetch(['-L', `${server.origin}/redirect?to=${encodeURIComponent(inside)}`]);
    expect(r.status).toBe(7);
    expect(r.stderr).toContain(`denied 127.0.0.1:${other.port}`);
    const meta = 'http://169.254.169.254/latest/meta-data/';
    const m = await fetch(['-L', `${server.origin}/redirect?to=${encodeURIComponent(meta)}`]);
    expect(m.stderr).toContain('cloud-metadata');
    expect(other.seen).toHaveLength(0);
  });

  it('never looks up a name no entry lists', async () => {
    const r = await fetch(['http://secret-data.attacker.test/']);
    expect(r.status).toBe(7);
    expect(r.stderr).toContain('no allowedHosts entry matches');
  });
});

describe('approvals through onRequest', () => {
  it('asks with pid, argv and the hop, and a denial carries the reason', async () => {
    const asked: NetRequestInfo[] = [];
    sb.setNetwork({
      policy: {
        allowedHosts: [`127.0.0.1:${server.port}`],
        onRequest: async (info) => {
          asked.push(info);
          return { allow: false, by: 'person', reason: 'not now' };
        },
      },
    });
    try {
      const r = await fetch([`${server.origin}/hello`]);
      expect(r.status).toBe(7);
      expect(r.stderr).toBe(
        `fixture-fetch: network policy denied 127.0.0.1:${server.port}: denied by person: not now\n`,
      );
      expect(asked[0]).toMatchObject({
        url: `${server.origin}/hello`,
        method: 'GET',
        sandboxId: 'sb-test',
        argv: ['fixture-fetch', `${server.origin}/hello`],
        hop: 0,
        listedBy: `127.0.0.1:${server.port}`,
      });
    } finally {
      sb.setNetwork({ policy: { allowedHosts: [`127.0.0.1:${server.port}`] } });
    }
  });

  it('does not count the wait for a person against the time limit', async () => {
    sb.setNetwork({
      policy: {
        allowedHosts: [`127.0.0.1:${server.port}`],
        onRequest: () => new Promise((r) => setTimeout(() => r(true), 700)),
      },
    });
    try {
      const r = await fetch([`${server.origin}/hello`], { timeoutMs: 400 });
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe('hello\n');
    } finally {
      sb.setNetwork({ policy: { allowedHosts: [`127.0.0.1:${server.port}`] } });
    }
  });

  it('a kill while waiting cancels the question', async () => {
    let aborted: Promise<void> | undefined;
    let asked!: () => void;
    const wasAsked = new Promise<void>((r) => (asked = r));
    sb.setNetwork({
      policy: {
        allowedHosts: [`127.0.0.1:${server.port}`],
        onRequest: (info) => {
          aborted = new Promise((r) => info.signal.addEventListener('abort', () => r()));
          asked();
          return new Promise(() => {});
        },
      },
    });
    try {
      const p = await sb.spawn(FETCH, ['fixture-fetch', `${server.origin}/hello`]);
      await wasAsked;
      p.kill(9);
      expect((await p.wait()).signal).toBe(9);
      await aborted;
    } finally {
      sb.setNetwork({ policy: { allowedHosts: [`127.0.0.1:${server.port}`] } });
    }
  });

  it('only the net role may import the calls', () => {
    const mod = new WebAssembly.Module(readFileSync(fixtureWasmPath('fixture-fetch')));
    // Judge only the sandglass imports: every preview1 name it uses counts as known.
    const PREVIEW1 = new Set(
      WebAssembly.Module.imports(mod)
        .filter((i) => i.module === 'wasi_snapshot_preview1')
        .map((i) => i.name),
    );
    expect(checkImports(mod, 'net', PREVIEW1)).toBeUndefined();
    for (const role of ['utility', 'proc', 'shell'] as const) {
      expect(checkImports(mod, role, PREVIEW1)).toMatch(/imports sandglass\.net_\w+, which role/);
    }
  });
});
