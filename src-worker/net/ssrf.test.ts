// The SSRF suite: every spelling of an inside address, DNS answers pointing
// inside, rebinding, redirects to private hosts and header smuggling. Names
// resolve only through a table, and a guard on the connector fails the test
// before any connection to an address other than loopback could be made.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NetError, type NetReason } from './denial.js';
import { NetworkGateway, type NetRequest } from './gateway.js';
import type { NetworkPolicy } from './policy.js';
import { startLoopbackServer, type LoopbackServer } from './testing/loopbackServer.js';
import { readText, tableResolver } from './testing/tables.js';
import type * as PinnedAgentModule from './node/pinnedAgent.js';

vi.mock('./node/pinnedAgent.js', async (importOriginal) => {
  const real = await importOriginal<typeof PinnedAgentModule>();
  return {
    responseVersion: real.responseVersion,
    connectionEnds: real.connectionEnds,
    pinnedAgent: (opts: Parameters<typeof real.pinnedAgent>[0]) => {
      const outside = opts.addresses.filter((a) => a.toString() !== '127.0.0.1');
      if (outside.length > 0) throw new Error(`TEST GUARD: would connect to ${outside.join(', ')}`);
      return real.pinnedAgent(opts);
    },
  };
});

let srv: LoopbackServer;
beforeAll(async () => {
  srv = await startLoopbackServer();
});
afterAll(() => srv.close());

// Answers for the names the cases use. Public-looking answers come from
// ranges no test can reach (the guard refuses them anyway).
const DNS = {
  'example.com': ['93.184.215.14'],
  localhost: ['127.0.0.1'],
  'inside.test': ['127.0.0.1'],
  'private.test': ['10.1.2.3'],
  'mixed.test': ['93.184.215.14', '10.0.0.1'],
  'meta.test': ['::ffff:169.254.169.254'],
  'v6meta.test': ['fd00:ec2::254'],
  'zone.test': ['fe80::1%eth0'],
  'empty.test': [],
  'junk.test': ['not-an-address'],
  'nat64.test': ['64:ff9b::a9fe:a9fe'],
  'evil.test': ['10.9.9.9'],
  'metadata.google.internal': ['169.254.169.254'],
  'linklocal.test': ['fe80::1'],
};

// `*` and example.com: names are looked up, public hosts allowed, nothing special named.
const OPEN: NetworkPolicy = { allowedHosts: ['*', 'example.com'] };

interface Case {
  url: string | (() => string);
  reason: NetReason;
  /** Text the one-line message must contain (the rule, the address). */
  says?: string;
  policy?: NetworkPolicy;
  req?: Partial<NetRequest>;
}

const special = (url: string, says: string): Case => ({ url, reason: 'special-address', says });

