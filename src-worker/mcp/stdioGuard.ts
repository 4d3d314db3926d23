/**
 * A guard around the SDK's stdio transport. Input: lines that are not JSON,
 * or not JSON-RPC 2.0 messages, are answered here with the JSON-RPC errors
 * the spec names (-32700 parse error, -32600 invalid request) and never
 * reach the server, which would otherwise drop them without a reply; a line
 * longer than the bound is refused in linear time. Batches (a JSON array)
 * are taken only when the session negotiated a protocol version that has
 * them (2025-03-26 and older): their messages go to the server one by one,
 * and the replies come back together as one array. Everything else passes
 * through unchanged, one line at a time.
 */
import { StringDecoder } from 'node:string_decoder';
import { Transform, type TransformCallback } from 'node:stream';
import {
  batchAllowed,
  checkMessage,
  INVALID_REQUEST,
  PARSE_ERROR,
  type JsonRpcId,
} from './jsonRpc.js';

export { INVALID_REQUEST, PARSE_ERROR } from './jsonRpc.js';

function errorReply(id: JsonRpcId, code: number, message: string): Record<string, unknown> {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

/** What a line is: a message to pass on, or the error reply it gets ('' for none). */
export function checkLine(line: string): { pass: true } | { pass: false; reply: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return {
      pass: false,
      reply: JSON.stringify(
        errorReply(null, PARSE_ERROR, 'Parse error: the line is not valid JSON'),
      ),
    };
  }
  const verdict = checkMessage(value);
  if (verdict.ok) return { pass: true };
  if (verdict.silent) return { pass: false, reply: '' };
  return {
    pass: false,
    reply: JSON.stringify(errorReply(verdict.id, verdict.code, verdict.message)),
  };
}

/** A batch waiting for the replies to its requests. */
interface Batch {
  readonly replies: unknown[];
  waiting: number;
}

/**
 * Batches of one stdio connection: the protocol version the server
 * negotiated (seen in its reply to `initialize`), the batches whose replies
 * are still out, and the filter of the server's output that gathers them.
 */
export class StdioBatches {
  private version: string | undefined;
  private initializeId: JsonRpcId | undefined;
  private readonly pending = new Map<string | number, Batch>();
  /** The server's output lines in, stdout's lines out. */
  readonly output: Transform;

  constructor() {
    let rest = '';
    this.output = new Transform({
      transform: (chunk: Buffer | string, _enc, done: TransformCallback) => {
        const lines = (rest + chunk.toString()).split('\n');
        rest = lines.pop() ?? '';
        for (const line of lines) this.outgoing(line);
        done();
      },
      flush: (done: TransformCallback) => {
        if (rest !== '') this.outgoing(rest);
        done();
      },
    });
  }

  /**
   * Notes a single message from the client (an `initialize` request's id, to
   * read the version from its reply). Returns the refusal of an `initialize`
   * after the first: a session is initialized once (the SDK's HTTP transport
   * answers the same), where the SDK on stdio would renegotiate silently.
   */
  incoming(line: string): Record<string, unknown> | undefined {
    if (!line.includes('"initialize"')) return undefined;
    const m = JSON.parse(line) as { method?: unknown; id?: JsonRpcId };
    if (m.method !== 'initialize' || m.id === undefined) return undefined;
    if (this.version !== undefined || this.initializeId !== undefined)
      return errorReply(m.id, INVALID_REQUEST, 'Invalid Request: Server already initialized');
    this.initializeId = m.id;
    return undefined;
  }

  /**
   * Takes a batch from the client: returns the lines to pass to the server;
   * what needs no server (refusals, invalid members) is answered here.
   */
  split(members: readonly unknown[]): string[] {
    if (this.version === undefined || !batchAllowed(this.version)) {
      const why =
        this.version === undefined
          ? 'no protocol version is negotiated yet (initialize first)'
          : `protocol version ${this.version} has no JSON-RPC batches`;
      this.send(errorReply(null, INVALID_REQUEST, `Invalid Request: ${why}`));
      return [];
    }
    if (members.length === 0) {
      this.send(errorReply(null, INVALID_REQUEST, 'Invalid Request: empty batch'));
      return [];
    }
    const batch: Batch = { replies: [], waiting: 0 };
    const pass: string[] = [];
    for (const m of members) {
      const verdict = checkMessage(m);
      if (!verdict.ok) {
        if (!verdict.silent)
          batch.replies.push(errorReply(verdict.id, verdict.code, verdict.message));
        continue;
      }
      const { id, method } = m as { id?: string | number; method?: unknown };
      if (typeof method === 'string' && id !== undefined && !this.pending.has(id)) {
        this.pending.set(id, batch);
        batch.waiting++;
      }
      pass.push(`${JSON.stringify(m)}\n`);
    }
    if (batch.waiting === 0 && batch.replies.length > 0) this.send(batch.replies);
    return pass;
  }

  /** Writes a reply of the guard's own to stdout. */
  send(reply: unknown): void {
    this.output.push(`${JSON.stringify(reply)}\n`);
  }

  private outgoing(line: string): void {
    if (line === '') return;
    const gather = this.pending.size > 0 || this.initializeId !== undefined;
    const m = gather ? (JSON.parse(line) as Record<string, unknown>) : undefined;
    const id = m?.id as string | number | undefined;
    if (m && id !== undefined && ('result' in m || 'error' in m)) {
      if (this.initializeId !== undefined && id === this.initializeId) {
        const v = (m.result as { protocolVersion?: unknown } | undefined)?.protocolVersion;
        if (typeof v === 'string') this.version = v;
        this.initializeId = undefined;
      }
      const batch = this.pending.get(id);
      if (batch) {
        this.pending.delete(id);
        batch.replies.push(m);
        if (--batch.waiting === 0) this.send(batch.replies);
        return;
      }
    }
    this.output.push(`${line}\n`);
  }
}

/**
 * The input transform: bytes in, checked lines out; the guard's own replies
 * go to `batches.send`. A line longer than `maxLineChars` is refused and
 * skipped to its end, so a runaway client cannot make the server buffer
 * without bound.
 */
export function stdioGuard(batches: StdioBatches, maxLineChars: number): Transform {
  const decoder = new StringDecoder('utf8');
  // The line so far, in pieces: appending to one string and searching it
  // would copy the whole line for every chunk of a long one.
  let parts: string[] = [];
  let partChars = 0;
  let skipping = false;
  const take = (line: string, push: (s: string) => void): void => {
    if (line.trim() === '') return;
    if (line.trimStart().startsWith('[')) {
      let members: unknown;
      try {
        members = JSON.parse(line);
      } catch {
        members = undefined;
      }
      if (Array.isArray(members)) {
        for (const l of batches.split(members)) push(l);
        return;
      }
    }
    const verdict = checkLine(line);
    if (!verdict.pass) {
      if (verdict.reply !== '') batches.output.push(`${verdict.reply}\n`);
      return;
    }
    const refused = batches.incoming(line);
    if (refused) batches.send(refused);
    else push(`${line}\n`);
  };
  const tooLong = (): void =>
    batches.send(
      errorReply(
        null,
        INVALID_REQUEST,
        `Invalid Request: message longer than ${maxLineChars} characters`,
      ),
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
