// The gateway against a loopback server: what is allowed arrives intact and
// streamed, limits and timeouts hold, onRequest sees every hop, audits add up.
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditRecord } from './audit.js';
import { NetError } from './denial.js';
import { NetworkGateway, type GatewayOptions, type NetRequest } from './gateway.js';
import type { NetRequestInfo } from './policy.js';
import {
  startLoopbackServer,
  startLoopbackTlsServer,
  type LoopbackServer,
} from './testing/loopbackServer.js';
import { readAll, readText, tableResolver } from './testing/tables.js';
import { hasOpenssl, makeTestCert } from './testing/tlsCert.js';

let srv: LoopbackServer;
let allowSrv: string;

beforeAll(async () => {
  srv = await startLoopbackServer();
  allowSrv = `127.0.0.1:${srv.port}`;
});
afterAll(() => srv.close());

function gateway(opts: Partial<GatewayOptions> = {}): NetworkGateway {
  return new NetworkGateway({
    sandboxId: 'sb1',
    policy: { allowedHosts: [allowSrv] },
    resolver: tableResolver({}),
    ...opts,
  });
}

async function fails(p: Promise<unknown>): Promise<NetError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(NetError);
  return err as NetError;
}

async function echo(gw: NetworkGateway, req: Partial<NetRequest> = {}) {
  const res = await gw.request({ url: `${srv.origin}/echo`, ...req });
  return JSON.parse(await readText(res)) as {
    method: string;
    url: string;
    rawHeaders: string[];
    size: number;
    body: string;
  };
}

