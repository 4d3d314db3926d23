/**
 * One allowedHosts/blockedHosts entry, parsed into a rule: `*`, `host`,
 * `host:port`, `*.example.com[:port]`, an IP literal (`10.0.0.5[:port]`,
 * `::1`, `[::1]:8080`) or a CIDR range (`10.0.0.0/8`, `fd00::/8`). Names go
 * through WHATWG URL host parsing, so an entry means exactly what the same
 * spelling in a URL means (case, IDNA, `127.1`).
 */
import { fold, parseAddress, type IpAddress } from './address.js';
import { quote } from './denial.js';

export type HostRule =
  /** `*`: any host whose every address is public. */
  | { kind: 'any-public'; text: string }
  /** `example.com[:port]`: that name exactly. */
  | { kind: 'name'; text: string; name: string; port: number | null }
  /** `*.example.com[:port]`: any name below example.com (not example.com itself). */
  | { kind: 'suffix'; text: string; suffix: string; port: number | null }
  /** An IP literal (a /32 or /128) or a CIDR range. */
  | { kind: 'address'; text: string; range: [IpAddress, number]; port: number | null };

export type ParsedEntry = { ok: true; rule: HostRule } | { ok: false; error: string };

const PORT = /^\d{1,5}$/;
// What may appear in a host before URL parsing: no URL delimiters, no
// whitespace or control characters; Unicode is fine (IDNA maps it).
const HOST_CHARS = /^[^\s/?#@\\[\]:%*\p{Cc}]+$/u;

export function parseHostEntry(input: string): ParsedEntry {
  const text = input.trim();
  const bad = (why: string): ParsedEntry => ({ ok: false, error: `${quote(input)}: ${why}` });
  if (text === '') return bad('empty entry');
  if (text === '*') return { ok: true, rule: { kind: 'any-public', text } };
  if (text.includes('://')) return bad('an entry names a host, not a URL (drop the scheme)');
  if (text.includes('@')) return bad('an entry names a host; user names do not belong in it');
  if (/\s/.test(text)) return bad('whitespace inside an entry');

  if (text.includes('/')) return parseCidr(text, bad);

  let host = text;
  let portText: string | null = null;
  const bracket = /^\[([^\]]*)\](?::(.*))?$/.exec(text);
  if (bracket) {
    host = bracket[1] as string;
    portText = bracket[2] ?? null;
    if (!host.includes(':')) return bad('brackets are for IPv6 addresses');
  } else if ((text.match(/:/g) ?? []).length > 1) {
    // A bare IPv6 literal; a port needs the bracketed form.
    host = text;
  } else if (text.includes(':')) {
    const at = text.lastIndexOf(':');
    host = text.slice(0, at);
    portText = text.slice(at + 1);
  }

  let port: number | null = null;
  if (portText !== null) {
    const n = PORT.test(portText) ? Number(portText) : NaN;
    if (!(n >= 1 && n <= 65535)) return bad(`port "${portText}" is not a number from 1 to 65535`);
    port = n;
  }

  if (host.includes(':')) {
    const addr = parseAddress(host);
    if (!addr) return bad(`"${host}" is not an IPv6 address`);
    return { ok: true, rule: addressRule(text, addr, port) };
  }

  if (host.startsWith('*.')) {
    const name = canonicalName(host.slice(2));
    if (typeof name !== 'string') return bad(name.error);
    if (parseAddress(name)) return bad('a wildcard applies to names, not to IP addresses');
    return { ok: true, rule: { kind: 'suffix', text, suffix: name, port } };
  }
  if (host.includes('*')) return bad(`a wildcard may only open an entry, as in "*.example.com"`);

  const name = canonicalName(host);
  if (typeof name !== 'string') return bad(name.error);
  const addr = parseAddress(name);
  if (addr) return { ok: true, rule: addressRule(text, addr, port) };
  return { ok: true, rule: { kind: 'name', text, name, port } };
}

function addressRule(text: string, addr: IpAddress, port: number | null): HostRule {
  const a = fold(addr);
  return { kind: 'address', text, range: [a, a.kind() === 'ipv4' ? 32 : 128], port };
}

function parseCidr(text: string, bad: (why: string) => ParsedEntry): ParsedEntry {
  const slash = text.indexOf('/');
  const addrText = text.slice(0, slash);
  const bitsText = text.slice(slash + 1);
  const addr = parseAddress(addrText);
  if (!addr) {
    return bad(
      `"${addrText}" is not an IP address (a range is written like 10.0.0.0/8 or fd00::/8, with no port)`,
    );
  }
  const written = addrText.includes(':') ? 'ipv6' : 'ipv4';
  const max = written === 'ipv4' ? 32 : 128;
  const bits = /^\d{1,3}$/.test(bitsText) ? Number(bitsText) : NaN;
  if (!(bits >= 0 && bits <= max)) {
    return bad(`prefix length "${bitsText}" is not a number from 0 to ${max}`);
  }
  // A range over IPv4-mapped IPv6 (::ffff:10.0.0.0/104) is the IPv4 range it maps.
  if (written === 'ipv6' && addr.kind() === 'ipv4') {
    if (bits < 96) return bad('a range over IPv4-mapped addresses needs a prefix of at least 96');
    return { ok: true, rule: { kind: 'address', text, range: [addr, bits - 96], port: null } };
  }
  return { ok: true, rule: { kind: 'address', text, range: [addr, bits], port: null } };
}

/**
 * A host name as WHATWG URL parsing spells it (lower case, IDNA to ASCII,
 * IPv4 shorthands expanded), without a trailing dot; or why it is not one.
 */
export function canonicalName(host: string): string | { error: string } {
  if (!HOST_CHARS.test(host)) return { error: `"${host}" is not a host name` };
  let parsed: string;
  try {
    parsed = new URL(`http://${host}/`).hostname;
  } catch {
    return { error: `"${host}" is not a valid host name` };
  }
  const name = parsed.endsWith('.') ? parsed.slice(0, -1) : parsed;
  if (parseAddress(name)) return name;
  const why = nameProblem(name);
  return why ? { error: why } : name;
}

/** Why an ASCII host name (as URL gives it) cannot be looked up, or null. */
export function nameProblem(name: string): string | null {
  if (name.length === 0 || name.length > 253) return `"${name}" is not a host name`;
  for (const label of name.split('.')) {
    if (label.length === 0) return `"${name}" has an empty label`;
    if (label.length > 63) return `"${name}" has a label longer than 63 characters`;
    if (!/^[a-z0-9_-]+$/.test(label)) return `"${name}" is not a host name`;
  }
  return null;
}
