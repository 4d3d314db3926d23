/**
 * The request head of the plain-http client, byte for byte as undici 7
 * writes it (so a server sees the same request whichever client sent it):
 * request line, `host` from the URL, `connection: keep-alive` (`close` for
 * HEAD), the program's headers in order and spelling, then the body's
 * framing: `content-length` of a buffer, `content-length: 0` only for
 * methods that expect a payload, and for a stream the length a program
 * declared, else `transfer-encoding: chunked`.
 */
import type { SendRequest } from '../node/connection.js';
import { pathAndQuery } from '../target.js';

export type BodyPlan =
  /** No body or a buffer: `head` is complete (the buffer follows it). */
  | { readonly kind: 'fixed'; readonly head: string }
  /**
   * A stream: `head` goes before its first bytes, `emptyHead` instead when
   * it turns out empty; `length` is the declared length (null: chunked).
   */
  | {
      readonly kind: 'stream';
      readonly head: string;
      readonly emptyHead: string;
      readonly length: number | null;
      readonly chunked: boolean;
    };

/** undici sends `content-length: 0` without a body only for these (case-sensitive). */
const EXPECTS_PAYLOAD = new Set(['PUT', 'POST', 'PATCH', 'QUERY', 'PROPFIND', 'PROPPATCH']);

export function requestHead(req: SendRequest): BodyPlan {
  const { method, url, body } = req;
  let head = `${method} ${pathAndQuery(url)} HTTP/1.1\r\nhost: ${url.host}\r\n`;
  head += method === 'HEAD' ? 'connection: close\r\n' : 'connection: keep-alive\r\n';
  let declared: number | null = null;
  for (const [name, value] of req.headers) {
    const lower = name.toLowerCase();
    // undici takes these out of the list and writes its own.
    if (lower === 'content-length') {
      declared ??= parseInt(value, 10);
      continue;
    }
    if (lower === 'host') continue;
    head += `${name}: ${value}\r\n`;
  }
  const expectsPayload = EXPECTS_PAYLOAD.has(method);
  const empty = expectsPayload ? `${head}content-length: 0\r\n\r\n` : `${head}\r\n`;
  if (body === null || (body instanceof Uint8Array && body.length === 0)) {
    return { kind: 'fixed', head: empty };
  }
  if (body instanceof Uint8Array) {
    return { kind: 'fixed', head: `${head}content-length: ${body.length}\r\n\r\n` };
  }
  const length = declared === 0 && !expectsPayload ? null : declared;
  return {
    kind: 'stream',
    head:
      length === null
        ? `${head}transfer-encoding: chunked\r\n\r\n`
        : `${head}content-length: ${length}\r\n\r\n`,
    emptyHead: empty,
    length,
    chunked: length === null,
  };
}
