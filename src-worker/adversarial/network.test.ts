/**
 * SSRF from inside a sandbox: curl and wget aim every spelling of loopback,
 * private and metadata addresses at a sentinel HTTP server on 127.0.0.1.
 * The policy allows every public host (`*`), which never covers special
 * addresses, and nobody is there to approve: each request must be denied
 * with the gateway's message and the sentinel must see no request at all.
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../api/engine.js';
import { startLoopbackServer, type LoopbackServer } from '../net/testing/loopbackServer.js';
import { defaultProgramsDir } from '../sandbox/sandbox.js';
import { useArena } from './arena.js';

const built = existsSync(join(defaultProgramsDir(), 'curl.wasm'));

let sentinel: LoopbackServer;
beforeAll(async () => {
  sentinel = await startLoopbackServer();
});
afterAll(() => sentinel.close());

const DENIED = 'network policy denied';

/** URL spellings of the sentinel (PORT is its port) and of other inside addresses. */
const URLS: Record<string, string> = {
  'dotted loopback': 'http://127.0.0.1:PORT/hello',
  'short 127.1': 'http://127.1:PORT/hello',
  'decimal 2130706433': 'http://2130706433:PORT/hello',
  'hex 0x7f000001': 'http://0x7f000001:PORT/hello',
  'octal 0177.0.0.1': 'http://0177.0.0.1:PORT/hello',
  'another loopback 127.9.9.9': 'http://127.9.9.9:PORT/hello',
  'IPv6 loopback': 'http://[::1]:PORT/hello',
  'IPv4-mapped IPv6': 'http://[::ffff:127.0.0.1]:PORT/hello',
  'IPv4-mapped IPv6 in hex': 'http://[::ffff:7f00:1]:PORT/hello',
  'unspecified 0.0.0.0': 'http://0.0.0.0:PORT/hello',
  'localhost by name': 'http://localhost:PORT/hello',
  'LOCALHOST with a trailing dot': 'http://LOCALHOST.:PORT/hello',
  'userinfo naming a public host': 'http://example.com@127.0.0.1:PORT/hello',
  'userinfo with a password': 'http://user:pass@127.0.0.1:PORT/hello',
  'cloud metadata': 'http://169.254.169.254/latest/meta-data/',
  'IPv6 metadata': 'http://[fd00:ec2::254]/latest/meta-data/',
  'private 10/8': 'http://10.0.0.1/',
  'private 192.168/16': 'http://192.168.1.1/',
  'carrier-grade NAT': 'http://100.64.0.1/',
  'NAT64 of metadata': 'http://[64:ff9b::a9fe:a9fe]/',
};

describe.skipIf(!built)('SSRF through curl and wget', () => {
  const arena = useArena({
    settings: { ...DEFAULT_SETTINGS, network: { allowedHosts: ['*'], blockedHosts: [] } },
  });

  afterEach(() => {
    // Not one request reached the sentinel.
    expect(sentinel.seen).toEqual([]);
  });

  const url = (u: string) => u.replace('PORT', String(sentinel.port));

  it.each(Object.entries(URLS))('curl: %s', async (_name, u) => {
    const r = await arena().run(`curl -sS --max-time 5 '${url(u)}'`);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(DENIED);
    expect(r.stdout).toBe('');
  });

  it.each([
    ['dotted loopback', 'http://127.0.0.1:PORT/hello'],
    ['IPv6 loopback', 'http://[::1]:PORT/hello'],
    ['metadata', 'http://169.254.169.254/'],
  ])('wget: %s', async (_name, u) => {
    const r = await arena().run(`wget -O - '${url(u)}'`);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(DENIED);
  });

  it('a Host header claiming a public name does not unlock loopback', async () => {
    const r = await arena().run(
      `curl -sS -H 'Host: example.com' 'http://127.0.0.1:${sentinel.port}/hello'`,
    );
    expect(r.stderr).toContain(DENIED);
  });

  it('an unsupported scheme aimed at the sentinel', async () => {
    const r = await arena().run(`curl -sS 'gopher://127.0.0.1:${sentinel.port}/_GET'`);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('not supported');
  });

  it('file:// reads only the sandbox’s own files', async () => {
    const a = arena();
    const r = await a.run(`curl -sS 'file://${a.host.path()}'`);
    expect(r.status).not.toBe(0);
    expect(r.stdout).toBe('');
  });

  it('blocked hosts win over allowed ones', async () => {
    const a = arena();
    const current = (await a.call('listSandboxes', {})).find((s) => s.id === a.target.id);
    if (!current) throw new Error('no target');
    await a.engine.call(
      'updateSettings',
      {
        sandboxId: a.target.id,
        settings: {
          ...current.settings,
          network: { allowedHosts: ['127.0.0.1'], blockedHosts: ['127.0.0.0/8'] },
        },
      },
      a.person,
    );
    try {
      const r = await a.run(`curl -sS 'http://127.0.0.1:${sentinel.port}/hello'`);
      expect(r.stderr).toContain(DENIED);
    } finally {
      await a.engine.call(
        'updateSettings',
        { sandboxId: a.target.id, settings: current.settings },
        a.person,
      );
    }
  });

  it('python urllib to the sentinel is denied', async () => {
    const r = await arena().run(
      `python3 -c 'import urllib.request; urllib.request.urlopen("http://127.0.0.1:${sentinel.port}/hello", timeout=5)'`,
      120_000,
    );
    expect(r.status).not.toBe(0);
    // Python's socket layer reports the gateway's refusal as EHOSTUNREACH.
    expect(r.stderr).toMatch(/network policy denied|Host is unreachable/);
  }, 180_000);
});

