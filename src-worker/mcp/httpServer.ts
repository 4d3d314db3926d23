/**
 * The agents' server on 127.0.0.1: what the Electron app runs beside its
 * engine so agents can drive the sandboxes a person watches. It serves MCP
 * at /mcp and JSON-RPC 2.0 over WebSocket at /rpc (the SDKs' `websocket`
 * mode), both behind the same Host, Origin and bearer-token checks; the
 * token goes in the Authorization header, never in the URL. (Web mode
 * mounts both in its own server.)
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { AddressInfo } from 'node:net';
import type { SandglassEngine } from '../api/engine.js';
import { connectAgent } from './host.js';
import type { AllowedImport } from './hostImports.js';
import { RPC_WS_PATH } from '../contract/constants.js';
import { serveRpcWebSocket } from '../rpc/webSocket.js';
import { checkLocalRequest, createMcpHttpEndpoint, MCP_PATH } from './httpEndpoint.js';
import { closeIdleSocketsAfterPoll } from './keepAlive.js';

/** The port tried first, so agent configurations keep working across restarts. */
export const DEFAULT_MCP_PORT = 7717;

export interface McpHttpServer {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

function listen(server: ReturnType<typeof createServer>, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Largest JSON-RPC message over /rpc (a writeFile of tens of MiB, as JSON). */
const MAX_RPC_FRAME_BYTES = 96 * 1024 * 1024;

/** The refusal of a WebSocket upgrade, or undefined when it may go on. */
async function upgradeRpc(req: IncomingMessage, token: string): Promise<Response | undefined> {
  const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
  if (path !== RPC_WS_PATH) return new Response('no such endpoint', { status: 404 });
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers))
    if (typeof value === 'string') headers.set(name, value);
  const request = new Request(`http://127.0.0.1${path}`, { headers });
  const checked = await checkLocalRequest(request, token);
  return 'refused' in checked ? checked.refused : undefined;
}

function refuseUpgrade(socket: Duplex, refused: Response): void {
  const challenge = refused.headers.get('www-authenticate');
  socket.end(
    `HTTP/1.1 ${refused.status} ${refused.statusText || 'Refused'}\r\n` +
      (challenge ? `WWW-Authenticate: ${challenge}\r\n` : '') +
      'Connection: close\r\nContent-Length: 0\r\n\r\n',
  );
}

/** Listens on `port` (a taken default falls back to a free port). */
export async function startMcpHttpServer(options: {
  engine: SandglassEngine;
  token: string;
  port?: number;
  onerror?: (error: Error) => void;
  /** Host folders agents may import (default: none). */
  allowedImports?: () => readonly AllowedImport[];
}): Promise<McpHttpServer> {
  const host = connectAgent(options.engine, {
    transport: 'mcp-http',
    ...(options.allowedImports ? { allowedImports: options.allowedImports } : {}),
  });
  const endpoint = createMcpHttpEndpoint({
    host,
    token: options.token,
    ...(options.onerror ? { onerror: options.onerror } : {}),
  });
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path === MCP_PATH) return void endpoint.handle(req, res);
    res
      .writeHead(404, { 'content-type': 'text/plain' })
      .end(`not found: MCP is at ${MCP_PATH}, JSON-RPC (WebSocket) at ${RPC_WS_PATH}\n`);
  });
  closeIdleSocketsAfterPoll(server);
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_RPC_FRAME_BYTES });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    void upgradeRpc(req, options.token).then((refused) => {
      if (refused) return refuseUpgrade(socket, refused);
      wss.handleUpgrade(req, socket, head, (ws) => serveRpcWebSocket(options.engine, ws));
    });
  });
  const wanted = options.port ?? DEFAULT_MCP_PORT;
  try {
    await listen(server, wanted);
  } catch (err) {
    if (options.port !== undefined || (err as { code?: string }).code !== 'EADDRINUSE') throw err;
    await listen(server, 0);
  }
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${MCP_PATH}`,
    port,
    close: async () => {
      await endpoint.close();
      host.close();
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
