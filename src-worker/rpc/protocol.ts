/**
 * JSON-RPC 2.0 (https://www.jsonrpc.org/specification) as Sandglass speaks
 * it: message shapes, the spec's error codes, the mapping from engine error
 * codes, and the envelope check of one untrusted request. Pure: no engine,
 * no I/O.
 */
import type { ApiError, ApiEvent } from '../contract/api.js';

export type RpcId = string | number | null;

export const RPC_ERRORS = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** Any other engine error; `data.code` says which (ENOENT, EPERM, ETIMEDOUT...). */
  engineError: -32000,
} as const;

/** Largest message accepted, in characters: file uploads travel as base64 inside one. */
export const MAX_MESSAGE_CHARS = 96 * 1024 * 1024;
/** Largest batch accepted, in requests. */
export const MAX_BATCH = 1000;

/** Engine error codes that have a JSON-RPC code of their own. */
const CODE_OF: Readonly<Record<string, number>> = {
  EINVAL: RPC_ERRORS.invalidParams,
  ENOSYS: RPC_ERRORS.methodNotFound,
  EBADMSG: RPC_ERRORS.invalidRequest,
};

export interface RpcErrorObject {
  code: number;
  message: string;
  /** The engine's error: its errno-style code and message. */
  data: { code: string; message: string };
}

export type RpcResponse =
  | { jsonrpc: '2.0'; id: RpcId; result: unknown }
  | { jsonrpc: '2.0'; id: RpcId; error: RpcErrorObject };

/** A server-to-client notification carrying one engine event. */
export interface RpcEventNotification {
  jsonrpc: '2.0';
  method: 'event';
  params: ApiEvent;
}

export function rpcError(id: RpcId, error: ApiError, code?: number): RpcResponse {
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: code ?? CODE_OF[error.code] ?? RPC_ERRORS.engineError,
      message: error.message,
      data: { code: error.code, message: error.message },
    },
  };
}

export function rpcResult(id: RpcId, result: unknown): RpcResponse {
  return { jsonrpc: '2.0', id, result };
}

export function eventNotification(event: ApiEvent): RpcEventNotification {
  return { jsonrpc: '2.0', method: 'event', params: event };
}

/** One request as checked: a call (with id), a notification (no reply), or an invalid one. */
export type RpcRequest =
  | { kind: 'call'; id: RpcId; method: string; params: unknown }
  | { kind: 'notification'; method: string; params: unknown }
  | { kind: 'invalid'; id: RpcId; reason: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isId(value: unknown): value is RpcId {
  return (
    value === null ||
    typeof value === 'string' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

/** Checks the envelope of one request object (the params are the method's business). */
export function checkRequest(raw: unknown): RpcRequest {
  if (!isRecord(raw)) return { kind: 'invalid', id: null, reason: 'request must be an object' };
  const hasId = Object.prototype.hasOwnProperty.call(raw, 'id');
  const id = hasId && isId(raw.id) ? raw.id : null;
  if (hasId && !isId(raw.id))
    return { kind: 'invalid', id: null, reason: 'id must be a string, a number or null' };
  if (raw.jsonrpc !== '2.0') return { kind: 'invalid', id, reason: 'jsonrpc must be "2.0"' };
  if (typeof raw.method !== 'string')
    return { kind: 'invalid', id, reason: 'method must be a string' };
  const params = raw.params;
  if (params !== undefined && (typeof params !== 'object' || params === null))
    return { kind: 'invalid', id, reason: 'params must be an object or an array' };
  return hasId
    ? { kind: 'call', id, method: raw.method, params }
    : { kind: 'notification', method: raw.method, params };
}