describe('allowed requests', () => {
  it('fetches from an explicitly named loopback address and port', async () => {
    const res = await gateway().request({ url: `${srv.origin}/hello` });
    expect(res.status).toBe(200);
    expect(res.statusText).toBe('OK');
    expect(await readText(res)).toBe('hello\n');
    // Headers as received: spelling and order kept.
    const names = res.headers.map(([n]) => n);
    expect(names.indexOf('Content-Type')).toBeLessThan(names.indexOf('X-Custom'));
    expect(res.addresses).toEqual(['127.0.0.1']);
  });

  it('connects a resolved name to the checked address and keeps the name in Host', async () => {
    const resolver = tableResolver({ 'api.test': ['127.0.0.1'] });
    const gw = gateway({ resolver, policy: { allowedHosts: ['api.test', allowSrv] } });
    const got = await echo(gw, { url: `http://API.test.:${srv.port}/echo?q=1` });
    expect(got.url).toBe('/echo?q=1');
    const host = got.rawHeaders[got.rawHeaders.findIndex((h) => h.toLowerCase() === 'host') + 1];
    expect(host).toBe(`api.test.:${srv.port}`);
    expect(resolver.calls).toEqual(['api.test']);
  });

  it('reaches IPv6 loopback named as [::1]:PORT, by literal and by a name resolving to it', async () => {
    const v6 = await startLoopbackServer('::1').catch(() => null);
    if (!v6) return; // no IPv6 loopback on this machine
    try {
      const gw = gateway({
        resolver: tableResolver({ 'six.test': ['::1'] }),
        policy: { allowedHosts: [`[::1]:${v6.port}`, 'six.test'] },
      });
      expect(await readText(await gw.request({ url: `${v6.origin}/hello` }))).toBe('hello\n');
      const byName = await gw.request({ url: `http://six.test:${v6.port}/hello` });
      expect(byName.addresses).toEqual(['::1']);
      expect(await readText(byName)).toBe('hello\n');
      const other = await fails(gw.request({ url: `http://[::1]:${srv.port}/hello` }));
      expect(other.reason).toBe('special-address');
    } finally {
      await v6.close();
    }
  });

  it('passes methods through as given', async () => {
    const gw = gateway();
    for (const method of ['PATCH', 'DELETE', 'PROPFIND', 'OPTIONS', 'PURGE']) {
      expect((await echo(gw, { method })).method).toBe(method);
    }
    const head = await gw.request({ url: `${srv.origin}/hello`, method: 'HEAD' });
    expect(head.status).toBe(200);
    expect((await readAll(head)).length).toBe(0);
  });

  it('sends the path and query as written, a bare `?` included (as curl and wget do)', async () => {
    const gw = gateway();
    const target = async (suffix: string) =>
      (await echo(gw, { url: `${srv.origin}/echo${suffix}` })).url;
    expect(await target('?')).toBe('/echo?');
    expect(await target('?#frag')).toBe('/echo?');
    expect(await target('#frag?')).toBe('/echo');
    expect(await target('?a=1&b')).toBe('/echo?a=1&b');
    expect(await target('?q=%20&t=%7E')).toBe('/echo?q=%20&t=%7E');
  });

  it('sends program headers in order, and a Host header naming the URL host', async () => {
    const got = await echo(gateway(), {
      headers: [
        ['X-One', '1'],
        ['Host', `127.0.0.1:${srv.port}`],
        ['x-two', 'a b'],
        ['__proto__', 'plain header'],
      ],
    });
    const raw = got.rawHeaders;
    expect(raw.filter((h) => h.toLowerCase() === 'host')).toHaveLength(1);
    expect(raw.indexOf('X-One')).toBeLessThan(raw.indexOf('x-two'));
    expect(raw[raw.indexOf('__proto__') + 1]).toBe('plain header');
  });

  it('takes a Host header spelled as the URL host is spelled elsewhere (Python writes `127.1:PORT`)', async () => {
    for (const host of [`127.1:${srv.port}`, `0x7f000001:${srv.port}`, `127.0.0.1.:${srv.port}`]) {
      const got = await echo(gateway(), {
        url: `http://127.1:${srv.port}/echo`,
        headers: [['Host', host]],
      });
      expect(got.rawHeaders[got.rawHeaders.findIndex((h) => h.toLowerCase() === 'host') + 1]).toBe(
        `127.0.0.1:${srv.port}`,
      );
    }
  });

  it('streams a request body with back-pressure and counts it', async () => {
    let produced = 0;
    async function* chunks(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < 64; i++) {
        produced += 65536;
        yield new Uint8Array(65536).fill(i);
      }
    }
    const gw = gateway();
    const got = await echo(gw, { method: 'POST', body: chunks() });
    expect(got.size).toBe(64 * 65536);
    expect(produced).toBe(64 * 65536);
    expect(gw.bytesUsed).toBeGreaterThanOrEqual(64 * 65536);
  });

  it('sends a buffer body', async () => {
    const got = await echo(gateway(), { method: 'POST', body: Buffer.from('a=1&b=2') });
    expect(got).toMatchObject({ method: 'POST', size: 7, body: 'a=1&b=2' });
  });
});

