// SSRF cases that need real name resolution: run inside a private network
// namespace (`unshare -rnm`: a user, network and mount namespace, no root
// needed) whose /etc/hosts points test names inside, with only loopback up,
// so the system resolver answers and nothing can leave the machine. The
// gateway there uses its default resolver (dns.lookup), not a table.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Outcome } from './testing/namespaceProbe.js';

const HOSTS = `127.0.0.1 localhost
127.0.0.1 loop.sg-test
10.1.2.3 priv.sg-test
169.254.169.254 meta.sg-test
::1 v6loop.sg-test
0.0.0.0 zero.sg-test
100.64.0.1 cgnat.sg-test
169.254.10.20 ll.sg-test
93.184.215.14 mixed.sg-test
10.0.0.1 mixed.sg-test
93.184.215.14 public.sg-test
`;

const canUnshare =
  process.platform === 'linux' &&
  spawnSync('unshare', ['-rnm', 'true']).status === 0 &&
  spawnSync('sh', ['-c', 'command -v ip']).status === 0;

describe.skipIf(!canUnshare)('SSRF with the system resolver in a private network namespace', () => {
  it('denies every inside answer and connects only to checked addresses', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-netns-'));
    try {
      const hosts = join(dir, 'hosts');
      writeFileSync(hosts, HOSTS);
      const probe = join(import.meta.dirname, 'testing', 'namespaceProbe.ts');
      const tsx = join(process.cwd(), 'node_modules', '.bin', 'tsx');
      const script = `mount --bind "$1" /etc/hosts && ip link set lo up && exec "$2" "$3"`;
      const r = spawnSync('unshare', ['-rnm', 'sh', '-c', script, 'sh', hosts, tsx, probe], {
        encoding: 'utf8',
        timeout: 90_000,
      });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      const { port, out, seen } = JSON.parse(r.stdout) as {
        port: number;
        out: Outcome[];
        seen: string[];
      };
      const by = new Map(out.map((o) => [o.name, o]));
      const denied = (name: string, says: string): void => {
        const o = by.get(name);
        expect(o, name).toMatchObject({ reason: 'special-address' });
        expect(o?.message, name).toContain(says);
      };
      denied('name to loopback', '127.0.0.1 is a loopback address (loop.sg-test resolves to it)');
      denied('name to private', '10.1.2.3 is a private address');
      denied('name to metadata', '169.254.169.254 is a cloud-metadata address');
      denied('name to IPv6 loopback', '::1 is a loopback address');
      denied('name to unspecified', '0.0.0.0 is an unspecified address');
      denied('name to carrier-grade NAT', 'carrier-grade NAT');
      denied('name to link-local', 'link-local');
      denied('one inside answer among public ones', '10.0.0.1 is a private address');
      denied('localhost', 'loopback');
      denied('name entry does not open its inside answer', 'loopback');
      denied('redirect from an allowed host to a name pointing inside', '10.1.2.3 is a private');
      denied('redirect to a name pointing at metadata', 'cloud-metadata');
      expect(by.get('unknown name')).toMatchObject({ reason: 'resolve-failed' });
      // The namespace has no route out: the connection fails inside it.
      expect(['connect-failed', 'timeout']).toContain(
        by.get('public answer: no route out of the namespace')?.reason,
      );
      expect(by.get('allowed name and address: connects to the checked address')).toMatchObject({
        status: 200,
      });
      // Only the allowed request and the two redirecting hops reached the server.
      expect(seen).toEqual([
        '/hello',
        `/redirect?to=${encodeURIComponent(`http://priv.sg-test:${port}/hello`)}`,
        `/redirect?to=${encodeURIComponent('http://meta.sg-test/')}`,
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
