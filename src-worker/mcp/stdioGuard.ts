/**
 * A guard in front of the SDK's stdio transport: lines that are not JSON, or
 * not JSON-RPC 2.0 messages, are answered here with the JSON-RPC errors the
 * spec names (-32700 parse error, -32600 invalid request) and never reach
 * the server, which would otherwise drop them without a reply. Everything
 * else passes through unchanged, one line at a time.
 */
import { StringDecoder } from 'node:string_decoder';
import { Transform, type TransformCallback } from 'node:stream';

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;

type Id = string | number | null;

/** What a line is: a message to pass on, or the error reply it gets. */
export function checkLine(line: string): { pass: true } | { pass: false; reply: string } {
  const fail = (id: Id, code: number, message: string) => ({
    pass: false as const,
    reply: JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }),
  });
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return fail(null, PARSE_ERROR, 'Parse error: the line is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return fail(null, INVALID_REQUEST, 'Invalid Request: expected a JSON-RPC 2.0 message object');
  const m = value as Record<string, unknown>;
  const id: Id = typeof m.id === 'string' || typeof m.id === 'number' ? m.id : null;
  if (m.jsonrpc !== '2.0')
    return fail(id, INVALID_REQUEST, 'Invalid Request: jsonrpc must be "2.0"');
  const isCall = typeof m.method === 'string';
  const isReply = 'id' in m && ('result' in m || 'error' in m);
  if (!isCall && !isReply)
    return fail(id, INVALID_REQUEST, 'Invalid Request: no method, result or error');
  return { pass: true };
}

/**
 * The transform: input bytes in, checked lines out; replies go to `reply`.
 * A line longer than `maxLineChars` is refused and skipped to its end, so a
 * runaway client cannot make the server buffer without bound.
 */
export function stdioGuard(reply: (line: string) => void, maxLineChars: number): Transform {
  const decoder = new StringDecoder('utf8');
  // The line so far, in pieces: appending to one string and searching it
  // would copy the whole line for every chunk of a long one.
  let parts: string[] = [];
  let partChars = 0;
  let skipping = false;
  const take = (line: string, push: (s: string) => void): void => {
    if (line.trim() === '') return;
    const verdict = checkLine(line);
    if (verdict.pass) push(`${line}\n`);
    else reply(`${verdict.reply}\n`);
  };
  const tooLong = (): void =>
    reply(
      `${JSON.stringify({
        jsonrpc: '2.0',
        id: null,
        error: {
          code: INVALID_REQUEST,
          message: `Invalid Request: message longer than ${maxLineChars} characters`,
        },
      })}\n`,
    );
  return new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      let text = decoder.write(chunk);
      for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n')) {
        if (!skipping) {
          parts.push(text.slice(0, nl));
          take(parts.join('').replace(/\r$/, ''), (s) => this.push(s));
        }
        parts = [];
        partChars = 0;
        skipping = false;
        text = text.slice(nl + 1);
      }
      if (skipping) return done();
      parts.push(text);
      partChars += text.length;
      if (partChars > maxLineChars) {
        tooLong();
        skipping = true;
        parts = [];
        partChars = 0;
      }
      done();
    },
    flush(done: TransformCallback) {
      parts.push(decoder.end());
      if (!skipping) take(parts.join(''), (s) => this.push(s));
      parts = [];
      done();
    },
  });
}