describe('limits and timeouts', () => {
  it('stops a response over the per-request byte limit', async () => {
    const gw = gateway({ limits: { maxResponseBytes: 100_000 } });
    // Declared length: refused at the head.
    const e1 = await fails(gw.request({ url: `${srv.origin}/big?bytes=200000` }));
    expect(e1.reason).toBe('byte-limit');
    // Undeclared length: stopped while streaming.
    const res = await gw.request({ url: `${srv.origin}/big?bytes=200000&length=no` });
    const e2 = await fails(readAll(res));
    expect(e2.reason).toBe('byte-limit');
    expect(e2.rule).toBe('maxResponseBytes');
  });

  it('a request may only tighten the limit', async () => {
    const gw = gateway();
    const res = await gw.request({
      url: `${srv.origin}/big?bytes=50000&length=no`,
      maxResponseBytes: 10_000,
    });
    expect((await fails(readAll(res))).reason).toBe('byte-limit');
  });

  it('enforces the sandbox byte budget across requests', async () => {
    const gw = gateway({ limits: { maxSandboxBytes: 300_000 } });
    await readAll(await gw.request({ url: `${srv.origin}/big?bytes=200000` }));
    const res = await gw.request({ url: `${srv.origin}/big?bytes=200000&length=no` });
    const err = await fails(readAll(res));
    expect(err).toMatchObject({ reason: 'byte-limit', rule: 'maxSandboxBytes' });
  });

  it('limits request bodies', async () => {
    const gw = gateway({ limits: { maxRequestBytes: 1000 } });
    const err = await fails(
      gw.request({ url: `${srv.origin}/echo`, method: 'POST', body: new Uint8Array(2000) }),
    );
    expect(err.reason).toBe('byte-limit');
    async function* big(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < 10; i++) yield new Uint8Array(500);
    }
    const err2 = await fails(echo(gw, { method: 'POST', body: big() }));
    expect(err2.reason).toBe('byte-limit');
  });

  it('times out a slow answer', async () => {
    const gw = gateway({ limits: { totalTimeoutMs: 200 } });
    const t0 = Date.now();
    const err = await fails(gw.request({ url: `${srv.origin}/slow?ms=5000` }));
    expect(err.reason).toBe('timeout');
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  it('times out a connection that never completes (TLS handshake unanswered)', async () => {
    const silent = createNetServer(() => {});
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as AddressInfo).port;
    try {
      const gw = gateway({
        limits: { connectTimeoutMs: 200 },
        policy: { allowedHosts: [`127.0.0.1:${port}`] },
      });
      const err = await fails(gw.request({ url: `https://127.0.0.1:${port}/` }));
      expect(err).toMatchObject({ reason: 'timeout', rule: 'connectTimeoutMs' });
    } finally {
      silent.close();
    }
  });

  it('drops an unread body without an uncaught AbortError (HEAD, early close)', async () => {
    const uncaught: unknown[] = [];
    const onError = (e: unknown): void => {
      uncaught.push(e);
    };
    process.on('uncaughtException', onError);
    try {
      const gw = gateway();
      for (const method of ['HEAD', 'GET']) {
        const res = await gw.request({ url: `${srv.origin}/big?bytes=5000000`, method });
        res.close();
      }
      const redirected = await gw.request({
        url: `${srv.origin}/redirect?to=/hello`,
        followRedirects: true,
      });
      expect(await readText(redirected)).toBe('hello\n');
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      process.off('uncaughtException', onError);
    }
    expect(uncaught).toEqual([]);
  });

  it('audits a response nobody reads when it is cancelled', async () => {
    const audits: AuditRecord[] = [];
    const ctl = new AbortController();
    const gw = gateway({ onAudit: (r) => audits.push(r) });
    await gw.request({ url: `${srv.origin}/big?bytes=10000000`, signal: ctl.signal });
    ctl.abort();
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ decision: 'allow', reason: 'cancelled', status: 200 });
  });

  it('does not count time waiting for approval against the timeout', async () => {
    const waits: boolean[] = [];
    const gw = gateway({
      limits: { totalTimeoutMs: 300 },
      policy: {
        allowedHosts: [allowSrv],
        onRequest: () => new Promise((r) => setTimeout(() => r(true), 500)),
      },
    });
    const res = await gw.request({
      url: `${srv.origin}/slow?ms=100`,
      onApprovalWait: (w) => waits.push(w),
    });
    expect(await readText(res)).toBe('late');
    expect(res.approvalWaitMs).toBeGreaterThanOrEqual(450);
    expect(waits).toEqual([true, false]);
  });

  it('cancels a pending approval cleanly', async () => {
    let seenSignal: AbortSignal | null = null;
    const gw = gateway({
      policy: {
        allowedHosts: [allowSrv],
        onRequest: (info) => {
          seenSignal = info.signal;
          return new Promise(() => {});
        },
      },
    });
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 50);
    const err = await fails(gw.request({ url: `${srv.origin}/hello`, signal: ctl.signal }));
    expect(err.reason).toBe('cancelled');
    expect(seenSignal!.aborted).toBe(true);
  });

  it('cancels a transfer in the middle of the body', async () => {
    const ctl = new AbortController();
    const res = await gateway().request({
      url: `${srv.origin}/big?bytes=50000000`,
      signal: ctl.signal,
    });
    const it = res.body[Symbol.asyncIterator]();
    await it.next();
    ctl.abort();
    const err = await fails(
      (async () => {
        for (;;) if ((await it.next()).done) break;
      })(),
    );
    expect(err.reason).toBe('cancelled');
  });
});

