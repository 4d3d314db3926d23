/**
 * Request methods and headers as programs hand them to the gateway: checked
 * so that nothing can smuggle a second header, a second request or a second
 * Host past the policy, and trimmed of what the gateway itself controls.
 */
import { denial, quote } from './denial.js';
import type { RequestTarget } from './target.js';

export type HeaderList = [name: string, value: string][];

// RFC 9110 token characters (method and header names).
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Field values: visible ASCII, obs-text, space and tab; never CR, LF or NUL.
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

// Framing and connection management belong to the gateway's HTTP client; a
// program setting them could split or desynchronise the stream.
const GATEWAY_OWNED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'expect',
  'http2-settings',
]);

/** Headers never carried to a different origin by a redirect. */
const CREDENTIALS = new Set(['authorization', 'cookie', 'proxy-authorization']);

export function checkMethod(method: string, t: RequestTarget): string {
  if (!TOKEN.test(method)) {
    throw denial('bad-method', t.authority, `${quote(method)} is not an HTTP method`, {
      url: t.url.href,
      rule: 'method',
    });
  }
  if (method.toUpperCase() === 'CONNECT') {
    throw denial('bad-method', t.authority, 'CONNECT (tunnels) is not allowed', {
      url: t.url.href,
      rule: 'method',
    });
  }
  return method;
}

/**
 * The host a Host header names, normalised as the URL's host is (so
 * `127.1:8080`, `LOCALHOST.` or an explicit default port name the URL's
 * own host, as Python's http.client writes them), or null when it is not
 * a bare `host[:port]`.
 */
function hostHeaderHost(value: string, t: RequestTarget): string | null {
  const v = value.trim();
  if (v === '' || /[/\\@?#%\s]/.test(v)) return null;
  try {
    return new URL(`${t.url.protocol}//${v}`).host;
  } catch {
    return null;
  }
}

/**
 * Validated headers: names are tokens, values carry no CR/LF/NUL, the
 * gateway's own headers are refused, and a Host header is accepted only once
 * and only naming the URL's own host (then dropped: the client sets it).
 */
export function checkHeaders(headers: HeaderList, t: RequestTarget): HeaderList {
  const bad = (why: string): never => {
    throw denial('bad-header', t.authority, why, { url: t.url.href, rule: 'headers' });
  };
  const out: HeaderList = [];
  let hosts = 0;
  for (const [name, value] of headers) {
    if (!TOKEN.test(name)) bad(`header name ${quote(name)} is not a token`);
    if (!FIELD_VALUE.test(value)) {
      bad(`header ${name} has a control character (CR, LF or NUL) in its value`);
    }
    const lower = name.toLowerCase();
    if (GATEWAY_OWNED.has(lower)) bad(`header ${name} is set by the gateway, not by programs`);
    if (lower === 'host') {
      hosts += 1;
      if (hosts > 1) bad('more than one Host header');
      if (hostHeaderHost(value, t) !== t.url.host) {
        bad(`Host header ${quote(value)} does not name the URL's host ${t.url.host}`);
      }
      continue;
    }
    if (lower === 'content-length' && !/^\d+$/.test(value.trim())) {
      bad(`Content-Length ${quote(value)} is not a number`);
    }
    out.push([name, value.trim()]);
  }
  return out;
}

/** Headers to send on a redirect hop: credentials stay with their origin. */
export function headersForHop(
  headers: HeaderList,
  crossOrigin: boolean,
  bodyDropped: boolean,
): HeaderList {
  return headers.filter(([name]) => {
    const lower = name.toLowerCase();
    if (crossOrigin && CREDENTIALS.has(lower)) return false;
    if (bodyDropped && lower.startsWith('content-')) return false;
    return true;
  });
}

/** The form onRequest and the audit show: lower-case names, repeats joined. */
export function headerRecord(headers: HeaderList): Record<string, string> {
  // No prototype: a header named __proto__ is just a header.
  const out = Object.create(null) as Record<string, string>;
  for (const [name, value] of headers) {
    const lower = name.toLowerCase();
    const prev = Object.hasOwn(out, lower) ? out[lower] : undefined;
    out[lower] = prev === undefined ? value : `${prev}, ${value}`;
  }
  return out;
}
