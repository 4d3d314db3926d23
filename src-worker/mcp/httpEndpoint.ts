/**
 * MCP over Streamable HTTP at `/mcp`, for the web server and the Electron
 * app: the SDK's handler (both protocol eras, stateless: all state is the
 * engine's) behind the checks a local server owes its user. In order:
 * Host (DNS rebinding) and Origin (a foreign web page) answered 403 by the
 * SDK's validators, then the bearer token (401 with a WWW-Authenticate
 * challenge), then body size (413) and the protocol's own errors (malformed
 * JSON-RPC, unsupported version, header mismatch) from the handler.
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
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
  verifyBearerToken,
  type AuthInfo,
} from '@modelcontextprotocol/server';
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

export function createMcpHttpEndpoint(options: {
  host: McpHost;
  /** The bearer token every request must carry. */
  token: string;
  onerror?: (error: Error) => void;
}): McpHttpEndpoint {
  const { host, token } = options;
  const onerror = options.onerror ?? (() => undefined);
  const verifier = {
    verifyAccessToken: async (given: string): Promise<AuthInfo> => {
      if (!sameToken(token, given))
        throw new OAuthError(OAuthErrorCode.InvalidToken, 'wrong bearer token');
      // The SDK refuses tokens without an expiry; ours lives as long as the server.
      return { token: given, clientId: 'local', scopes: [], expiresAt: Date.now() / 1000 + 3600 };
    },
  };
  const mcp = createMcpHandler(() => createMcpServer(host), {
    maxRequestBodySize: MAX_MCP_BODY_BYTES,
    onerror,
  });
  const guarded = {
    fetch: async (request: Request): Promise<Response> => {
      const refused =
        hostHeaderValidationResponse(request, localhostAllowedHostnames()) ??
        originValidationResponse(request, localhostAllowedOrigins());
      if (refused) return refused;
      let authInfo: AuthInfo;
      try {
        authInfo = await verifyBearerToken(request.headers.get('authorization'), { verifier });
      } catch (err) {
        return bearerAuthChallengeResponse(err);
      }
      return mcp.fetch(request, { authInfo });
    },
  };
  const node = toNodeHandler(guarded, { maxRequestBodySize: MAX_MCP_BODY_BYTES, onerror });
  return {
    handle: async (req, res) => {
      try {
        await node(req, res);
      } catch (err) {
        onerror(err instanceof Error ? err : new Error(String(err)));
        if (!res.headersSent) res.writeHead(500).end();
        else res.destroy();
      }
    },
    close: () => mcp.close(),
  };
}