describe('onRequest', () => {
  it('sees every request with who asked, and can deny with a reason', async () => {
    const infos: NetRequestInfo[] = [];
    const gw = gateway({
      policy: {
        allowedHosts: [allowSrv],
        onRequest: async (info) => {
          infos.push(info);
          return info.url.includes('deny')
            ? { allow: false, by: 'person', reason: 'not today' }
            : true;
        },
      },
    });
    const ok = await gw.request({
      url: `${srv.origin}/hello`,
      headers: [['Accept', '*/*']],
      context: { pid: 7, argv: ['curl', '-s', 'x'], stepId: 'step-3' },
    });
    await readAll(ok);
    expect(infos[0]).toMatchObject({
      url: `${srv.origin}/hello`,
      method: 'GET',
      headers: { accept: '*/*' },
      sandboxId: 'sb1',
      pid: 7,
      argv: ['curl', '-s', 'x'],
      stepId: 'step-3',
      hop: 0,
      listedBy: allowSrv,
    });
    const err = await fails(gw.request({ url: `${srv.origin}/deny` }));
    expect(err.reason).toBe('denied-by-approver');
    expect(err.decidedBy).toBe('person');
    expect(err.message).toBe(`network policy denied ${allowSrv}: denied by person: not today`);
    expect(srv.seen.some((s) => s.url === '/deny')).toBe(false);
  });

  it('may approve a host no entry lists (public addresses only)', async () => {
    const resolver = tableResolver({ 'site.test': ['127.0.0.1'] });
    const asked: string[] = [];
    const gw = gateway({
      resolver,
      policy: { onRequest: async (i) => (asked.push(i.url), { allow: true, by: 'person' }) },
    });
    // Approved, but the name resolves to loopback, which no entry names.
    const err = await fails(gw.request({ url: `http://site.test:${srv.port}/hello` }));
    expect(err.reason).toBe('special-address');
    expect(asked).toHaveLength(1);
  });

  it('an unlisted name is not looked up before it is approved', async () => {
    const resolver = tableResolver({ 'leak.test': ['127.0.0.1'] });
    const gw = gateway({ resolver, policy: { onRequest: async () => false } });
    await fails(gw.request({ url: 'http://secret-data.leak.test/' }));
    expect(resolver.calls).toEqual([]);
  });

  it('an answer that is not a clear yes denies, and its text stays on one line', async () => {
    const answers: unknown[] = [
      undefined,
      null,
      'yes',
      { allow: 'true' },
      { allow: false, by: 'a\nb', reason: 'x\r\ny' },
    ];
    for (const answer of answers) {
      const gw = gateway({
        policy: { allowedHosts: [allowSrv], onRequest: async () => answer as boolean },
      });
      const err = await fails(gw.request({ url: `${srv.origin}/hello` }));
      expect(err.reason).toBe('denied-by-approver');
      expect(err.message).not.toMatch(/[\r\n]/);
    }
  });

  it('a throwing onRequest denies', async () => {
    const gw = gateway({
      policy: {
        allowedHosts: [allowSrv],
        onRequest: () => Promise.reject(new Error('dialog crashed')),
      },
    });
    const err = await fails(gw.request({ url: `${srv.origin}/hello` }));
    expect(err.reason).toBe('denied-by-approver');
    expect(err.message).toContain('dialog crashed');
  });
});

