/**
 * One connection to an engine, typed by the contract: every method of the
 * API with its params and result types (inferred from the zod schemas), over
 * whichever transport was asked for. Sandboxes made through it share it.
 */
import type {
  ApiEvent,
  ApiMethod,
  ApiParams,
  ApiResult,
  SandboxInfo,
} from '../../src-worker/contract/api.js';
import { API_VERSION } from '../../src-worker/contract/constants.js';
import type { SandglassEngine } from '../../src-worker/api/engine.js';
import {
  inProcessTransport,
  spawnTransport,
  webSocketTransport,
  type Transport,
} from './transports.js';

export type ConnectOptions = { name?: string } & (
  | {
      /** An engine in this process (the default); a new one unless `engine` is given. */
      mode?: 'in-process';
      engine?: SandglassEngine;
      programsDir?: string;
    }
  | {
      /** A `sandglass rpc` child process (default: this checkout's bin/sandglass.mjs). */
      mode: 'spawn';
      command?: string;
      args?: string[];
      env?: NodeJS.ProcessEnv;
    }
  | {
      /**
       * A running app. Web mode: its URL, with the workbench's token in it
       * or given as `token`. The desktop app: its agents' server
       * (`http://127.0.0.1:7717`) with `bearerToken`, the agents' token from
       * ~/.sandglass/mcp-token, sent in the Authorization header.
       */
      mode: 'websocket';
      url: string;
      token?: string;
      bearerToken?: string;
    }
);

export class Connection {
  private closing: Promise<void> | undefined;

  private constructor(
    private readonly transport: Transport,
    /** The id the engine knows this connection by (the Agents view shows it). */
    readonly clientId: string | undefined,
  ) {}

  static async open(options: ConnectOptions = {}): Promise<Connection> {
    const name = options.name ?? 'sandglass-sdk';
    let transport: Transport;
    if (options.mode === 'spawn') transport = spawnTransport(options);
    else if (options.mode === 'websocket') transport = await webSocketTransport(options);
    else transport = await inProcessTransport({ ...options, name });
    try {
      const hello = await transport.call('hello', {
        apiVersion: API_VERSION,
        client: { name },
      });
      return new Connection(transport, (hello as ApiResult<'hello'>).clientId);
    } catch (err) {
      await transport.close();
      throw err;
    }
  }

  /** Calls any API method (see docs/agent-api.md); failures throw SandglassError. */
  call<M extends ApiMethod>(method: M, params: ApiParams<M>): Promise<ApiResult<M>> {
    return this.transport.call(method, params) as Promise<ApiResult<M>>;
  }

  /** Events of the sandboxes this connection created or subscribed to. */
  onEvent(listener: (event: ApiEvent) => void): () => void {
    return this.transport.onEvent(listener);
  }

  listSandboxes(): Promise<SandboxInfo[]> {
    return this.call('listSandboxes', {});
  }

  /** Closes the connection (a spawned `sandglass rpc` ends, an owned engine is disposed). */
  close(): Promise<void> {
    this.closing ??= this.transport.close();
    return this.closing;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}