const CASES: Record<string, Case> = {
  // Every spelling of loopback and the unspecified address.
  'dotted loopback': special('http://127.0.0.1/', '127.0.0.1 is a loopback address'),
  'short form 127.1': special('http://127.1/', '127.0.0.1 is a loopback'),
  'decimal 2130706433': special('http://2130706433/', '127.0.0.1 is a loopback'),
  'hex 0x7f000001': special('http://0x7f000001/', '127.0.0.1 is a loopback'),
  'octal 0177.0.0.1': special('http://0177.0.0.1/', '127.0.0.1 is a loopback'),
  'mixed 0x7f.1': special('http://0x7f.1/', '127.0.0.1 is a loopback'),
  'octal with zeros 0177.00.00.01': special('http://0177.00.00.01/', '127.0.0.1 is a loopback'),
  'other loopback 127.45.6.7': special('http://127.45.6.7:8080/', '127.45.6.7 is a loopback'),
  'IPv4-mapped IPv6': special('http://[::ffff:127.0.0.1]/', '127.0.0.1 is a loopback'),
  'IPv4-mapped IPv6 in hex': special('http://[::ffff:7f00:1]/', '127.0.0.1 is a loopback'),
  'IPv6 loopback': special('http://[::1]/', '::1 is a loopback'),
  'IPv6 loopback long form': special('http://[0:0:0:0:0:0:0:1]:80/', '::1 is a loopback'),
  'unspecified 0.0.0.0': special('http://0.0.0.0/', '0.0.0.0 is an unspecified'),
  'unspecified as 0': special('http://0/', '0.0.0.0 is an unspecified'),
  'IPv6 unspecified': special('http://[::]/', ':: is an unspecified'),
  'trailing dot on an address': special('http://127.0.0.1./', 'loopback'),
  'localhost by name': special('http://LOCALHOST/', 'localhost resolves to it'),
  'localhost with a trailing dot': special('http://localhost./', 'loopback'),
  'fullwidth digits (IDNA)': special('http://１２７.０.０.１/', '127.0.0.1 is a loopback'),
  'percent-encoded host': special('http://%31%32%37.0.0.1/', '127.0.0.1 is a loopback'),
  'https default port': special('https://127.0.0.1/', '127.0.0.1:443'),
  'upper-case hex 0X7F000001': special('http://0X7F000001/', '127.0.0.1 is a loopback'),
  'hex parts 0x7f.0x0.0x0.0x1': special('http://0x7f.0x0.0x0.0x1/', '127.0.0.1 is a loopback'),
  'octal in one number 017700000001': special('http://017700000001/', '127.0.0.1 is a loopback'),
  'zero-padded parts 127.000.000.001': special('http://127.000.000.001/', '127.0.0.1 is a'),
  'ideographic full stops (IDNA)': special('http://127。0。0。1/', '127.0.0.1 is a loopback'),
  'upper-case scheme': special('HTTP://127.0.0.1/', '127.0.0.1 is a loopback'),
  'percent-encoded name': special('http://%6c%6f%63%61%6c%68%6f%73%74/', 'localhost resolves'),
  'mapped loopback, full form': special('http://[0:0:0:0:0:ffff:127.0.0.1]/', '127.0.0.1 is a'),
  'mapped loopback on a port': special(
    'http://[::ffff:127.0.0.1]:8080/',
    ':8080: 127.0.0.1 is a loopback',
  ),
  'mapped unspecified': special('http://[::ffff:0.0.0.0]/', '0.0.0.0 is an unspecified'),
  'IPv6 loopback in upper case and zeros': special('http://[0000::0001]/', '::1 is a loopback'),
  'IPv6 zone id': { url: 'http://[fe80::1%25eth0]/', reason: 'bad-url' },
  'IPv6 zone id on loopback': { url: 'http://[::1%251]/', reason: 'bad-url' },
  'mapped shorthand is no address': { url: 'http://[::ffff:127.1]/', reason: 'bad-url' },
  'encoded @ in the host': { url: 'http://example.com%40127.0.0.1/', reason: 'bad-url' },
  'encoded slash in the host': { url: 'http://127.0.0.1%2f@example.com/', reason: 'bad-url' },
  'tab in the host': special('http://127.0.\t0.1/', '127.0.0.1 is a loopback'),
  'userinfo that looks like a host:port': {
    url: 'http://127.0.0.1:80@example.com/',
    reason: 'bad-url',
    says: 'credentials',
  },
  // Cloud metadata endpoints.
  'AWS/GCP/Azure metadata': special('http://169.254.169.254/latest/meta-data/', 'cloud-metadata'),
  'metadata in decimal': special('http://2852039166/', '169.254.169.254 is a cloud-metadata'),
  'metadata IPv4-mapped': special('http://[::ffff:169.254.169.254]/', 'cloud-metadata'),
  'AWS IPv6 metadata': special('http://[fd00:ec2::254]/', 'cloud-metadata'),
  'Alibaba metadata': special('http://100.100.100.200/', 'cloud-metadata'),
  'metadata in hex': special('http://0xa9fea9fe/', '169.254.169.254 is a cloud-metadata'),
  'metadata in hex parts': special('http://0xA9.0xFE.0xA9.0xFE/', '169.254.169.254 is a'),
  'metadata in octal': special('http://0251.0376.0251.0376/', '169.254.169.254 is a'),
  'metadata as a.b.c': special('http://169.254.43518/', '169.254.169.254 is a cloud-metadata'),
  'metadata with a trailing dot': special('http://169.254.169.254./', 'cloud-metadata'),
  'metadata mapped in hex': special('http://[::ffff:a9fe:a9fe]/', 'cloud-metadata'),
  'GCP metadata by name': special('http://metadata.google.internal/', 'cloud-metadata'),
  'ECS task metadata': special('http://169.254.170.2/v2/credentials', 'cloud-metadata'),
  'metadata via NAT64': special('http://[64:ff9b::a9fe:a9fe]/', 'NAT64'),
  // Private, link-local, unique-local and other special ranges.
  '10/8': special('http://10.0.0.1/', '10.0.0.1 is a private'),
  '172.16/12': special('http://172.16.5.4/', 'private'),
  '192.168/16': special('http://192.168.1.1/', 'private'),
  'private in hex parts': special('http://0x0a.0x00.0x00.0x01/', '10.0.0.1 is a private'),
  'link-local IPv4': special('http://169.254.1.1/', 'link-local'),
  'link-local IPv6': special('http://[fe80::1]/', 'link-local'),
  'unique-local fd00::/8': special('http://[fd12:3456::1]/', 'unique-local'),
  'unique-local fc00::/7': special('http://[fc00::1]/', 'unique-local'),
  'multicast IPv4': special('http://224.0.0.1/', 'multicast'),
  'multicast IPv6': special('http://[ff02::1]/', 'multicast'),
  'multicast SSDP': special('http://239.255.255.250:1900/', 'multicast'),
  'multicast IPv6 site-local': special('http://[ff05::1:3]/', 'multicast'),
  'unique-local fd00::1': special('http://[fd00::1]/', 'unique-local'),
  'private 172.31.255.255': special('http://172.31.255.255/', 'private'),
  'link-local in a name answer': special('http://linklocal.test/', 'link-local'),
  broadcast: special('http://255.255.255.255/', 'broadcast'),
  'carrier-grade NAT': special('http://100.64.0.1/', 'carrier-grade NAT'),
  'NAT64 of loopback': special('http://[64:ff9b::7f00:1]/', 'NAT64'),
  '6to4 of loopback': special('http://[2002:7f00:1::]/', '6to4'),
  Teredo: special('http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', 'Teredo'),
  'IPv4-compatible ::127.0.0.1': special('http://[::127.0.0.1]/', 'reserved'),
  'IPv4-translated': special('http://[::ffff:0:7f00:1]/', 'IPv4-translated'),
  'benchmarking range': special('http://198.18.0.1/', 'reserved'),
  'class E': special('http://240.0.0.1/', 'reserved'),
  'TEST-NET documentation': special('http://192.0.2.1/', 'reserved'),
  'IPv6 documentation': special('http://[2001:db8::1]/', 'reserved'),
  // DNS answers pointing inside.
  'name resolving to private': special('http://private.test/', 'private.test resolves to it'),
  'one inside answer among public ones': special('http://mixed.test/', '10.0.0.1 is a private'),
  'name resolving to mapped metadata': special('http://meta.test/', 'cloud-metadata'),
  'name resolving to IPv6 metadata': special('http://v6meta.test/', 'cloud-metadata'),
  'name resolving to NAT64 metadata': special('http://nat64.test/', 'NAT64'),
  'answer with a zone id': { url: 'http://zone.test/', reason: 'resolve-failed' },
  'empty answer': { url: 'http://empty.test/', reason: 'resolve-failed' },
  'answer that is not an address': { url: 'http://junk.test/', reason: 'resolve-failed' },
  'unknown name': { url: 'http://nowhere.test/', reason: 'resolve-failed', says: 'nowhere.test' },
  // URL tricks: the host that counts is the one WHATWG parsing finds.
  'userinfo naming an allowed host': {
    url: 'http://example.com@127.0.0.1/',
    reason: 'bad-url',
    says: 'credentials',
  },
  'userinfo with a password': { url: 'http://example.com:x@evil.test/', reason: 'bad-url' },
  'backslash before @': special('http://evil.test\\@example.com/', 'evil.test'),
  'fragment hiding the host': {
    url: 'http://evil.test#@example.com/',
    reason: 'special-address',
    says: 'evil.test',
  },
  'query hiding the host': special('http://evil.test?@example.com/', 'evil.test'),
  'port 0': { url: 'http://example.com:0/', reason: 'bad-url' },
  'empty label': { url: 'http://a..example.com/', reason: 'bad-url', says: 'empty label' },
  'file scheme': { url: 'file:///etc/passwd', reason: 'bad-url', says: 'unsupported protocol' },
  'ftp scheme': { url: 'ftp://example.com/', reason: 'bad-url' },
  'gopher scheme': { url: 'gopher://127.0.0.1:6379/_INFO', reason: 'bad-url' },
  'data URL': { url: 'data:text/plain,hi', reason: 'bad-url' },
  'not a URL': { url: 'http://[::1/', reason: 'bad-url' },
  // Policy matching: blocked wins, case, trailing dots, IDNA, ports, no DNS for unlisted names.
  'blocked name despite *': {
    url: 'http://EXAMPLE.com./',
    reason: 'blocked',
    says: 'blockedHosts entry "example.com"',
    policy: { allowedHosts: ['*', 'example.com'], blockedHosts: ['example.com'] },
  },
  'blocked wildcard, any depth and case': {
    url: 'http://a.B.Evil.Test./x',
    reason: 'blocked',
    says: '"*.evil.test"',
    policy: { allowedHosts: ['a.b.evil.test'], blockedHosts: ['*.evil.test'] },
  },
  'blocked IDNA name written in Unicode': {
    url: 'http://xn--exmple-cua.com/',
    reason: 'blocked',
    says: 'EXÄMPLE.com',
    policy: { allowedHosts: ['*'], blockedHosts: ['EXÄMPLE.com'] },
  },
  'blocked range beats the same range allowed': {
    url: 'http://10.1.1.1/',
    reason: 'blocked',
    says: '"10.0.0.0/8" (address 10.1.1.1)',
    policy: { allowedHosts: ['10.0.0.0/8'], blockedHosts: ['10.0.0.0/8'] },
  },
  'blocked range catches a name that resolves into it': {
    url: 'http://example.com/',
    reason: 'blocked',
    says: '93.0.0.0/8',
    policy: { allowedHosts: ['example.com'], blockedHosts: ['93.0.0.0/8'] },
  },
  'blocked * beats allowed *': {
    url: 'http://example.com/',
    reason: 'blocked',
    says: '"*"',
    policy: { allowedHosts: ['*'], blockedHosts: ['*'] },
  },
  'blocked port only': {
    url: 'http://example.com:8443/',
    reason: 'blocked',
    policy: { allowedHosts: ['example.com'], blockedHosts: ['example.com:8443'] },
  },
  'loopback named on another port': {
    url: () => `http://127.0.0.1:${srv.port}/hello`,
    reason: 'special-address',
    policy: { allowedHosts: ['127.0.0.1:1'] },
  },
  'loopback named, but the name is not listed': {
    url: () => `http://inside.test:${srv.port}/hello`,
    reason: 'not-allowed',
    says: 'default',
    policy: { allowedHosts: ['127.0.0.0/8'] },
  },
  'allowed name on another port': {
    url: 'http://example.com:8080/',
    reason: 'not-allowed',
    policy: { allowedHosts: ['example.com:443'] },
  },
  'wildcard does not cover the bare domain': {
    url: 'http://evil.test/',
    reason: 'not-allowed',
    policy: { allowedHosts: ['*.evil.test'] },
  },
  'suffix lookalike': {
    url: 'http://notevil.test/',
    reason: 'not-allowed',
    policy: { allowedHosts: ['*.evil.test'] },
  },
  'default deny': { url: 'http://example.com/', reason: 'not-allowed', policy: {} },
  '* is not loopback': special('http://[::1]:8080/', '::1'),
  // Header and method smuggling.
  'CRLF in a header value': {
    url: 'http://example.com/',
    reason: 'bad-header',
    req: { headers: [['X-A', 'x\r\nHost: evil.test']] },
  },
  'bare LF in a header value': {
    url: 'http://example.com/',
    reason: 'bad-header',
    req: { headers: [['X-A', 'x\nY: z']] },
  },
  'NUL in a header value': {
    url: 'http://example.com/',
    reason: 'bad-header',
    req: { headers: [['X-A', 'a\0b']] },
  },
  'colon in a header name': {
    url: 'http://example.com/',
    reason: 'bad-header',
    req: { headers: [['Host:evil', 'x']] },
  },
  'space in a header name': {
    url: 'http://example.com/',
    reason: 'bad-header',
    req: { headers: [['X A', 'x']] },
  },
  'second Host header': {
    url: 'http://example.com/',
    reason: 'bad-header',
    says: 'more than one Host',
    req: {
      headers: [
        ['Host', 'example.com'],
        ['host', 'example.com'],
      ],
    },
  },
  'Host naming another host': {
    url: 'http://example.com/',
    reason: 'bad-header',
    says: 'does not name',
    req: { headers: [['Host', '169.254.169.254']] },
  },
  'Host with userinfo': {
    url: 'http://example.com/',
    reason: 'bad-header',
    says: 'does not name',
    req: { headers: [['Host', 'example.com@169.254.169.254']] },
  },
  'Host with a path': {
    url: 'http://example.com/',
    reason: 'bad-header',
    says: 'does not name',
    req: { headers: [['Host', 'example.com/x']] },
  },
  'Host naming another port': {
    url: 'http://example.com/',
    reason: 'bad-header',
    says: 'does not name',
    req: { headers: [['Host', 'example.com:8080']] },
  },
  'Host spelled short for a loopback URL is still loopback': {
    url: 'http://127.0.0.1:1/',
    reason: 'special-address',
    says: '127.0.0.1 is a loopback',
    req: { headers: [['Host', '127.1:1']] },
  },
  'Transfer-Encoding from a program': {
    url: 'http://example.com/',
    reason: 'bad-header',
    req: { headers: [['Transfer-Encoding', 'chunked']] },
  },
  'Connection from a program': {
    url: 'http://example.com/',
    reason: 'bad-header',
    req: { headers: [['Connection', 'Upgrade']] },
  },
  'Content-Length list': {
    url: 'http://example.com/',
    reason: 'bad-header',
    req: { headers: [['Content-Length', '5, 6']] },
  },
  'request line in the method': {
    url: 'http://example.com/',
    reason: 'bad-method',
    req: { method: 'GET / HTTP/1.1\r\nHost: evil.test\r\n\r\nGET' },
  },
  'CONNECT tunnel': {
    url: 'http://example.com/',
    reason: 'bad-method',
    req: { method: 'CONNECT' },
  },
  // curl --resolve / --connect-to: the place connected to faces every check
  // a request to it would, and the URL's host must pass as well.
  ...connectToCases(),
};

