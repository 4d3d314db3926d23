/**
 * What a request URL points at, normalised once with WHATWG URL parsing so
 * every spelling of a host (`127.1`, `0x7f000001`, `[::ffff:127.0.0.1]`,
 * `LOCALHOST.`, IDNA, percent-escapes, `allowed@evil`) becomes the one host
 * the connection would really go to.
 */
import { parseAddress, type IpAddress } from './address.js';
import { nameProblem } from './hostEntry.js';
import { NetError, quote } from './denial.js';

export interface RequestTarget {
  /** The URL as it will be requested (no credentials, no fragment). */
  url: URL;
  scheme: 'http' | 'https';
  /** Lower-case ASCII name or canonical address text, no brackets, no trailing dot. */
  host: string;
  port: number;
  /** Set when the host is an IP literal (IPv4-mapped IPv6 folded to IPv4). */
  literal: IpAddress | null;
  /** `host:port` as messages print it (`[::1]:8080`). */
  authority: string;
}

export function parseTarget(input: string | URL, base?: URL): RequestTarget {
  let url: URL;
  try {
    url = new URL(input, base);
  } catch {
    throw new NetError('bad-url', `${quote(String(input))} is not a valid URL`, {
      url: String(input),
    });
  }
  const scheme = url.protocol.slice(0, -1);
  if (scheme !== 'http' && scheme !== 'https') {
    throw new NetError('bad-url', `unsupported protocol ${quote(scheme)} (only http and https)`, {
      url: url.href,
    });
  }
  if (url.username !== '' || url.password !== '') {
    // Credentials in the URL are how `http://allowed@evil/` fools readers;
    // a program that means them sends an Authorization header instead.
    throw new NetError(
      'bad-url',
      'credentials in the URL are not sent; use an Authorization header',
      {
        url: redact(url),
      },
    );
  }
  url.hash = '';

  const bracketed = url.hostname.startsWith('[');
  const bare = bracketed ? url.hostname.slice(1, -1) : url.hostname;
  const host = bare.endsWith('.') ? bare.slice(0, -1) : bare;
  const literal = parseAddress(host);
  if (!literal) {
    const why = nameProblem(host);
    if (why) throw new NetError('bad-url', why, { url: url.href });
  }
  const port = url.port === '' ? (scheme === 'https' ? 443 : 80) : Number(url.port);
  if (port === 0) throw new NetError('bad-url', 'port 0 cannot be connected to', { url: url.href });
  const authority = `${bracketed ? `[${host}]` : host}:${port}`;
  return { url, scheme, host, port, literal, authority };
}

function redact(url: URL): string {
  const copy = new URL(url.href);
  copy.username = '';
  copy.password = '';
  return copy.href;
}

/** Same scheme, host and port: credentials may follow a redirect only within one origin. */
export function sameOrigin(a: RequestTarget, b: RequestTarget): boolean {
  return a.scheme === b.scheme && a.host === b.host && a.port === b.port;
}

/**
 * The request line's target: path and query as the URL spells them. WHATWG's `search` is empty
 * for a bare `?`, but curl and wget send `/path?` as written, and a server may tell them apart.
 */
export function pathAndQuery(url: URL): string {
  const bareQuery = url.search === '' && url.href.split('#')[0]!.endsWith('?');
  return `${url.pathname}${bareQuery ? '?' : url.search}`;
}
