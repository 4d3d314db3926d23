/**
 * 2025-era MCP over Streamable HTTP with sessions, as the spec describes
 * them: `initialize` is answered with an `Mcp-Session-Id`, every later
 * request carries it (400 without, 404 once unknown or ended), GET opens the
 * session's stream for server messages, DELETE ends the session. One
 * McpServer per session (cheap: all sandbox state is the engine's). Bodies
 * are checked here before the SDK's transport sees them, so malformed
 * messages get the JSON-RPC errors the spec names (-32700, -32600) and a
 * batch is refused unless the protocol version still had batches
 * (2025-03-26 and older).
 */
import { randomUUID } from 'node:crypto';
import {
  isJsonContentType,
  readRequestBody,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  type McpServer,
} from '@modelcontextprotocol/server';
import {
  batchAllowed,
  checkMessage,
  INVALID_PARAMS,
  INVALID_REQUEST,
  PARSE_ERROR,
} from './jsonRpc.js';

/** What the spec says a server assumes when it cannot tell the version (no header, no session). */
const VERSION_WITHOUT_HEADER = '2025-03-26';

/** JSON-RPC code the SDK's transport uses for HTTP-level refusals. */
const SERVER_ERROR = -32000;
/** JSON-RPC code for an unknown session (the SDK's, with HTTP 404). */
const SESSION_NOT_FOUND = -32001;

export interface HttpSessionsOptions {
  /** Largest POST body, in bytes (a larger one is answered 413). */
  readonly maxBodyBytes: number;
  /** Most sessions at once; opening one more ends the least recently used. */
  readonly maxSessions?: number;
  /** A session unused this long is ended (its next request gets 404). */
  readonly idleMs?: number;
  readonly onerror?: (error: Error) => void;
}

export interface HttpSessions {
  /** Serves one 2025-era request (any method). */
  fetch(request: Request, authInfo: AuthInfo): Promise<Response>;
  /** Ids of the open sessions. */
  ids(): string[];
  close(): Promise<void>;
}

interface Session {
  readonly server: McpServer;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  lastUsed: number;
}

export function jsonError(
  status: number,
  code: number,
  message: string,
  id: string | number | null = null,
  headers: Record<string, string> = {},
): Response {
  return Response.json({ jsonrpc: '2.0', id, error: { code, message } }, { status, headers });
}

/** The body of a POST, or the refusal to send instead. */
async function readMessage(
  request: Request,
  maxBodyBytes: number,
  version: string,
): Promise<{ body: unknown } | { refused: Response }> {
  const accept = request.headers.get('accept') ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream'))
    return {
      refused: jsonError(
        406,
        SERVER_ERROR,
        'Not Acceptable: Client must accept both application/json and text/event-stream',
      ),
    };
  if (!isJsonContentType(request.headers.get('content-type')))
    return {
      refused: jsonError(
        415,
        SERVER_ERROR,
        'Unsupported Media Type: Content-Type must be application/json',
      ),
    };
  const read = await readRequestBody(request, maxBodyBytes);
  if (read.tooLarge)
    return {
      refused: jsonError(413, SERVER_ERROR, `Payload Too Large: over ${maxBodyBytes} bytes`),
    };
  let body: unknown;
  try {
    body = JSON.parse(read.text);
  } catch {
    return { refused: jsonError(400, PARSE_ERROR, 'Parse error: the body is not valid JSON') };
  }
  const messages = Array.isArray(body) ? body : [body];
  if (Array.isArray(body) && !batchAllowed(version))
    return {
      refused: jsonError(
        400,
        INVALID_REQUEST,
        `Invalid Request: protocol version ${version} has no JSON-RPC batches; send one message per POST`,
      ),
    };
  if (messages.length === 0)
    return { refused: jsonError(400, INVALID_REQUEST, 'Invalid Request: empty batch') };
  const taken: unknown[] = [];
  for (const m of messages) {
    const verdict = checkMessage(m);
    if (verdict.ok) taken.push(m);
    else if (!verdict.silent)
      return {
        // Bad params of a well-formed request are the request's own error
        // (200, as the SDK answers what its handlers refuse); the rest is 400.
        refused: jsonError(
          verdict.code === INVALID_PARAMS ? 200 : 400,
          verdict.code,
          verdict.message,
          verdict.id,
        ),
      };
  }
  // A notification the server cannot take is dropped, never answered.
  if (taken.length === 0) return { refused: new Response(null, { status: 202 }) };
  return { body: Array.isArray(body) ? taken : body };
}