describe('redirects', () => {
  const to = (target: string, status = 302): string =>
    `${srv.origin}/redirect?status=${status}&to=${encodeURIComponent(target)}`;

  it('returns a redirect as is unless asked to follow', async () => {
    const res = await gateway().request({ url: to('/hello') });
    expect(res.status).toBe(302);
    expect(await readText(res)).toBe('moved');
  });

  it('follows redirects, asking onRequest and auditing every hop', async () => {
    const audits: AuditRecord[] = [];
    const hops: number[] = [];
    const gw = gateway({
      onAudit: (r) => audits.push(r),
      policy: { allowedHosts: [allowSrv], onRequest: async (i) => (hops.push(i.hop), true) },
    });
    const res = await gw.request({ url: to(to('/hello')), followRedirects: true });
    expect(await readText(res)).toBe('hello\n');
    expect(res.redirects).toBe(2);
    expect(hops).toEqual([0, 1, 2]);
    expect(audits.map((a) => [a.hop, a.decision, a.status])).toEqual([
      [0, 'allow', 302],
      [1, 'allow', 302],
      [2, 'allow', 200],
    ]);
    expect(audits[2]).toMatchObject({ decidedBy: 'onRequest', rule: allowSrv, bytesReceived: 6 });
  });

  it('stops at the hop limit', async () => {
    const gw = gateway({ limits: { maxRedirects: 2 } });
    const err = await fails(gw.request({ url: to(to(to('/hello'))), followRedirects: true }));
    expect(err.reason).toBe('too-many-redirects');
  });

  it('303 turns POST into GET without the body; 307 keeps both', async () => {
    const gw = gateway();
    const r303 = await gw.request({
      url: to('/echo', 303),
      method: 'POST',
      body: Buffer.from('data'),
      headers: [['Content-Type', 'text/plain']],
      followRedirects: true,
    });
    const got303 = JSON.parse(await readText(r303));
    expect(got303).toMatchObject({ method: 'GET', size: 0 });
    expect(got303.rawHeaders).not.toContain('Content-Type');
    const r307 = await gw.request({
      url: to('/echo', 307),
      method: 'PUT',
      body: Buffer.from('data'),
      followRedirects: true,
    });
    expect(JSON.parse(await readText(r307))).toMatchObject({
      method: 'PUT',
      size: 4,
      body: 'data',
    });
  });

  it('drops Authorization and Cookie across origins, keeps them within one', async () => {
    const resolver = tableResolver({ 'other.test': ['127.0.0.1'] });
    const gw = gateway({ resolver, policy: { allowedHosts: [allowSrv, 'other.test'] } });
    const headers: [string, string][] = [
      ['Authorization', 'Bearer s3cret'],
      ['Cookie', 'sid=1'],
      ['X-Keep', 'yes'],
    ];
    const same = JSON.parse(
      await readText(await gw.request({ url: to('/echo'), headers, followRedirects: true })),
    );
    expect(same.rawHeaders).toEqual(expect.arrayContaining(['Authorization', 'Cookie', 'X-Keep']));
    const cross = JSON.parse(
      await readText(
        await gw.request({
          url: to(`http://other.test:${srv.port}/echo`),
          headers,
          followRedirects: true,
        }),
      ),
    );
    expect(cross.rawHeaders).toContain('X-Keep');
    expect(cross.rawHeaders).not.toContain('Authorization');
    expect(cross.rawHeaders).not.toContain('Cookie');
  });

  it('refuses to replay a streamed body to a 307', async () => {
    async function* once(): AsyncGenerator<Uint8Array> {
      yield Buffer.from('x');
    }
    const err = await fails(
      gateway().request({
        url: to('/echo', 307),
        method: 'POST',
        body: once(),
        followRedirects: true,
      }),
    );
    expect(err.reason).toBe('redirect-body');
  });
});

