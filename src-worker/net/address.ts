/**
 * IP addresses as the network policy sees them: parsed by ipaddr.js (never by
 * hand), IPv4-mapped IPv6 folded to IPv4, and sorted into "public" or one of
 * the special categories (loopback, private, cloud metadata, ...) that only an
 * entry naming the address or its range may allow.
 */
import ipaddr from 'ipaddr.js';

export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;

/** Why an address is not public; the words appear in denial messages. */
export type SpecialCategory =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cloud-metadata'
  | 'unique-local'
  | 'shared (carrier-grade NAT)'
  | 'multicast'
  | 'broadcast'
  | 'unspecified'
  | 'NAT64'
  | 'IPv4-translated'
  | 'tunnelled IPv4 (6to4/Teredo)'
  | 'reserved';

export type AddressClass = { kind: 'public' } | { kind: 'special'; category: SpecialCategory };

/** Parse an address string (no brackets, no port); null if it is not one. */
export function parseAddress(text: string): IpAddress | null {
  // A zone id (fe80::1%eth0) names a host interface; never meaningful here.
  if (text.includes('%')) return null;
  // ipaddr.isValid also takes the classful shorthands ("127.1", "0x7f000001")
  // that WHATWG URL already folded; here only canonical forms are expected,
  // and the four-part check keeps "10.1" from meaning 10.0.0.1 in policies.
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (!text.includes(':')) return null;
  // ipaddr.js reads "::8.8.8.8" as ::ffff:8.8.8.8; WHATWG's IPv6 parser
  // (the one every URL host went through) gives ::808:808. Use its reading.
  let canonical: string;
  try {
    canonical = new URL(`http://[${text}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
  if (ipaddr.IPv6.isValid(canonical)) return fold(ipaddr.IPv6.parse(canonical));
  return null;
}

/** IPv4-mapped IPv6 (::ffff:a.b.c.d) is the IPv4 host it maps; match and connect as that. */
export function fold(addr: IpAddress): IpAddress {
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (addr as ipaddr.IPv6).toIPv4Address();
  }
  return addr;
}

/** The canonical text of an address (RFC 5952 for IPv6). */
export function addressText(addr: IpAddress): string {
  return addr.kind() === 'ipv6' ? (addr as ipaddr.IPv6).toRFC5952String() : addr.toString();
}

// Instance-metadata endpoints of the big clouds. 169.254.0.0/16 is link-local
// anyway; naming these gives a clearer message and keeps them special even in
// ranges ipaddr.js files elsewhere (Alibaba's 100.100.100.200 is in CGNAT space,
// AWS's fd00:ec2::254 in unique-local space).
const METADATA: [IpAddress, number][] = [
  ipaddr.parseCIDR('169.254.169.254/32'),
  ipaddr.parseCIDR('169.254.170.2/32'),
  ipaddr.parseCIDR('100.100.100.200/32'),
  ipaddr.parseCIDR('192.0.0.192/32'),
  ipaddr.parseCIDR('fd00:ec2::254/128'),
];

const V4_CATEGORY: Record<string, SpecialCategory> = {
  loopback: 'loopback',
  private: 'private',
  linkLocal: 'link-local',
  carrierGradeNat: 'shared (carrier-grade NAT)',
  multicast: 'multicast',
  broadcast: 'broadcast',
  unspecified: 'unspecified',
};

const V6_CATEGORY: Record<string, SpecialCategory> = {
  loopback: 'loopback',
  linkLocal: 'link-local',
  uniqueLocal: 'unique-local',
  multicast: 'multicast',
  unspecified: 'unspecified',
  rfc6052: 'NAT64',
  rfc6145: 'IPv4-translated',
  '6to4': 'tunnelled IPv4 (6to4/Teredo)',
  teredo: 'tunnelled IPv4 (6to4/Teredo)',
};

// Global unicast is 2000::/3; everything outside it that ipaddr.js calls
// "unicast" (::a.b.c.d compatibility addresses, unassigned space) is not public.
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

export function classifyAddress(input: IpAddress): AddressClass {
  const addr = fold(input);
  if (METADATA.some(([net, bits]) => addr.kind() === net.kind() && addr.match(net, bits))) {
    return { kind: 'special', category: 'cloud-metadata' };
  }
  const range = addr.range();
  if (addr.kind() === 'ipv4') {
    if (range === 'unicast') return { kind: 'public' };
    return { kind: 'special', category: V4_CATEGORY[range] ?? 'reserved' };
  }
  const named = V6_CATEGORY[range];
  if (named) return { kind: 'special', category: named };
  if (range === 'unicast' && addr.match(GLOBAL_UNICAST_V6)) return { kind: 'public' };
  return { kind: 'special', category: 'reserved' };
}

/** Whether `addr` lies in `range` (same family only; mapped IPv6 was folded). */
export function inRange(addr: IpAddress, range: [IpAddress, number]): boolean {
  const a = fold(addr);
  return a.kind() === range[0].kind() && a.match(range);
}
