/**
 * The engine behind a transport: validates each raw message against the
 * contract's schemas, runs it for the connection's client, and encodes the
 * reply so that a reply that cannot be sent (too big, unserialisable) becomes
 * an error reply, never an exception that ends the process.
 */
import type { ApiEvent, ApiParams, ClientRole, ServerMessage } from '../contract/api.js';
import { apiError, parseClientMessage } from '../contract/validate.js';
import type { ClientMeta, SandglassEngine } from './engine.js';
import { toApiError } from './errors.js';
import type { BusClient } from './eventBus.js';

/** Largest reply a transport sends, in JSON characters (~256 MiB of text). */
export const MAX_REPLY_CHARS = 256 * 1024 * 1024;

export interface Connection {
  readonly client: BusClient;
  /** Validates and runs one raw client message; never throws. */
  handle(raw: unknown): Promise<ServerMessage>;
  close(): void;
}

/** Connects a transport: `send` carries events and replies, and is only ever called safely. */
export function connectTransport(
  engine: SandglassEngine,
  role: ClientRole,
  sendEvent: (event: ApiEvent) => void,
  meta?: ClientMeta,
): Connection {
  const client = engine.connect(role, sendEvent, meta);
  return {
    client,
    handle: (raw) => dispatch(engine, client, raw),
    close: () => client.close(),
  };
}

export async function dispatch(
  engine: SandglassEngine,
  client: BusClient | undefined,
  raw: unknown,
): Promise<ServerMessage> {
  const parsed = parseClientMessage(raw);
  if (!parsed.ok) return { type: 'response', id: parsed.id ?? -1, ok: false, error: parsed.error };
  const { id, method, params } = parsed.message;
  try {
    const result = await engine.call(method, params as ApiParams<typeof method>, client);
    return { type: 'response', id, ok: true, result };
  } catch (err) {
    return { type: 'response', id, ok: false, error: toApiError(err) };
  }
}

/**
 * JSON text of a server message, or of an error reply in its place when it
 * cannot be serialised or is larger than `maxChars`.
 */
export function encodeMessage(message: ServerMessage, maxChars = MAX_REPLY_CHARS): string {
  let text: string | undefined;
  let problem: string;
  try {
    text = JSON.stringify(message);
    problem = text.length > maxChars ? `reply of ${text.length} characters is too large` : '';
  } catch (err) {
    problem = `reply cannot be encoded: ${err instanceof Error ? err.message : String(err)}`;
  }
  if (text !== undefined && problem === '') return text;
  return JSON.stringify(failedReply(message, 'E2BIG', problem));
}

/** The error reply that stands in for a message that could not be sent. */
export function failedReply(message: ServerMessage, code: string, why: string): ServerMessage {
  const id = message.type === 'response' ? message.id : -1;
  return { type: 'response', id, ok: false, error: apiError(code, why) };
}