function isInitialize(body: unknown): boolean {
  return (
    typeof body === 'object' &&
    body !== null &&
    !Array.isArray(body) &&
    (body as { method?: unknown }).method === 'initialize'
  );
}

export function createHttpSessions(
  factory: () => McpServer,
  options: HttpSessionsOptions,
): HttpSessions {
  const maxSessions = options.maxSessions ?? 1000;
  const idleMs = options.idleMs ?? 6 * 3600 * 1000;
  const onerror = options.onerror ?? (() => undefined);
  const sessions = new Map<string, Session>();

  const end = (id: string): Promise<void> => {
    const session = sessions.get(id);
    if (!session) return Promise.resolve();
    sessions.delete(id);
    return session.server.close().catch((e: unknown) => onerror(e as Error));
  };
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, s] of sessions) if (now - s.lastUsed > idleMs) void end(id);
    },
    Math.min(idleMs, 60_000),
  );
  sweep.unref();

  /** A new session for an `initialize` request; it is kept only if the handshake succeeds. */
  const open = async (request: Request, body: unknown, authInfo: AuthInfo): Promise<Response> => {
    const server = factory();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      maxRequestBodySize: options.maxBodyBytes,
      onsessioninitialized: (id) => {
        sessions.set(id, { server, transport, lastUsed: Date.now() });
        // Sessions are kept in use order: the first is the least recently used.
        while (sessions.size > maxSessions) {
          const oldest = sessions.keys().next().value;
          if (oldest === undefined) break;
          void end(oldest);
        }
      },
      onsessionclosed: (id) => void end(id),
    });
    transport.onerror = onerror;
    await server.connect(transport);
    const response = await transport.handleRequest(request, { parsedBody: body, authInfo });
    if (transport.sessionId === undefined) await server.close();
    return response;
  };

  return {
    fetch: async (request, authInfo) => {
      const method = request.method;
      if (method !== 'POST' && method !== 'GET' && method !== 'DELETE')
        return jsonError(405, SERVER_ERROR, 'Method Not Allowed', null, {
          allow: 'GET, POST, DELETE',
        });
      const id = request.headers.get('mcp-session-id');
      const session = id === null ? undefined : sessions.get(id);
      if (id !== null && !session) return jsonError(404, SESSION_NOT_FOUND, 'Session not found');
      let body: unknown;
      if (method === 'POST') {
        // The version a message is under: its header, else the session's.
        const version =
          request.headers.get('mcp-protocol-version') ??
          session?.server.server.getNegotiatedProtocolVersion() ??
          VERSION_WITHOUT_HEADER;
        const read = await readMessage(request, options.maxBodyBytes, version);
        if ('refused' in read) return read.refused;
        body = read.body;
      }
      if (id === null || !session) {
        if (method === 'POST' && isInitialize(body)) return open(request, body, authInfo);
        return jsonError(
          400,
          SERVER_ERROR,
          'Bad Request: Mcp-Session-Id header is required (start a session with initialize)',
        );
      }
      sessions.delete(id);
      session.lastUsed = Date.now();
      sessions.set(id, session);
      return session.transport.handleRequest(request, {
        ...(body !== undefined ? { parsedBody: body } : {}),
        authInfo,
      });
    },
    ids: () => [...sessions.keys()],
    close: async () => {
      clearInterval(sweep);
      await Promise.all([...sessions.keys()].map(end));
    },
  };
}
