/**
 * MCP logging: `logging/setLevel` and `notifications/message` for what the
 * engine does on the agent's behalf (a command starting and exiting, a
 * network request waiting for a person, allowed or refused, a tool
 * failing). Messages ride the request they belong to, so over HTTP they
 * reach the client on that request's stream. A 2025-era client gets them
 * once it has set a level (the spec leaves the default to the server, and
 * a client that never asked pays nothing per call); a 2026-07-28 client
 * asks per request with the `_meta` log level, which the SDK reads.
 */
import {
  LOG_LEVEL_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  type LoggingLevel,
  type McpServer,
  type ServerContext,
} from '@modelcontextprotocol/server';

/** The spec's levels, least severe first (RFC 5424's, as syslog orders them). */
export const LOG_LEVELS: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

/** The logger name every message carries. */
export const LOGGER = 'sandglass';

/** Sends one log message about the request it was made for. */
export type Log = (level: LoggingLevel, data: Record<string, unknown>) => void;

/** The logging of one server instance (one stdio connection or one HTTP session). */
export interface McpLogging {
  /** The level the client set, if it did. */
  level(): LoggingLevel | undefined;
  /** A logger for one request, or undefined when the client asked for no messages. */
  forRequest(ctx: ServerContext): Log | undefined;
}

const severity = (level: LoggingLevel): number => LOG_LEVELS.indexOf(level);

/** Declares `logging` on `server` and answers `logging/setLevel`. Call before connecting. */
export function installLogging(server: McpServer): McpLogging {
  let threshold: LoggingLevel | undefined;
  server.server.registerCapabilities({ logging: {} });
  server.server.setRequestHandler('logging/setLevel', (request) => {
    const level = request.params.level;
    // The spec's schema checked it already; this keeps a bad level from passing silently.
    if (!LOG_LEVELS.includes(level))
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown log level ${level}`);
    threshold = level;
    return {};
  });
  return {
    level: () => threshold,
    forRequest: (ctx) => {
      // 2026-07-28: the request's own envelope names the level; the SDK filters.
      const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
      if (envelope !== undefined) {
        if (envelope[LOG_LEVEL_META_KEY] === undefined) return undefined;
        return (level, data) => void ctx.mcpReq.log(level, data, LOGGER).catch(() => undefined);
      }
      const set = threshold;
      if (set === undefined) return undefined;
      return (level, data) => {
        if (severity(level) < severity(set) || ctx.mcpReq.signal.aborted) return;
        void ctx.mcpReq
          .notify({ method: 'notifications/message', params: { level, logger: LOGGER, data } })
          .catch(() => undefined);
      };
    },
  };
}
