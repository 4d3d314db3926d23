/**
 * A server with only the MCP endpoint, on 127.0.0.1: what the Electron app
 * runs beside its engine so agents can drive the sandboxes a person watches.
 * (Web mode mounts the same endpoint in its own server.)
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SandglassEngine } from '../api/engine.js';
import { connectAgent } from './host.js';
import type { AllowedImport } from './hostImports.js';
import { createMcpHttpEndpoint, MCP_PATH } from './httpEndpoint.js';

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
    res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: MCP is at ${MCP_PATH}\n`);
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
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
