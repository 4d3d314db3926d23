/**
 * The binary formats of the `sandglass` net syscalls (docs/abi.md, "Network"):
 * the request a program hands to `net_request`, the response head and the
 * error record `net_response` hands back, and the errno of each NetReason.
 * Pure code: the kernel's handlers and the tests use it; the Rust side
 * (crates/sandglass-sys/src/format.rs) mirrors it.
 */
import { Errno, fail } from '../base/errno.js';
import { NET_REASON_CODES, type NetError, type NetReason } from './denial.js';
import type { HeaderList } from './headers.js';

export const NET_REQUEST_VERSION = 1;

/** `flags` bits of a request. */
export const NET_FLAGS = {
  followRedirects: 1,
  /** The body comes through net_body_write (else the inline body is it). */
  streamedBody: 2,
  /** No response body expected (HEAD). */
  noBody: 4,
  /** Decode a `Content-Encoding: br` body (net/brotliBody.ts); the head stays as sent. */
  decodeBrotli: 8,
  /** A connect-to place (host, port) follows the body: curl --resolve / --connect-to. */
  connectTo: 16,
} as const;

export interface NetWireRequest {
  readonly flags: number;
  /** 0 = the gateway's default, as for the three below. */
  readonly maxRedirects: number;
  readonly timeoutMs: number;
  readonly connectTimeoutMs: number;
  readonly maxResponseBytes: number;
  readonly method: string;
  readonly url: string;
  readonly headers: HeaderList;
  readonly body: Uint8Array;
  /** Where to connect instead of the URL's host (NET_FLAGS.connectTo), or null. */
  readonly connectTo: { host: string; port: number } | null;
}

/** Headers a request may carry (each at most one string of the request buffer). */
const MAX_HEADERS = 1000;

const utf8 = new TextDecoder('utf-8', { fatal: false });
const latin1 = new TextDecoder('latin1');
const utf8Enc = new TextEncoder();

/** Latin-1 text to bytes, one byte per char (header names and values travel as bytes). */
function latin1Bytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0xff;
  return out;
}

/** Decode a request buffer; malformed is EINVAL. */
export function decodeNetRequest(b: Uint8Array): NetWireRequest {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let off = 0;
  const need = (n: number): void => {
    if (off + n > b.length) fail(Errno.EINVAL, 'truncated net request');
  };
  const u32 = (): number => {
    need(4);
    const v = dv.getUint32(off, true);
    off += 4;
    return v;
  };
  const u64 = (): number => {
    need(8);
    const v = dv.getBigUint64(off, true);
    off += 8;
    return v > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(v);
  };
  const bytes = (): Uint8Array => {
    const n = u32();
    need(n);
    const s = b.subarray(off, off + n);
    off += n;
    return s;
  };
  const version = u32();
  if (version !== NET_REQUEST_VERSION) fail(Errno.EINVAL, `net request version ${version}`);
  const flags = u32();
  const maxRedirects = u32();
  const timeoutMs = u32();
  const connectTimeoutMs = u32();
  const maxResponseBytes = u64();
  const method = latin1.decode(bytes());
  const url = utf8.decode(bytes());
  const count = u32();
  if (count > MAX_HEADERS) fail(Errno.EINVAL, 'too many headers');
  const headers: HeaderList = [];
  for (let i = 0; i < count; i++) headers.push([latin1.decode(bytes()), latin1.decode(bytes())]);
  const body = bytes().slice();
  let connectTo: NetWireRequest['connectTo'] = null;
  if ((flags & NET_FLAGS.connectTo) !== 0) {
    const host = utf8.decode(bytes());
    connectTo = { host, port: u32() };
  }
  if (off !== b.length) fail(Errno.EINVAL, 'trailing bytes in net request');
  return {
    flags,
    maxRedirects,
    timeoutMs,
    connectTimeoutMs,
    maxResponseBytes,
    method,
    url,
    headers,
    body,
    connectTo,
  };
}

/** Appends little-endian integers and length-prefixed strings. */
class Writer {
  private parts: Uint8Array[] = [];
  private size = 0;

