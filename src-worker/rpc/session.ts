/**
 * One JSON-RPC 2.0 connection to the engine, whatever carries it (stdio
 * lines, WebSocket frames): it takes message texts, answers single requests
 * and batches, runs notifications without replying, and forwards the events
 * of the sandboxes the client subscribed to as `event` notifications. The
 * methods are the contract's (METHODS), validated by their zod schemas, plus
 * the seed's dotted aliases and `rpc.discover`. Nothing a peer sends can make
 * it throw: every problem becomes the spec's error reply.
 */
import type { ApiMethod, ApiParams } from '../contract/api.js';
import { API_VERSION } from '../contract/constants.js';
import { eventJsonSchema, methodJsonSchemas } from '../contract/jsonSchema.js';
import { apiError, isApiMethod, validateParams } from '../contract/validate.js';
import type { ClientMeta, SandglassEngine } from '../api/engine.js';
import { EngineError, toApiError } from '../api/errors.js';
import type { BusClient } from '../api/eventBus.js';
import { ALIASES, aliasJsonSchemas, validateAliasParams, type Call } from './aliases.js';
import {
  checkRequest,
  eventNotification,
  MAX_BATCH,
  MAX_MESSAGE_CHARS,
  RPC_ERRORS,
  rpcError,
  rpcResult,
  type RpcId,
  type RpcRequest,
  type RpcResponse,
} from './protocol.js';

export interface RpcSession {
  readonly client: BusClient;
  /** Handles one message (a request, a notification or a batch); replies go to `send`. */
  receive(text: string): Promise<void>;
  /** Answers a message the transport could not take whole (too large): an Invalid Request. */
  refuse(reason: string): void;
  close(): void;
}

/** Largest reply sent, in characters; a bigger one becomes an error reply. */
const MAX_REPLY_CHARS = 256 * 1024 * 1024;

type Outcome = { ok: true; result: unknown } | { ok: false; response: (id: RpcId) => RpcResponse };

function fail(code: string, message: string, rpcCode?: number): Outcome {
  return { ok: false, response: (id) => rpcError(id, apiError(code, message), rpcCode) };
}

let discovery: unknown;

/** What `rpc.discover` returns: every method's params and result JSON Schema, and the events'. */
function discover(): unknown {
  discovery ??= {
    apiVersion: API_VERSION,
    methods: { ...methodJsonSchemas(), ...aliasJsonSchemas() },
    events: eventJsonSchema(),
    notifications: { event: 'params is one engine event (see events)' },
  };
  return discovery;
}

export function openRpcSession(
  engine: SandglassEngine,
  send: (text: string) => void,
  meta: ClientMeta,
): RpcSession {
  const write = (text: string): void => {
    try {
      send(text);
    } catch {
      // A transport that cannot send has closed: nothing more to do.
    }
  };
  const client = engine.connect('agent', (event) => write(encode(eventNotification(event))), meta);

  async function call(method: ApiMethod, params: unknown): Promise<Outcome> {
    const problem = validateParams(method, params);
    if (problem) return fail('EINVAL', problem, RPC_ERRORS.invalidParams);
    try {
      const result = await engine.call(method, params as ApiParams<typeof method>, client);
      return { ok: true, result };
    } catch (err) {
      const error = toApiError(err);
      return { ok: false, response: (id) => rpcError(id, error) };
    }
  }

  /** A contract method for an alias: validated, run for this client, its error thrown. */
  const callOrThrow: Call = (method, params) => {
    const problem = validateParams(method, params);
    if (problem) return Promise.reject(new EngineError('EINVAL', problem));
    return engine.call(method, params, client);
  };

  async function invoke(method: string, rawParams: unknown): Promise<Outcome> {
    if (method === 'rpc.discover') return { ok: true, result: discover() };
    const params = rawParams === undefined ? {} : rawParams;
    if (Array.isArray(params))
      return fail(
        'EINVAL',
        `${method}: params must be an object (by name)`,
        RPC_ERRORS.invalidParams,
      );
    const alias = Object.prototype.hasOwnProperty.call(ALIASES, method)
      ? ALIASES[method]
      : undefined;
    if (alias) {
      const problem = validateAliasParams(method, alias, params);
      if (problem) return fail('EINVAL', problem, RPC_ERRORS.invalidParams);
      try {
        return { ok: true, result: await alias.invoke(callOrThrow, params) };
      } catch (err) {
        const error = toApiError(err);
        return { ok: false, response: (id) => rpcError(id, error) };
      }
    }
    if (!isApiMethod(method))
      return fail('ENOSYS', `unknown method ${JSON.stringify(method)}`, RPC_ERRORS.methodNotFound);
    return call(method, params);
  }

  async function answer(request: RpcRequest): Promise<RpcResponse | null> {
    if (request.kind === 'invalid')
      return rpcError(request.id, apiError('EBADMSG', request.reason), RPC_ERRORS.invalidRequest);
    const outcome = await invoke(request.method, request.params);
    if (request.kind === 'notification') return null;
    return outcome.ok ? rpcResult(request.id, outcome.result) : outcome.response(request.id);
  }

  return {
    client,
    async receive(text) {
      if (text.length > MAX_MESSAGE_CHARS)
        return this.refuse(
          `message of ${text.length} characters is larger than ${MAX_MESSAGE_CHARS}`,
        );
      let raw: unknown;
      try {
        raw = JSON.parse(text);
      } catch {
        return write(
          encode(
            rpcError(null, apiError('EBADMSG', 'message is not valid JSON'), RPC_ERRORS.parseError),
          ),
        );
      }
      if (!Array.isArray(raw)) {
        const reply = await answer(checkRequest(raw));
        if (reply) write(encode(reply));
        return;
      }
      if (raw.length === 0) return this.refuse('a batch must not be empty');
      if (raw.length > MAX_BATCH)
        return this.refuse(`a batch holds at most ${MAX_BATCH} requests, not ${raw.length}`);
      const replies = (await Promise.all(raw.map((r) => answer(checkRequest(r))))).filter(
        (r): r is RpcResponse => r !== null,
      );
      if (replies.length > 0) write(encodeBatch(replies));
    },
    refuse(reason) {
      write(encode(rpcError(null, apiError('EBADMSG', reason), RPC_ERRORS.invalidRequest)));
    },
    close: () => client.close(),
  };
}

/** JSON text of one message; a reply too large or unserialisable becomes an error reply. */
function encode(message: RpcResponse | ReturnType<typeof eventNotification>): string {
  let problem: string;
  try {
    const text = JSON.stringify(message);
    if (text.length <= MAX_REPLY_CHARS) return text;
    problem = `reply of ${text.length} characters is too large`;
  } catch (err) {
    problem = `reply cannot be encoded: ${err instanceof Error ? err.message : String(err)}`;
  }
  const id = 'id' in message ? message.id : null;
  return JSON.stringify(rpcError(id, apiError('E2BIG', problem)));
}

function encodeBatch(replies: RpcResponse[]): string {
  const texts = replies.map(encode);
  const total = texts.reduce((n, t) => n + t.length + 1, 2);
  if (total <= MAX_REPLY_CHARS) return `[${texts.join(',')}]`;
  const why = `batch reply of ${total} characters is too large`;
  return JSON.stringify(replies.map((r) => rpcError(r.id, apiError('E2BIG', why))));
}
