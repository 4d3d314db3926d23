// The policy language: entries parse to the rules they spell, malformed ones
// fail with a message naming them, and the checks rank blocked over allowed.
import { describe, expect, it } from 'vitest';
import { classifyAddress, parseAddress, type IpAddress } from './address.js';
import type { NetError } from './denial.js';
import { parseHostEntry, type HostRule } from './hostEntry.js';
import { CompiledPolicy, networkPolicySchema, PolicyError } from './policy.js';
import { parseTarget } from './target.js';

function rule(text: string): HostRule {
  const parsed = parseHostEntry(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.rule;
}

function addr(text: string): IpAddress {
  return parseAddress(text) as IpAddress;
}

describe('host entries', () => {
  it.each([
    ['*', { kind: 'any-public' }],
    ['example.com', { kind: 'name', name: 'example.com', port: null }],
    ['Example.COM.', { kind: 'name', name: 'example.com', port: null }],
    ['example.com:8443', { kind: 'name', name: 'example.com', port: 8443 }],
    ['bücher.example', { kind: 'name', name: 'xn--bcher-kva.example', port: null }],
    ['*.example.com', { kind: 'suffix', suffix: 'example.com', port: null }],
    ['*.Example.com:443', { kind: 'suffix', suffix: 'example.com', port: 443 }],
    [' api.test ', { kind: 'name', name: 'api.test', port: null }],
  ])('%s', (text, expected) => {
    expect(rule(text)).toMatchObject(expected);
  });

  it.each([
    ['10.0.0.5', '10.0.0.5', 32, null],
    ['10.0.0.5:8080', '10.0.0.5', 32, 8080],
    ['127.1', '127.0.0.1', 32, null],
    ['::1', '::1', 128, null],
    ['[::1]:8080', '::1', 128, 8080],
    ['[::ffff:127.0.0.1]:80', '127.0.0.1', 32, 80],
    ['10.0.0.0/8', '10.0.0.0', 8, null],
    ['fd00::/8', 'fd00::', 8, null],
    ['::ffff:10.0.0.0/104', '10.0.0.0', 8, null],
    ['0.0.0.0/0', '0.0.0.0', 0, null],
  ])('address entry %s', (text, address, bits, port) => {
    const r = rule(text);
    expect(r.kind).toBe('address');
    if (r.kind !== 'address') return;
    expect(r.range[0].toString()).toBe(parseAddress(address)!.toString());
    expect(r.range[1]).toBe(bits);
    expect(r.port).toBe(port);
  });

  it.each([
    ['', 'empty entry'],
    ['http://example.com', 'not a URL'],
    ['user@example.com', 'user names'],
    ['example.com/path', 'not an IP address'],
    ['example.com:0', 'port "0"'],
    ['example.com:65536', 'port "65536"'],
    ['example.com:http', 'port "http"'],
    ['foo.*.com', 'wildcard may only open'],
    ['*example.com', 'wildcard may only open'],
    ['*.10.0.0.1', 'names, not to IP addresses'],
    ['10.0.0.0/33', 'prefix length "33"'],
    ['10.0.0.0/8:80', 'prefix length "8:80"'],
    ['10.1/8', 'not an IP address'],
    ['[example.com]:80', 'brackets are for IPv6'],
    ['[::1', 'not an IPv6 address'],
    ['::1:80:zz', 'not an IPv6 address'],
    ['a..b', 'empty label'],
    ['exa mple.com', 'whitespace'],
    ['bad\nentry', 'whitespace'],
    ['ex#ample.com', 'not a host name'],
  ])('rejects %j', (text, why) => {
    const parsed = parseHostEntry(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.error).toContain(why);
      expect(parsed.error).toContain(JSON.stringify(text));
      expect(parsed.error).not.toContain('\n');
    }
  });
});

describe('the policy schema', () => {
  it('validates entries and names the bad one', () => {
    expect(networkPolicySchema().safeParse({ allowedHosts: ['a.test', '*.b.test'] }).success).toBe(
      true,
    );
    expect(() => CompiledPolicy.from({ allowedHosts: ['ok.test', 'http://bad'] })).toThrow(
      /allowedHosts\.1: "http:\/\/bad": an entry names a host, not a URL/,
    );
    expect(() => CompiledPolicy.from({ blockedHosts: 'x' })).toThrow(PolicyError);
    expect(() => CompiledPolicy.from({ allowedHost: ['typo'] })).toThrow(/allowedHost/);
    expect(() => CompiledPolicy.from({ onRequest: 'yes' })).toThrow(/onRequest must be a function/);
    // Empty lists do not let a bad onRequest or an unknown key past the schema.
    expect(() => CompiledPolicy.from({ allowedHosts: [], onRequest: 1 })).toThrow(
      /onRequest must be a function/,
    );
    expect(() => CompiledPolicy.from({ allowedHosts: [], deny: [] })).toThrow(/deny/);
  });

  it('an empty policy skips the schema and compiles as the schema would', () => {
    const policies = [
      {},
      { allowedHosts: [], blockedHosts: [] },
      { allowedHosts: [], onRequest: () => Promise.resolve(true) },
      {
        allowedHosts: ['a.test', '*.b.test', '10.0.0.0/8', '[::1]:8080'],
        blockedHosts: ['c.test'],
      },
      { allowedHosts: ['*'], onRequest: () => Promise.resolve(true) },
    ];
    for (const policy of policies) {
      const fast = CompiledPolicy.from(policy);
      // A copy with a prototype of its own goes through the schema.
      const viaSchema = CompiledPolicy.from(Object.assign(Object.create({}) as object, policy));
      expect(fast.allowed).toEqual(viaSchema.allowed);
      expect(fast.blocked).toEqual(viaSchema.blocked);
      expect(fast.onRequest).toBe(viaSchema.onRequest);
    }
  });

  it('an absent policy denies everything', () => {
    const p = CompiledPolicy.from(undefined);
    const t = parseTarget('http://example.com/');
    expect(p.checkName(t)).toBeNull();
    expect(p.resolvesUnlisted).toBe(false);
    expect(p.notAllowed(t)).toMatchObject({ reason: 'not-allowed', rule: 'default' });
  });
});