  u32(v: number): this {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, v >>> 0, true);
    return this.push(b);
  }

  u64(v: number): this {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigUint64(0, BigInt(Math.max(0, Math.floor(v))), true);
    return this.push(b);
  }

  bytes(b: Uint8Array): this {
    return this.u32(b.length).push(b);
  }

  utf8(s: string): this {
    return this.bytes(utf8Enc.encode(s));
  }

  latin1(s: string): this {
    return this.bytes(latin1Bytes(s));
  }

  private push(b: Uint8Array): this {
    this.parts.push(b);
    this.size += b.length;
    return this;
  }

  done(): Uint8Array {
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
}

/** Encode a request buffer (tests and TypeScript guests; the Rust side has its own). */
export function encodeNetRequest(r: Partial<NetWireRequest> & { url: string }): Uint8Array {
  const to = r.connectTo ?? null;
  const w = new Writer()
    .u32(NET_REQUEST_VERSION)
    .u32((r.flags ?? 0) | (to ? NET_FLAGS.connectTo : 0))
    .u32(r.maxRedirects ?? 0)
    .u32(r.timeoutMs ?? 0)
    .u32(r.connectTimeoutMs ?? 0)
    .u64(r.maxResponseBytes ?? 0)
    .latin1(r.method ?? 'GET')
    .utf8(r.url);
  const headers = r.headers ?? [];
  w.u32(headers.length);
  for (const [n, v] of headers) w.latin1(n).latin1(v);
  w.bytes(r.body ?? new Uint8Array(0));
  if (to) w.utf8(to.host).u32(to.port);
  return w.done();
}

export interface NetWireHead {
  readonly status: number;
  readonly redirects: number;
  readonly statusText: string;
  readonly url: string;
  readonly address: string;
  readonly headers: HeaderList;
  /** `1.1` or `1.0`: the status line's version (appended last, so older readers stop before it). */
  readonly httpVersion: string;
  /** The connection's local end (empty and 0 when unknown); after the version, for the same reason. */
  readonly localAddress: string;
  readonly localPort: number;
}

/** The response head as `net_response` hands it back. */
export function encodeNetHead(h: NetWireHead): Uint8Array {
  const w = new Writer()
    .u32(h.status)
    .u32(h.redirects)
    .latin1(h.statusText)
    .utf8(h.url)
    .utf8(h.address)
    .u32(h.headers.length);
  for (const [n, v] of h.headers) w.latin1(n).latin1(v);
  return w.latin1(h.httpVersion).utf8(h.localAddress).u32(h.localPort).done();
}

/** The error record `net_response` hands back on a denial or failure. */
export function encodeNetError(e: NetError): Uint8Array {
  return new Writer()
    .u32(NET_REASON_CODES.indexOf(e.reason))
    .utf8(e.message)
    .utf8(e.rule ?? '')
    .done();
}

const ERRNO_OF: Record<NetReason, Errno> = {
  blocked: Errno.EACCES,
  'not-allowed': Errno.EACCES,
  'special-address': Errno.EACCES,
  'denied-by-approver': Errno.EACCES,
  'bad-url': Errno.EINVAL,
  'bad-header': Errno.EINVAL,
  'bad-method': Errno.EINVAL,
  'resolve-failed': Errno.ENOENT,
  'connect-failed': Errno.ECONNREFUSED,
  'tls-failed': Errno.EPROTO,
  timeout: Errno.ETIMEDOUT,
  'byte-limit': Errno.EFBIG,
  'too-many-redirects': Errno.ELOOP,
  'redirect-body': Errno.EINVAL,
  cancelled: Errno.ECANCELED,
  'transfer-failed': Errno.EIO,
  'partial-body': Errno.EIO,
  'empty-reply': Errno.EIO,
  'bad-response': Errno.EIO,
  'not-http': Errno.EIO,
};

/** The errno a program sees for a denial or failure (docs/network.md's table). */
export function netErrno(reason: NetReason): Errno {
  return ERRNO_OF[reason];
}