function connectToCases(): Record<string, Case> {
  const to = (host: string, port = 80): Partial<NetRequest> => ({ connectTo: { host, port } });
  const via = (host: string, says: string, port = 80): Case => ({
    url: 'http://example.com/',
    reason: 'special-address',
    says,
    req: to(host, port),
  });
  return {
    'connectTo loopback': via('127.0.0.1', '127.0.0.1 is a loopback'),
    'connectTo loopback on the test port': {
      url: 'http://example.com/',
      reason: 'special-address',
      says: '127.0.0.1 is a loopback',
      req: { connectTo: { host: '127.0.0.1', port: srvPort() } },
    },
    'connectTo loopback in decimal': via('2130706433', '127.0.0.1 is a loopback'),
    'connectTo loopback in hex': via('0x7f.1', '127.0.0.1 is a loopback'),
    'connectTo 0': via('0', '0.0.0.0 is an unspecified'),
    'connectTo [::]': via('::', ':: is an unspecified'),
    'connectTo ::1 without brackets': via('::1', '::1 is a loopback'),
    'connectTo [::1] with brackets': via('[::1]', '::1 is a loopback'),
    'connectTo mapped metadata': via('::ffff:169.254.169.254', 'cloud-metadata'),
    'connectTo metadata': via('169.254.169.254', 'cloud-metadata'),
    'connectTo metadata on 8080': via('169.254.169.254', ':8080: 169.254.169.254', 8080),
    'connectTo a name that resolves inside': via('localhost', 'localhost resolves to it'),
    'connectTo a private name': via('private.test', '10.1.2.3 is a private'),
    'connectTo a name with one bad answer': via('mixed.test', '10.0.0.1 is a private'),
    'connectTo NAT64 metadata': via('64:ff9b::a9fe:a9fe', 'NAT64'),
    'connectTo a link-local IPv6 name': via('linklocal.test', 'link-local'),
    'connectTo a zone id': {
      url: 'http://example.com/',
      reason: 'bad-url',
      req: to('fe80::1%eth0'),
    },
    'connectTo with a path': { url: 'http://example.com/', reason: 'bad-url', req: to('a/b') },
    'connectTo with userinfo': {
      url: 'http://example.com/',
      reason: 'bad-url',
      req: to('example.com@127.0.0.1'),
    },
    'connectTo port 0': {
      url: 'http://example.com/',
      reason: 'bad-url',
      req: to('example.com', 0),
    },
    'connectTo port 70000': {
      url: 'http://example.com/',
      reason: 'bad-url',
      req: to('example.com', 70000),
    },
    'a name entry does not move to an unlisted public address': {
      url: 'http://api.test/',
      reason: 'not-allowed',
      says: 'network policy denied 93.184.215.14:80',
      policy: { allowedHosts: ['api.test'] },
      req: to('93.184.215.14'),
    },
    'a name entry does not move to an unlisted name': {
      url: 'http://api.test/',
      reason: 'not-allowed',
      policy: { allowedHosts: ['api.test'] },
      req: to('example.com'),
    },
    'an approval does not open the place': {
      url: 'http://api.test/',
      reason: 'not-allowed',
      says: 'network policy denied 93.184.215.14:80',
      policy: { onRequest: () => Promise.resolve(true) },
      req: to('93.184.215.14'),
    },
    'an approval does not open a loopback place': {
      url: 'http://api.test/',
      reason: 'special-address',
      policy: { onRequest: () => Promise.resolve(true) },
      req: { connectTo: { host: '127.0.0.1', port: srvPort() } },
    },
    'a blocked URL name to an allowed place': {
      url: 'http://x.evil.test:9/',
      reason: 'blocked',
      policy: { allowedHosts: ['127.0.0.1:9'], blockedHosts: ['*.evil.test'] },
      req: to('127.0.0.1', 9),
    },
    'an allowed URL to a blocked place': {
      url: 'http://example.com/',
      reason: 'blocked',
      policy: { allowedHosts: ['*'], blockedHosts: ['*.evil.test'] },
      req: to('x.evil.test'),
    },
    'an allowed place on another port than its entry': {
      url: 'http://foo.test:9/',
      reason: 'special-address',
      says: '127.0.0.1:1: 127.0.0.1 is a loopback',
      policy: { allowedHosts: ['127.0.0.1:9'] },
      req: to('127.0.0.1', 1),
    },
  };
}

