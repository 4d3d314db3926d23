/** What the specs know about the running web server, and a direct API client over WebSocket. */
import { readFileSync } from 'node:fs';
import WebSocket from 'ws';
import type {
  ApiMethod,
  ApiParams,
  ApiResult,
  ServerMessage,
} from '../../src-worker/contract/api.js';

export interface ServerInfo {
  url: string;
  port: number;
  token: string;
}

export function serverInfo(): ServerInfo {
  const file = process.env.SANDGLASS_E2E_INFO;
  if (!file) throw new Error('SANDGLASS_E2E_INFO is not set: run through playwright.config.ts');
  return JSON.parse(readFileSync(file, 'utf8')) as ServerInfo;
}

export function origin(info: ServerInfo): string {
  return `http://127.0.0.1:${info.port}`;
}

/** Opens a WebSocket and reports either the open socket or the HTTP status it was refused with. */
export function tryConnect(
  info: ServerInfo,
  token: string,
  originHeader: string,
): Promise<{ ws: WebSocket } | { status: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${info.port}/api?token=${encodeURIComponent(token)}`, {
      origin: originHeader,
    });
    ws.on('open', () => resolve({ ws }));
    ws.on('unexpected-response', (_req, res) => resolve({ status: res.statusCode ?? 0 }));
    ws.on('error', () => undefined);
  });
}

/** A minimal typed client for setting up state from a spec. */
export class DirectApi {
  private nextId = 1;
  /** Calls awaiting their response, by request id: one socket listener serves them all. */
  private readonly pending = new Map<number, (msg: ServerMessage & { type: 'response' }) => void>();

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data: WebSocket.RawData) => {
      const msg = JSON.parse(data.toString()) as ServerMessage;
      if (msg.type !== 'response') return;
      const settle = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      settle?.(msg);
    });
  }

  static async open(info: ServerInfo): Promise<DirectApi> {
    const result = await tryConnect(info, info.token, origin(info));
    if (!('ws' in result)) throw new Error(`API connection refused with ${result.status}`);
    return new DirectApi(result.ws);
  }

  call<M extends ApiMethod>(method: M, params: ApiParams<M>): Promise<ApiResult<M>> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, (msg) => {
        if (msg.ok) resolve(msg.result as ApiResult<M>);
        else reject(new Error(`${method}: ${msg.error.message} (${msg.error.code})`));
      });
      this.ws.send(JSON.stringify({ type: 'request', id, method, params }));
    });
  }

  close(): void {
    this.ws.close();
  }
}
