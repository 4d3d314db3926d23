/**
 * How an SDK connection reaches an engine: in this process, or over JSON-RPC
 * 2.0 to a `sandglass rpc` child process (newline-delimited JSON on its
 * stdio) or to a running app's WebSocket endpoint (one message per frame).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import type { ApiEvent, ApiMethod, ApiParams } from '../../src-worker/contract/api.js';
import { RPC_WS_PATH } from '../../src-worker/contract/constants.js';
import type { SandglassEngine } from '../../src-worker/api/engine.js';
import type { BusClient } from '../../src-worker/api/eventBus.js';
import { validateParams } from '../../src-worker/contract/validate.js';
import { SandglassError } from './errors.js';

export interface Transport {
  call(method: ApiMethod, params: unknown): Promise<unknown>;
  /** Engine events of the sandboxes this connection is subscribed to. */
  onEvent(listener: (event: ApiEvent) => void): () => void;
  close(): Promise<void>;
}

/** An engine in this process, owned by the transport when it created it. */
export async function inProcessTransport(
  options: { engine?: SandglassEngine; programsDir?: string; name?: string } = {},
): Promise<Transport> {
  const { SandglassEngine: Engine } = await import('../../src-worker/api/engine.js');
  const owned = options.engine === undefined;
  const engine =
    options.engine ??
    new Engine(options.programsDir !== undefined ? { programsDir: options.programsDir } : {});
  const listeners = new Set<(event: ApiEvent) => void>();
  const client: BusClient = engine.connect(
    'agent',
    (event) => {
      for (const l of listeners) l(event);
    },
    { name: options.name ?? 'sdk', transport: 'in-process' },
  );
  return {
    call: async (method, params) => {
      // Checked against the schema as every transport does: the engine trusts its callers.
      const problem = validateParams(method, params);
      if (problem) throw new SandglassError('EINVAL', problem);
      try {
        return await engine.call(method, params as ApiParams<typeof method>, client);
      } catch (err) {
        throw SandglassError.from(err);
      }
    },
    onEvent: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: async () => {
      client.close();
      if (owned) await engine.dispose();
    },
  };
}

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
}

/** A JSON-RPC 2.0 client over any text channel that carries one message per `send`. */
class JsonRpcClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Set<(event: ApiEvent) => void>();
  private closedWith: SandglassError | undefined;

  constructor(private readonly send: (text: string) => void) {}

  call(method: string, params: unknown): Promise<unknown> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      try {
        this.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
      } catch (err) {
        this.pending.delete(id);
        reject(SandglassError.from(err));
      }
    });
  }

  receive(text: string): void {
    let message: {
      id?: unknown;
      method?: unknown;
      params?: unknown;
      result?: unknown;
      error?: { code: number; message: string; data?: { code?: string } };
    };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      return;
    }
    if (message.method === 'event') {
      for (const l of this.listeners) l(message.params as ApiEvent);
      return;
    }
    const entry = typeof message.id === 'number' ? this.pending.get(message.id) : undefined;
    if (!entry) return;
    this.pending.delete(message.id as number);
    if (message.error)
      entry.reject(
        new SandglassError(
          message.error.data?.code ?? 'EIO',
          message.error.message,
          message.error.code,
        ),
      );
    else entry.resolve(message.result);
  }

  onEvent(listener: (event: ApiEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The channel is gone: every call still waiting fails with `reason`. */
  closed(reason: string): void {
    this.closedWith ??= new SandglassError('ECONNRESET', reason);
    for (const entry of this.pending.values()) entry.reject(this.closedWith);
    this.pending.clear();
  }
}

/** bin/sandglass.mjs, two folders up from this module (sdk/typescript/ or out/cli/). */
function defaultCli(): string {
  return fileURLToPath(new URL('../../bin/sandglass.mjs', import.meta.url));
}

/** Starts `sandglass rpc` and speaks JSON-RPC on its stdio; its stderr is passed through. */
export function spawnTransport(
  options: { command?: string; args?: string[]; env?: NodeJS.ProcessEnv } = {},
): Transport {
  const command = options.command ?? process.execPath;
  const args = options.args ?? [defaultCli(), 'rpc'];
  const child = spawn(command, args, {
    stdio: ['pipe', 'pipe', 'inherit'],
    ...(options.env ? { env: options.env } : {}),
  });
  const rpc = new JsonRpcClient((text) => child.stdin.write(`${text}\n`));
  let buffered = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffered += chunk;
    let nl: number;
    while ((nl = buffered.indexOf('\n')) !== -1) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      if (line.trim() !== '') rpc.receive(line);
    }
  });
  const exited = new Promise<void>((resolve) => {
    child.on('error', (err) => {
      rpc.closed(`cannot start ${command}: ${err.message}`);
      resolve();
    });
    child.on('exit', (code, signal) => {
      rpc.closed(`sandglass rpc exited (${signal ?? `status ${code}`})`);
      resolve();
    });
  });
  child.stdin.on('error', () => undefined);
  return {
    call: (method, params) => rpc.call(method, params),
    onEvent: (listener) => rpc.onEvent(listener),
    close: async () => {
      // Closing stdin ends the server once it has answered; kill it if it lingers.
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Connects to a running app's JSON-RPC WebSocket (`url` is the app's address, token included or given). */
export async function webSocketTransport(options: {
  url: string;
  token?: string;
  bearerToken?: string;
}): Promise<Transport> {
  const url = new URL(options.url);
  url.protocol = url.protocol === 'https:' || url.protocol === 'wss:' ? 'wss:' : 'ws:';
  url.pathname = RPC_WS_PATH;
  if (options.token !== undefined) url.searchParams.set('token', options.token);
  const ws = new WebSocket(
    url.href,
    options.bearerToken !== undefined
      ? { headers: { authorization: `Bearer ${options.bearerToken}` } }
      : {},
  );
  const rpc = new JsonRpcClient((text) => ws.send(text));
  ws.on('message', (data: WebSocket.RawData) => rpc.receive(data.toString()));
  const closed = new Promise<void>((resolve) =>
    ws.on('close', (_code, reason) => {
      rpc.closed(reason.toString() || 'the connection closed');
      resolve();
    }),
  );
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) =>
      reject(
        new SandglassError(
          res.statusCode === 401 ? 'EACCES' : 'ECONNREFUSED',
          `${url.host} refused the connection: HTTP ${res.statusCode ?? '?'}`,
        ),
      ),
    );
    ws.once('error', (err) => reject(new SandglassError('ECONNREFUSED', err.message)));
  });
  return {
    call: (method, params) => rpc.call(method, params),
    onEvent: (listener) => rpc.onEvent(listener),
    close: async () => {
      ws.close();
      await closed;
    },
  };
}