/** The loopback server's port, once it runs (cases are built before). */
function srvPort(): number {
  return srv?.port ?? 1;
}

describe('SSRF: nothing reaches an inside address unless an entry names it', () => {
  for (const [name, c] of Object.entries(CASES)) {
    it(name, async () => {
      const seenBefore = srv.seen.length;
      const resolver = tableResolver(DNS);
      const gw = new NetworkGateway({ sandboxId: 'ssrf', policy: c.policy ?? OPEN, resolver });
      const url = typeof c.url === 'function' ? c.url() : c.url;
      const err = await gw.request({ url, ...c.req }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(NetError);
      expect((err as NetError).reason).toBe(c.reason);
      expect((err as NetError).message).not.toContain('\n');
      if (c.says) expect((err as NetError).message).toContain(c.says);
      expect(srv.seen.length).toBe(seenBefore);
    });
  }

  it('has at least 60 cases', () => {
    expect(Object.keys(CASES).length).toBeGreaterThanOrEqual(60);
  });

  it('looks up no name before the policy could allow it', async () => {
    const resolver = tableResolver(DNS);
    const gw = new NetworkGateway({
      sandboxId: 'ssrf',
      policy: { allowedHosts: ['example.com'], blockedHosts: ['*.evil.test'] },
      resolver,
    });
    await expect(gw.request({ url: 'http://data-to-leak.other.test/' })).rejects.toThrow(/default/);
    await expect(gw.request({ url: 'http://x.evil.test/' })).rejects.toThrow(/blocked/);
    expect(resolver.calls).toEqual([]);
  });
});

describe('connectTo (curl --resolve, --connect-to) reaches an allowed place only', () => {
  it('a name stands for an allowed address on its port', async () => {
    const resolver = tableResolver(DNS);
    const gw = new NetworkGateway({
      sandboxId: 'c',
      policy: { allowedHosts: [`127.0.0.1:${srv.port}`] },
      resolver,
    });
    const before = srv.seen.length;
    const res = await gw.request({
      url: `http://made-up.test:${srv.port}/hello`,
      connectTo: { host: '127.0.0.1', port: srv.port },
    });
    expect(await readText(res)).toBe('hello\n');
    expect(res.addresses).toEqual(['127.0.0.1']);
    // The Host header stays the URL's; nothing was looked up.
    const seen = srv.seen.slice(before);
    expect(
      seen.map((s) => s.rawHeaders[s.rawHeaders.findIndex((h) => h.toLowerCase() === 'host') + 1]),
    ).toEqual([`made-up.test:${srv.port}`]);
    expect(resolver.calls).toEqual([]);
  });

  it('another port: the place is connected to, the URL keeps its own', async () => {
    const gw = new NetworkGateway({
      sandboxId: 'c',
      policy: { allowedHosts: [`127.0.0.1:${srv.port}`] },
      resolver: tableResolver(DNS),
    });
    const res = await gw.request({
      url: 'http://made-up.test/hello',
      connectTo: { host: '127.0.0.1', port: srv.port },
    });
    expect(await readText(res)).toBe('hello\n');
    expect(res.remote?.port).toBe(srv.port);
  });

  it('applies to the first hop only: a redirect is checked where it points', async () => {
    const gw = new NetworkGateway({
      sandboxId: 'c',
      policy: { allowedHosts: [`127.0.0.1:${srv.port}`] },
      resolver: tableResolver(DNS),
    });
    const err = await gw
      .request({
        url: `http://made-up.test:${srv.port}/redirect?to=${encodeURIComponent('http://made-up.test/x')}`,
        connectTo: { host: '127.0.0.1', port: srv.port },
        followRedirects: true,
      })
      .catch((e: NetError) => e);
    expect((err as NetError).reason).toBe('not-allowed');
  });
});

describe('DNS rebinding: one lookup per hop, and the connection uses its answer', () => {
  it('an inside first answer is denied even if a second would pass', async () => {
    const resolver = tableResolver({ 'rebind.test': [['169.254.169.254'], ['127.0.0.1']] });
    const gw = new NetworkGateway({
      sandboxId: 'r',
      policy: { allowedHosts: ['rebind.test', `127.0.0.1:${srv.port}`] },
      resolver,
    });
    const err = await gw
      .request({ url: `http://rebind.test:${srv.port}/hello` })
      .catch((e: NetError) => e);
    expect((err as NetError).reason).toBe('special-address');
    expect(resolver.calls).toEqual(['rebind.test']);
  });

  it('a checked first answer is what the connection uses, whatever a second lookup says', async () => {
    const resolver = tableResolver({ 'rebind.test': [['127.0.0.1'], ['10.0.0.1']] });
    const gw = new NetworkGateway({
      sandboxId: 'r',
      policy: { allowedHosts: ['rebind.test', `127.0.0.1:${srv.port}`] },
      resolver,
    });
    const res = await gw.request({ url: `http://rebind.test:${srv.port}/hello` });
    expect(await readText(res)).toBe('hello\n');
    expect(resolver.calls).toEqual(['rebind.test']);
    // The next request looks up afresh, gets the inside answer, and is denied
    // before connecting: no answer is ever used without its own check.
    const err = await gw
      .request({ url: `http://rebind.test:${srv.port}/hello` })
      .catch((e: NetError) => e);
    expect((err as NetError).reason).toBe('special-address');
    expect(resolver.calls).toEqual(['rebind.test', 'rebind.test']);
  });
});

describe('redirects to inside hosts are checked hop by hop', () => {
  const gw = (extra: string[] = []): NetworkGateway =>
    new NetworkGateway({
      sandboxId: 'redir',
      policy: { allowedHosts: [`127.0.0.1:${srv.port}`, 'internal.test', ...extra] },
      resolver: tableResolver({ ...DNS, 'internal.test': ['10.0.0.7'] }),
    });
  const via = (to: string, status = 302): string =>
    `http://127.0.0.1:${srv.port}/redirect?status=${status}&to=${encodeURIComponent(to)}`;
  const cases: [string, string, NetReason][] = [
    ['to metadata', 'http://169.254.169.254/latest/meta-data/', 'special-address'],
    ['to IPv6 loopback', 'http://[::1]:PORT/hello', 'special-address'],
    ['to a name resolving inside', 'http://internal.test/', 'special-address'],
    ['to loopback on another port', 'http://0x7f000001:1/', 'special-address'],
    ['to an unlisted name', 'http://elsewhere.test/', 'not-allowed'],
    ['to another scheme', 'ftp://127.0.0.1/', 'bad-url'],
    ['with credentials', 'http://a:b@127.0.0.1:PORT/hello', 'bad-url'],
    ['308 to metadata', 'http://[::ffff:a9fe:a9fe]/', 'special-address'],
  ];
  for (const [name, target, reason] of cases) {
    it(name, async () => {
      const err = await gw()
        .request({
          url: via(target.replace('PORT', String(srv.port)), name.startsWith('308') ? 308 : 302),
          followRedirects: true,
        })
        .catch((e: NetError) => e);
      expect(err).toBeInstanceOf(NetError);
      expect((err as NetError).reason).toBe(reason);
    });
  }
});

describe('a redirect to every spelling of an inside address', () => {
  // The policy names the test server's own port only: each of these is
  // another port (80, 1) or another address, so every hop must be denied,
  // with every redirect status, and the server sees only the first request.
  const targets = [
    'http://127.1/',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://0177.0.0.1/',
    'http://0x7f.1/',
    'http://127.0.0.1.:1/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]:1/',
    'http://[::1]/',
    'http://[0:0:0:0:0:0:0:1]/',
    'http://0.0.0.0/',
    'http://0/',
    'http://localhost/',
    'http://LOCALHOST./',
    'http://inside.test/',
    'http://10.0.0.1/',
    'http://012.1/',
    'http://172.16.0.1/',
    'http://192.168.1.1/',
    'http://0xc0a80101/',
    'http://100.64.0.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://0xa9fea9fe/',
    'http://169.254.43518/',
    'http://0251.0376.0251.0376/',
    'http://[::ffff:a9fe:a9fe]/',
    'http://[fd00:ec2::254]/',
    'http://100.100.100.200/',
    'http://metadata.google.internal/',
    'http://[fe80::1]/',
    'http://[fc00::1]/',
    'http://[64:ff9b::a9fe:a9fe]/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    '//127.1/', // scheme-relative
    '/\\127.1/', // a backslash is a slash in http URLs
    'http:/\\127.1/',
  ];
  const statuses = [301, 302, 303, 307, 308];
  targets.forEach((to, i) => {
    const status = statuses[i % statuses.length] as number;
    it(`${status} to ${to}`, async () => {
      const seenBefore = srv.seen.length;
      const gw = new NetworkGateway({
        sandboxId: 'redir-spellings',
        policy: { allowedHosts: [`127.0.0.1:${srv.port}`, '*', 'localhost', 'inside.test'] },
        resolver: tableResolver(DNS),
      });
      const url = `http://127.0.0.1:${srv.port}/redirect?status=${status}&to=${encodeURIComponent(to)}`;
      const err = await gw.request({ url, followRedirects: true }).catch((e: NetError) => e);
      expect(err, to).toBeInstanceOf(NetError);
      expect((err as NetError).reason, to).toBe('special-address');
      expect(srv.seen.length - seenBefore, to).toBe(1);
    });
  });
});

describe('generated spellings of inside IPv4 addresses', () => {
  // A fixed-seed generator: the same 400 addresses on every run.
  let seed = 0x5eed;
  const rand = (n: number): number => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  const inside = [
    [127, 0, 0, 0, 8],
    [10, 0, 0, 0, 8],
    [172, 16, 0, 0, 12],
    [192, 168, 0, 0, 16],
    [169, 254, 0, 0, 16],
    [100, 64, 0, 0, 10],
    [0, 0, 0, 0, 8],
    [224, 0, 0, 0, 4],
  ] as const;
  const spell = (o: number[], how: number): string => {
    const n = ((o[0]! << 24) | (o[1]! << 16) | (o[2]! << 8) | o[3]!) >>> 0;
    switch (how) {
      case 0:
        return String(n);
      case 1:
        return `0x${n.toString(16)}`;
      case 2:
        return o.map((x) => `0${x.toString(8)}`).join('.');
      case 3:
        return `${o[0]}.${(n & 0xffffff) >>> 0}`;
      case 4:
        return o.map((x) => `0x${x.toString(16).toUpperCase()}`).join('.');
      default:
        return `[::ffff:${o.join('.')}]`;
    }
  };
  it('every spelling is denied as the address it is', async () => {
    const gw = new NetworkGateway({ sandboxId: 'gen', policy: OPEN, resolver: tableResolver({}) });
    const seenBefore = srv.seen.length;
    for (let i = 0; i < 400; i++) {
      const [a, b, c, d, bits] = inside[rand(inside.length)]!;
      const base = ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
      const n = (base + rand(2 ** (32 - bits))) >>> 0;
      const octets = [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
      const url = `http://${spell(octets, rand(6))}:${1 + rand(65535)}/`;
      const err = await gw.request({ url }).catch((e: NetError) => e);
      expect(err, url).toBeInstanceOf(NetError);
      expect((err as NetError).reason, url).toBe('special-address');
      expect((err as NetError).message, url).toMatch(new RegExp(`${octets.join('\\.')} is an? `));
    }
    expect(srv.seen.length).toBe(seenBefore);
  });
});
