/**
 * The typed API client: a proxy turning method calls into request messages
 * over a Transport (WebSocket in web mode, the preload bridge in Electron) and
 * routing responses and events back.
 */
import type {
  ApiError,
  ApiEvent,
  ApiMethod,
  ApiParams,
  ApiResult,
  ClientMessage,
  SandglassApi,
  ServerMessage,
} from '../../src-worker/contract/api.js';
import { API_METHODS } from '../../src-worker/contract/validate.js';

export interface Transport {
  send(message: ClientMessage): void;
  onMessage(listener: (message: ServerMessage) => void): () => void;
  /** Called once when the transport is lost for good. */
  onClose(listener: (reason: string) => void): void;
}

/** An ApiError thrown on the client side. */
export class RemoteError extends Error {
  readonly code: string;
  constructor(error: ApiError) {
    super(error.message);
    this.name = error.name;
    this.code = error.code;
  }
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export function createApiClient(transport: Transport): SandglassApi {
  let nextId = 1;
  const pending = new Map<number, Pending>();
  const listeners = new Set<(event: ApiEvent) => void>();

  transport.onMessage((message) => {
    if (message.type === 'event') {
      for (const listener of listeners) listener(message.event);
      return;
    }
    const entry = pending.get(message.id);
    if (!entry) {
      if (!message.ok)
        console.warn(`sandglass: engine rejected a message: ${message.error.message}`);
      return;
    }
    pending.delete(message.id);
    if (message.ok) entry.resolve(message.result);
    else entry.reject(new RemoteError(message.error));
  });
  transport.onClose((reason) => {
    for (const entry of pending.values())
      entry.reject(new RemoteError({ name: 'Disconnected', message: reason, code: 'ECONNRESET' }));
    pending.clear();
  });

  const call = <M extends ApiMethod>(method: M, params: ApiParams<M>): Promise<ApiResult<M>> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      transport.send({ type: 'request', id, method, params });
    });

  const api: Partial<Record<ApiMethod, unknown>> & { onEvent: SandglassApi['onEvent'] } = {
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  for (const method of API_METHODS)
    api[method] = (params: ApiParams<typeof method>) => call(method, params);
  return api as SandglassApi;
}