describe('audit', () => {
  it('records allowed and denied requests with the rule that decided', async () => {
    const audits: AuditRecord[] = [];
    const gw = gateway({
      onAudit: (r) => audits.push(r),
      policy: { allowedHosts: [allowSrv], blockedHosts: ['*.bad.test'] },
    });
    await readAll(
      await gw.request({
        url: `${srv.origin}/big?bytes=1000`,
        context: { pid: 3, argv: ['wget'], stepId: 's' },
      }),
    );
    await fails(gw.request({ url: 'http://x.bad.test/' }));
    await fails(gw.request({ url: 'http://unlisted.test/' }));
    expect(audits).toHaveLength(3);
    expect(audits[0]).toMatchObject({
      sandboxId: 'sb1',
      pid: 3,
      argv: ['wget'],
      stepId: 's',
      url: `${srv.origin}/big?bytes=1000`,
      method: 'GET',
      decision: 'allow',
      decidedBy: 'policy',
      rule: allowSrv,
      status: 200,
      bytesReceived: 1000,
      reason: null,
      addresses: ['127.0.0.1'],
    });
    expect(audits[1]).toMatchObject({
      decision: 'deny',
      rule: '*.bad.test',
      reason: 'blocked',
      status: null,
    });
    expect(audits[2]).toMatchObject({ decision: 'deny', rule: 'default', reason: 'not-allowed' });
    expect(typeof audits[0]!.time).toBe('string');
  });

  it('records a redirect hop to a bad target, and a hop over the limit', async () => {
    const audits: AuditRecord[] = [];
    const gw = gateway({ onAudit: (r) => audits.push(r), limits: { maxRedirects: 1 } });
    const hop = (to: string): string => `${srv.origin}/redirect?to=${encodeURIComponent(to)}`;
    await fails(gw.request({ url: hop('http://[::1]:1/'), followRedirects: true }));
    expect(audits.map((a) => [a.hop, a.decision, a.reason])).toEqual([
      [0, 'allow', null],
      [1, 'deny', 'special-address'],
    ]);
    audits.length = 0;
    await fails(gw.request({ url: hop(hop('/hello')), followRedirects: true }));
    expect(audits.map((a) => [a.hop, a.decision, a.reason])).toEqual([
      [0, 'allow', null],
      [1, 'allow', 'too-many-redirects'],
    ]);
  });

  it('finishes the record when a reader stops early', async () => {
    const audits: AuditRecord[] = [];
    const res = await gateway({ onAudit: (r) => audits.push(r) }).request({
      url: `${srv.origin}/big?bytes=10000000`,
    });
    for await (const _chunk of res.body) break;
    expect(audits).toHaveLength(1);
    expect(audits[0]!.bytesReceived).toBeLessThan(10_000_000);
  });
});

describe.skipIf(!hasOpenssl)('https', () => {
  let tls: LoopbackServer;
  let cert: string;
  beforeAll(async () => {
    const made = makeTestCert();
    cert = made.cert;
    tls = await startLoopbackTlsServer(made.cert, made.key);
  });
  afterAll(async () => {
    await tls.close();
  });

  const tlsGateway = (extra: Partial<GatewayOptions> = {}) =>
    gateway({
      ca: cert,
      resolver: tableResolver({ 'secure.test': ['127.0.0.1'], 'wrong.test': ['127.0.0.1'] }),
      policy: { allowedHosts: [`127.0.0.1:${tls.port}`, 'secure.test', 'wrong.test'] },
      ...extra,
    });

  it('checks the certificate against the name while connecting to the checked address', async () => {
    const res = await tlsGateway().request({ url: `https://secure.test:${tls.port}/hello` });
    expect(await readText(res)).toBe('hello\n');
  });

  it('fails on a certificate for another name', async () => {
    const err = await fails(tlsGateway().request({ url: `https://wrong.test:${tls.port}/hello` }));
    expect(err.reason).toBe('tls-failed');
  });

  it('fails on an untrusted certificate', async () => {
    const err = await fails(
      tlsGateway({ ca: undefined }).request({ url: `https://secure.test:${tls.port}/hello` }),
    );
    expect(err.reason).toBe('tls-failed');
  });
});

describe('the status line version', () => {
  it('is the server’s: 1.0 from an HTTP/1.0 server, 1.1 otherwise', async () => {
    // A raw server: Node's http server always answers 1.1.
    const old = createNetServer((socket) => {
      socket.once('data', () => socket.end('HTTP/1.0 200 OK\r\nContent-Length: 4\r\n\r\nold\n'));
    });
    await new Promise<void>((resolve) => old.listen(0, '127.0.0.1', resolve));
    const port = (old.address() as AddressInfo).port;
    try {
      const gw = gateway({ policy: { allowedHosts: [allowSrv, `127.0.0.1:${port}`] } });
      const res = await gw.request({ url: `http://127.0.0.1:${port}/` });
      expect(res.httpVersion).toBe('1.0');
      expect(await readText(res)).toBe('old\n');
      const now = await gw.request({ url: `${srv.origin}/hello` });
      expect(now.httpVersion).toBe('1.1');
      await readText(now);
    } finally {
      await new Promise((resolve) => old.close(resolve));
    }
  });
});
