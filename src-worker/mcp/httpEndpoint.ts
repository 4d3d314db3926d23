/**
 * MCP over Streamable HTTP at `/mcp`, for the web server and the Electron
 * app, behind the checks a local server owes its user. In order: Host (DNS
 * rebinding) and Origin (a foreign web page) answered 403 by the SDK's
 * validators, then the bearer token (401 with a WWW-Authenticate
 * challenge), then body size (413). Then the era: 2026-07-28 requests go to
 * the SDK's stateless handler, which answers the protocol's own errors
 * (malformed envelope, unsupported version, header mismatch); 2025-era
 * traffic to our sessions (httpSessions.ts). All sandbox state is the
 * engine's either way.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import {
  OAuthError,
  OAuthErrorCode,
  bearerAuthChallengeResponse,
  createMcpHandler,
  hostHeaderValidationResponse,
  isLegacyRequest,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
  PROTOCOL_VERSION_META_KEY,
  verifyBearerToken,
  type AuthInfo,
} from '@modelcontextprotocol/server';
import { createHttpSessions, jsonError } from './httpSessions.js';
import { INVALID_PARAMS, requestParamsProblem } from './jsonRpc.js';

/** The first protocol version without `initialize` (and with the per-request envelope). */
const MODERN_ERA = '2026-07-28';
/** JSON-RPC codes the SDK answers with. */
const INTERNAL_ERROR = -32603;
const METHOD_NOT_FOUND = -32601;
import { createMcpServer } from './server.js';
import type { McpHost } from './tool.js';

/** Where the endpoint is mounted. */
export const MCP_PATH = '/mcp';

/** Largest request body: a write_file of a few MiB of base64, with room. */
export const MAX_MCP_BODY_BYTES = 32 * 1024 * 1024;

