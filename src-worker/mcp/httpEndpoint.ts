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
  verifyBearerToken,
  type AuthInfo,
} from '@modelcontextprotocol/server';
import { createHttpSessions, jsonError } from './httpSessions.js';
import { INVALID_PARAMS, requestParamsProblem } from './jsonRpc.js';
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

/** Bodies larger than this skip the params check: they are tools/call with file contents, which the tool's schema checks. */
const PARAMS_CHECK_MAX_BYTES = 1024 * 1024;

/**
 * The -32602 answer to a 2026-07-28 request whose params the spec's schema
 * of its method refuses (a cursor that is not a string...), which the SDK's
 * handler would answer -32603; undefined to let the SDK serve it.
 */
async function paramsRefusal(request: Request): Promise<Response | undefined> {
  if (request.method !== 'POST') return undefined;
  const length = Number(request.headers.get('content-length') ?? Infinity);
  if (!(length <= PARAMS_CHECK_MAX_BYTES)) return undefined;
  let body: unknown;
  try {
    body = await request.clone().json();
  } catch {
    return undefined; // The SDK answers what is not JSON.
  }
  const m = body as { id?: unknown; method?: unknown } | null;
  if (typeof m !== 'object' || m === null || typeof m.method !== 'string') return undefined;
  if (typeof m.id !== 'string' && typeof m.id !== 'number') return undefined;
  const problem = requestParamsProblem(m.method, m);
  if (problem === undefined) return undefined;
  return jsonError(200, INVALID_PARAMS, `Invalid params: ${problem}`, m.id);
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
      if (legacy) return sessions.fetch(request, checked.authInfo);
      return (
        (await paramsRefusal(request)) ?? modern.fetch(request, { authInfo: checked.authInfo })
      );
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