describe('checks', () => {
  const denied = (fn: () => unknown): NetError => {
    try {
      fn();
    } catch (e) {
      return e as NetError;
    }
    throw new Error('expected a denial');
  };

  it('blocked names win over allowed ones, and apply before any lookup', () => {
    const p = CompiledPolicy.from({
      allowedHosts: ['*'],
      blockedHosts: ['*.ads.test', 'x.test:8080'],
    });
    expect(denied(() => p.checkName(parseTarget('http://a.ADS.test/'))).rule).toBe('*.ads.test');
    expect(denied(() => p.checkName(parseTarget('http://x.test:8080/'))).reason).toBe('blocked');
    expect(p.checkName(parseTarget('http://x.test/'))?.text).toBe('*');
    expect(p.checkName(parseTarget('http://ads.test/'))?.text).toBe('*');
  });

  it('special addresses need an entry naming them; * does not', () => {
    const p = CompiledPolicy.from({ allowedHosts: ['*', '10.1.0.0/16', '[::1]:8080'] });
    const t = (u: string) => parseTarget(u);
    expect(() => p.checkAddresses(t('http://10.1.2.3/'), [addr('10.1.2.3')])).not.toThrow();
    expect(denied(() => p.checkAddresses(t('http://10.2.0.1/'), [addr('10.2.0.1')])).rule).toBe(
      'special:private',
    );
    expect(() => p.checkAddresses(t('http://[::1]:8080/'), [addr('::1')])).not.toThrow();
    expect(denied(() => p.checkAddresses(t('http://[::1]:8081/'), [addr('::1')])).reason).toBe(
      'special-address',
    );
    const pub = t('http://site.test/');
    expect(p.allowedBy(pub, [addr('93.184.215.14')], null)?.text).toBe('*');
    expect(p.allowedBy(pub, [addr('10.1.0.9')], null)?.text).toBe('10.1.0.0/16');
  });

  it('blocked ranges catch resolved addresses, IPv4-mapped ones too', () => {
    const p = CompiledPolicy.from({
      allowedHosts: ['*'],
      blockedHosts: ['203.0.113.0/24', '8.8.8.8'],
    });
    const t = parseTarget('http://dns.test/');
    expect(denied(() => p.checkAddresses(t, [addr('::ffff:8.8.8.8')])).rule).toBe('8.8.8.8');
    expect(denied(() => p.checkAddresses(t, [addr('203.0.113.9')])).reason).toBe('blocked');
  });

  it('an address entry allows only that literal, not names resolving to it', () => {
    const p = CompiledPolicy.from({ allowedHosts: ['127.0.0.1:8080'] });
    expect(p.resolvesUnlisted).toBe(false);
    const lit = parseTarget('http://127.0.0.1:8080/');
    expect(p.checkName(lit)).toBeNull();
    expect(p.allowedBy(lit, [lit.literal!], null)?.text).toBe('127.0.0.1:8080');
    expect(p.checkName(parseTarget('http://localhost:8080/'))).toBeNull();
  });
});

describe('address classes', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['169.254.169.254', 'cloud-metadata'],
    ['fd00:ec2::254', 'cloud-metadata'],
    ['fd00::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['64:ff9b::1.2.3.4', 'NAT64'],
    ['64:ff9b:1::1', 'NAT64'],
    ['2002:0808:0808::', 'tunnelled IPv4 (6to4/Teredo)'],
    ['::8.8.8.8', 'reserved'],
    ['100::1', 'reserved'],
    ['192.0.0.8', 'reserved'],
  ])('%s is %s', (text, expected) => {
    const c = classifyAddress(addr(text));
    expect(c.kind === 'public' ? 'public' : c.category).toBe(expected);
  });

  it('accepts only canonical spellings (URL parsing expands the others first)', () => {
    expect(parseAddress('127.1')).toBeNull();
    expect(parseAddress('0x7f000001')).toBeNull();
    expect(parseAddress('fe80::1%eth0')).toBeNull();
    expect(parseAddress('example.com')).toBeNull();
  });
});