export interface McpHttpEndpoint {
  /** Serves one request for MCP_PATH (any method); never throws. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  close(): Promise<void>;
}

function sameToken(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A verifier of our one bearer token, for the SDK's verifyBearerToken. */
function tokenVerifier(token: string) {
  return {
    verifyAccessToken: async (given: string): Promise<AuthInfo> => {
      if (!sameToken(token, given))
        throw new OAuthError(OAuthErrorCode.InvalidToken, 'wrong bearer token');
      // The SDK refuses tokens without an expiry; ours lives as long as the server.
      return { token: given, clientId: 'local', scopes: [], expiresAt: Date.now() / 1000 + 3600 };
    },
  };
}

/**
 * The checks every request to this server passes, in order: Host (DNS
 * rebinding), Origin (a foreign web page), the bearer token. Returns the
 * refusal to send, or the token's AuthInfo.
 */
export async function checkLocalRequest(
  request: Request,
  token: string,
): Promise<{ refused: Response } | { authInfo: AuthInfo }> {
  const refused =
    hostHeaderValidationResponse(request, localhostAllowedHostnames()) ??
    originValidationResponse(request, localhostAllowedOrigins());
  if (refused) return { refused };
  try {
    const authInfo = await verifyBearerToken(request.headers.get('authorization'), {
      verifier: tokenVerifier(token),
    });
    return { authInfo };
  } catch (err) {
    return { refused: bearerAuthChallengeResponse(err) };
  }
}

/**
 * Sends an event stream's headers at once. Node holds headers until the
 * first body write, and a session's GET stream may say nothing for a long
 * time (the first keep-alive comes after 15 s): its client would wait that
 * long to learn the stream is open.
 */
function flushStreamHeaders(res: ServerResponse): void {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((...args: unknown[]) => {
    writeHead(...args);
    const headers = args.find((a) => typeof a === 'object' && a !== null) as
      Record<string, unknown> | undefined;
    const type = headers?.['content-type'] ?? headers?.['Content-Type'];
    if (typeof type === 'string' && type.startsWith('text/event-stream')) res.flushHeaders();
    return res;
  }) as ServerResponse['writeHead'];
}

/** Bodies larger than this are not looked into here: they are tools/call with file contents. */
const PEEK_MAX_BYTES = 1024 * 1024;

/** A POSTed request (method and id), when the body is small JSON; else undefined. */
async function peekRequest(
  request: Request,
): Promise<{ id: string | number; method: string; body: unknown } | undefined> {
  if (request.method !== 'POST') return undefined;
  const length = Number(request.headers.get('content-length') ?? Infinity);
  if (!(length <= PEEK_MAX_BYTES)) return undefined;
  let body: unknown;
  try {
    body = await request.clone().json();
  } catch {
    return undefined; // The SDK answers what is not JSON.
  }
  const m = body as { id?: unknown; method?: unknown } | null;
  if (typeof m !== 'object' || m === null || typeof m.method !== 'string') return undefined;
  if (typeof m.id !== 'string' && typeof m.id !== 'number') return undefined;
  return { id: m.id, method: m.method, body };
}

/**
 * Whether a request is an `initialize` sent as a 2026-07-28 request (that
 * version's header or `_meta` envelope), where the method no longer exists:
 * the SDK routes every `initialize` to the 2025 era, which would take it.
 */
function isModernInitialize(
  request: Request,
  peeked: { method: string; body: unknown } | undefined,
): boolean {
  if (peeked?.method !== 'initialize') return false;
  const header = request.headers.get('mcp-protocol-version');
  const meta = (peeked.body as { params?: { _meta?: Record<string, unknown> } }).params?._meta;
  const claimed = meta?.[PROTOCOL_VERSION_META_KEY];
  return [header, claimed].some((v) => typeof v === 'string' && v >= MODERN_ERA);
}

/**
 * A 2026-07-28 answer with the SDK's -32603 for params the spec's schema
 * refuses (a cursor that is not a string...) turned into the -32602 the
 * spec names; any other answer (the method does not exist in that version:
 * 404) as the SDK gave it.
 */
async function withParamsError(
  response: Response,
  peeked: { id: string | number },
  problem: string,
): Promise<Response> {
  if (!(response.headers.get('content-type') ?? '').startsWith('application/json')) return response;
  const reply = (await response.clone().json()) as { error?: { code?: unknown } };
  if (reply.error?.code !== INTERNAL_ERROR) return response;
  return jsonError(response.status, INVALID_PARAMS, `Invalid params: ${problem}`, peeked.id);
}

export function createMcpHttpEndpoint(options: {
  host: McpHost;
  /** The bearer token every request must carry. */
  token: string;
  onerror?: (error: Error) => void;
}): McpHttpEndpoint {
  const { host, token } = options;
  const onerror = options.onerror ?? (() => undefined);
  // 2026-07-28 requests (stateless by design) go to the SDK's handler;
  // 2025-era traffic (initialize, sessions) to our sessions.
  const modern = createMcpHandler(() => createMcpServer(host), {
    legacy: 'reject',
    maxRequestBodySize: MAX_MCP_BODY_BYTES,
    onerror,
  });
  const sessions = createHttpSessions(() => createMcpServer(host), {
    maxBodyBytes: MAX_MCP_BODY_BYTES,
    onerror,
  });
  const guarded = {
    fetch: async (request: Request): Promise<Response> => {
      const checked = await checkLocalRequest(request, token);
      if ('refused' in checked) return checked.refused;
      const legacy = await isLegacyRequest(request, undefined, {
        maxRequestBodySize: MAX_MCP_BODY_BYTES,
      });
      const peeked = await peekRequest(request);
      if (legacy) {
        if (isModernInitialize(request, peeked))
          return jsonError(404, METHOD_NOT_FOUND, 'Method not found', peeked?.id ?? null);
        return sessions.fetch(request, checked.authInfo);
      }
      const response = await modern.fetch(request, { authInfo: checked.authInfo });
      const problem = peeked && requestParamsProblem(peeked.method, peeked.body);
      return peeked && problem !== undefined
        ? withParamsError(response, peeked, problem)
        : response;
    },
  };
  const node = toNodeHandler(guarded, { maxRequestBodySize: MAX_MCP_BODY_BYTES, onerror });
  return {
    handle: async (req, res) => {
      flushStreamHeaders(res);
      try {
        await node(req, res);
      } catch (err) {
        onerror(err instanceof Error ? err : new Error(String(err)));
        if (!res.headersSent) res.writeHead(500).end();
        else res.destroy();
      }
    },
    close: async () => {
      await Promise.all([modern.close(), sessions.close()]);
    },
  };
}
