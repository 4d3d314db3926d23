/**
 * JSON-RPC 2.0 over a byte stream pair (`sandglass rpc`: stdin and stdout):
 * one message per line (newline-delimited JSON), replies and event
 * notifications written one per line. A line longer than MAX_MESSAGE_CHARS
 * is refused and skipped without being held in memory. When the input ends,
 * the replies still being computed are written before the promise resolves.
 */
import { StringDecoder } from 'node:string_decoder';
import type { ClientMeta, SandglassEngine } from '../api/engine.js';
import { MAX_MESSAGE_CHARS } from './protocol.js';
import { openRpcSession } from './session.js';

export async function serveRpcStream(
  engine: SandglassEngine,
  input: AsyncIterable<Buffer | string> & { destroy?(): void },
  output: { write(text: string): unknown },
  meta: ClientMeta = {},
  maxMessageChars = MAX_MESSAGE_CHARS,
): Promise<void> {
  let closed = false;
  const session = openRpcSession(
    engine,
    (text) => {
      if (!closed) output.write(`${text}\n`);
    },
    { transport: 'jsonrpc-stdio', ...meta, disconnect: () => input.destroy?.() },
  );
  const pending = new Set<Promise<void>>();
  const handle = (line: string): void => {
    if (line.trim() === '') return;
    if (line.length > maxMessageChars)
      return session.refuse(`message is larger than ${maxMessageChars} characters`);
    const p = session.receive(line).finally(() => pending.delete(p));
    pending.add(p);
  };
  const decoder = new StringDecoder('utf8');
  let parts: string[] = [];
  let size = 0;
  /** Inside a line too long to keep: its rest is dropped up to the next newline. */
  let skipping = false;
  const take = (text: string): void => {
    let from = 0;
    for (let nl = text.indexOf('\n', from); nl !== -1; nl = text.indexOf('\n', from)) {
      const piece = text.slice(from, nl);
      from = nl + 1;
      if (skipping) {
        skipping = false;
        continue;
      }
      parts.push(piece);
      handle(parts.join(''));
      parts = [];
      size = 0;
    }
    if (skipping || from === text.length) return;
    parts.push(text.slice(from));
    size += text.length - from;
    if (size > maxMessageChars) {
      session.refuse(`message is larger than ${maxMessageChars} characters`);
      parts = [];
      size = 0;
      skipping = true;
    }
  };
  try {
    for await (const chunk of input) take(typeof chunk === 'string' ? chunk : decoder.write(chunk));
  } catch {
    // The peer went away (or a person stopped it): finish what was asked.
  }
  if (!skipping && parts.length > 0) handle(parts.join('') + decoder.end());
  while (pending.size > 0) await Promise.all([...pending]);
  closed = true;
  session.close();
}
