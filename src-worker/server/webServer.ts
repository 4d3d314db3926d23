/**
 * Web mode: serves the built renderer and the API over a WebSocket on
 * 127.0.0.1 (WS_PATH; JSON-RPC 2.0 for agents and SDKs on RPC_WS_PATH),
 * guarded by a random token (carried in the printed URL) and Origin/Host
 * checks. Bad frames get an error response; the engine never sees them.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { RPC_WS_PATH, WS_PATH, type ServerMessage } from '../contract/api.js';
import { apiError } from '../contract/validate.js';
import { connectTransport, encodeMessage } from '../api/dispatch.js';
import type { SandglassEngine } from '../api/engine.js';
import { connectAgent } from '../mcp/host.js';
import { readAllowedImports } from '../mcp/hostImports.js';
import { createMcpHttpEndpoint, MCP_PATH } from '../mcp/httpEndpoint.js';
import { closeIdleSocketsAfterPoll } from '../mcp/keepAlive.js';
import { serveRpcWebSocket } from '../rpc/webSocket.js';
import { checkAccess, newToken, WORKBENCH_CSP } from './access.js';
import { contentType, loadStatic } from './staticFiles.js';

/** Largest accepted frame: file uploads travel as base64 inside one request. */
const MAX_FRAME_BYTES = 96 * 1024 * 1024;
/** A client this far behind on events is too slow to keep; it is disconnected. */
const MAX_BUFFERED_BYTES = 256 * 1024 * 1024;

export interface WebServerOptions {
  engine: SandglassEngine;
  /** Folder of the built renderer (`out/renderer`). */
  rendererDir: string;
  /** 0 picks a free port. */
  port?: number;
  token?: string;
  /** Serves MCP at /mcp to clients bearing this token (absent: no /mcp). */
  mcpToken?: string;
  /** Where the MCP token is kept, for the workbench to show (`$(cat FILE)` in commands). */
  mcpTokenFile?: string;
}

/** Where the workbench asks how agents connect (MCP URL and token), with its own URL token. */
export const AGENT_CONNECTION_PATH = '/agent-connection';

export interface WebServer {
  url: string;
  port: number;
  token: string;
  /** The MCP endpoint's URL, when it is served. */
  mcpUrl?: string;
  close(): Promise<void>;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function refuse(res: ServerResponse, status: number, reason: string): void {
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
  });
  res.end(`${status} ${reason}\n`);
}

function refuseUpgrade(socket: Duplex, status: 401 | 403 | 404 | 400, reason: string): void {
  const text = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found' }[
    status
  ];
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nContent-Type: text/plain\r\nConnection: close\r\nContent-Length: ${reason.length + 1}\r\n\r\n${reason}\n`,
  );
}

export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const token = options.token ?? newToken();
  const { engine, rendererDir } = options;
  let port = 0;
  const agent =
    options.mcpToken !== undefined
      ? connectAgent(engine, { transport: 'mcp-http', allowedImports: () => readAllowedImports() })
      : undefined;
  const mcp =
    agent && options.mcpToken !== undefined
      ? createMcpHttpEndpoint({ host: agent, token: options.mcpToken })
      : undefined;

  const server = createServer((req, res) => {
    void handleHttp(req, res).catch(() => {
      if (!res.headersSent) refuse(res, 500, 'internal error');
      else res.destroy();
    });
  });
  closeIdleSocketsAfterPoll(server);

  async function handleHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (mcp && new URL(req.url ?? '/', 'http://127.0.0.1').pathname === MCP_PATH)
      return mcp.handle(req, res);
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return refuse(res, 405, 'method not allowed');
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const isPage = url.pathname === '/' || url.pathname === '/index.html';
    const isConnection = url.pathname === AGENT_CONNECTION_PATH;
    const access = checkAccess(
      { url: req.url ?? '/', host: header(req, 'host'), origin: header(req, 'origin') },
      { port, token, needsToken: isPage || isConnection },
    );
    if (!access.ok) return refuse(res, access.status, access.reason);
    // The MCP token travels in this response's body only (never in a URL), to the page holding the workbench token.
    if (isConnection) {
      if (options.mcpToken === undefined) return refuse(res, 404, 'no MCP endpoint');
      const body = JSON.stringify({
        mcpUrl: `http://127.0.0.1:${port}${MCP_PATH}`,
        token: options.mcpToken,
        ...(options.mcpTokenFile !== undefined ? { tokenFile: options.mcpTokenFile } : {}),
      });
      res.writeHead(200, {
        'content-type': 'application/json',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      });
      return void res.end(req.method === 'HEAD' ? undefined : body);
    }
    const file = await loadStatic(rendererDir, isPage ? '/index.html' : url.pathname);
    if (!file)
      return refuse(res, 404, isPage ? 'renderer not built: run the build first' : 'not found');
    res.writeHead(200, {
      'content-type': contentType(file.path),
      'content-length': file.body.length,
      'cache-control': isPage ? 'no-store' : 'no-cache',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      ...(isPage ? { 'content-security-policy': WORKBENCH_CSP, 'x-frame-options': 'DENY' } : {}),
    });
    res.end(req.method === 'HEAD' ? undefined : file.body);
  }

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_FRAME_BYTES,
    perMessageDeflate: false,
  });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== WS_PATH && url.pathname !== RPC_WS_PATH)
      return refuseUpgrade(socket, 404, 'no such endpoint');
    const access = checkAccess(
      { url: req.url ?? '/', host: header(req, 'host'), origin: header(req, 'origin') },
      { port, token, needsToken: true },
    );
    if (!access.ok) return refuseUpgrade(socket, access.status, access.reason);
    // The workbench's own protocol on WS_PATH; JSON-RPC 2.0 for agents and SDKs beside it.
    wss.handleUpgrade(req, socket, head, (ws) =>
      url.pathname === RPC_WS_PATH ? serveRpcWebSocket(engine, ws) : serveClient(ws),
    );
  });

  function serveClient(ws: WebSocket): void {
    const send = (message: ServerMessage): void => {
      if (ws.readyState !== ws.OPEN) return;
      if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
        ws.close(1013, 'client too slow');
        return;
      }
      try {
        // encodeMessage turns an unsendable reply into an error reply.
        ws.send(encodeMessage(message));
      } catch {
        ws.terminate();
      }
    };
    // The workbench in a browser is a person's client.
    const connection = connectTransport(
      engine,
      'person',
      (event) => send({ type: 'event', event }),
      {
        name: 'workbench',
        transport: 'websocket',
        disconnect: () => ws.close(1000, 'stopped'),
      },
    );
    ws.on('message', (data: RawData, isBinary: boolean) => {
      if (isBinary)
        return send({
          type: 'response',
          id: -1,
          ok: false,
          error: apiError('EBADMSG', 'binary frames are not accepted'),
        });
      let raw: unknown;
      try {
        raw = JSON.parse(data.toString());
      } catch {
        return send({
          type: 'response',
          id: -1,
          ok: false,
          error: apiError('EBADMSG', 'frame is not valid JSON'),
        });
      }
      void connection.handle(raw).then(send);
    });
    ws.on('error', () => ws.terminate());
    ws.on('close', () => connection.close());
  }

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolveListen();
    });
  });
  port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    ...(mcp ? { mcpUrl: `http://127.0.0.1:${port}${MCP_PATH}` } : {}),
    close: async () => {
      await mcp?.close();
      agent?.close();
      for (const client of wss.clients) client.terminate();
      wss.close();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