/**
 * wget -r over a hostile page: links to the sentinel under many spellings,
 * to metadata and private addresses, to other schemes, thousands of links
 * to itself, a redirect loop, a redirect into the sentinel and an endless
 * chain of generated pages. Every request the walk makes goes through the
 * gateway, so the policy (this page's origin and public hosts) decides
 * each one: nothing reaches the sentinel, and the walk ends.
 */
describe.skipIf(!built)('SSRF through wget -r', () => {
  let hostile: Server;
  const hits: string[] = [];
  // The origin is allowed once its port is known (before the arena starts).
  const allowedHosts = ['*'];

  beforeAll(async () => {
    hostile = createServer((req, res) => {
      const path = req.url ?? '/';
      hits.push(path);
      const s = `127.0.0.1:${sentinel.port}`;
      const html = (body: string) => {
        res.writeHead(200, { 'Content-Type': 'text/html', Connection: 'close' });
        res.end(body);
      };
      if (path === '/loop') {
        res.writeHead(302, { Location: '/loop', Connection: 'close' });
        return res.end();
      }
      if (path === '/redirect-in') {
        res.writeHead(302, { Location: `http://${s}/hello`, Connection: 'close' });
        return res.end();
      }
      const gen = /^\/gen\/(\d+)$/.exec(path);
      if (gen) return html(`<a href="/gen/${Number(gen[1]) + 1}">next</a>`);
      if (path !== '/') {
        res.writeHead(404, { Connection: 'close' });
        return res.end();
      }
      const links = [
        `http://${s}/hello`,
        `http://localhost:${sentinel.port}/hello`,
        `http://[::1]:${sentinel.port}/hello`,
        `http://2130706433:${sentinel.port}/hello`,
        `//${s}/scheme-relative`,
        'http://169.254.169.254/latest/meta-data/',
        'http://10.0.0.1/',
        'file:///etc/passwd',
        `ftp://${s}/x`,
        'javascript:alert(1)',
        '/loop',
        '/redirect-in',
        '/gen/1',
      ];
      let body = links.map((l) => `<a href="${l}">x</a><img src="${l}">`).join('\n');
      for (let i = 0; i < 5000; i++) body += `<a href="/#${i}">self</a><a href="/./">q</a>`;
      html(body);
    });
    await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
    allowedHosts.push(`127.0.0.1:${(hostile.address() as AddressInfo).port}`);
  });
  afterAll(() => new Promise<void>((resolve) => hostile.close(() => resolve())));

  const arena = useArena({
    settings: { ...DEFAULT_SETTINGS, network: { allowedHosts, blockedHosts: [] } },
  });

  afterEach(() => {
    expect(sentinel.seen).toEqual([]);
  });

  const origin = () => allowedHosts[1] ?? '';

  it.each([
    ['same host', ''],
    ['spanning hosts (-H)', '-H'],
  ])('%s: denied hops, a bounded walk', async (_name, flags) => {
    hits.length = 0;
    const r = await arena().run(
      `cd /tmp && rm -rf walk && wget -r -l 3 ${flags} -P walk http://${origin()}/; echo "rc=$?"`,
      120_000,
    );
    expect(r.stdout).toMatch(/^rc=[48]\n$/);
    expect(r.stderr).toContain(DENIED);
    expect(r.stderr).toContain('FINISHED --');
    // The page, robots.txt, the loop's 21 hops, the redirect, /gen/1..3 (-l 3).
    expect(hits.filter((h) => h === '/')).toHaveLength(1);
    expect(hits.filter((h) => h.startsWith('/gen/'))).toEqual(['/gen/1', '/gen/2', '/gen/3']);
    expect(hits.length).toBeLessThan(40);
  });
});
