/**
 * Boundary validation of client messages against the schemas: every request
 * the engine accepts is checked here first, so a malformed message becomes an
 * ApiError, never a crash.
 */
import type { z } from 'zod';
import type { ApiError, ApiMethod, ClientMessage } from './api.js';
import { METHODS } from './methods.js';
import { ClientMessage as ClientMessageSchema } from './wire.js';

/** Names of all API methods, for proxies and tests. */
export const API_METHODS = Object.keys(METHODS) as ApiMethod[];

export function isApiMethod(name: unknown): name is ApiMethod {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(METHODS, name);
}

export function apiError(code: string, message: string, name = 'ApiError'): ApiError {
  return { name, message, code };
}

/** One issue as a sentence naming the parameter, as a person would write it. */
function describeIssue(issue: z.core.$ZodIssue, params: unknown): string {
  const path = issue.path.map(String);
  if (issue.code === 'unrecognized_keys') {
    const where = path.length === 0 ? 'parameter' : `field of ${path.join('.')}:`;
    return `unknown ${where} ${JSON.stringify(issue.keys[0])}`;
  }
  if (issue.code === 'invalid_type' && valueAt(params, path) === undefined) {
    if (path.length === 0) return 'params must be an object';
    return path.length === 1
      ? `missing parameter ${JSON.stringify(path[0])}`
      : `missing ${path.join('.')}`;
  }
  if (issue.code === 'invalid_type' && path.length === 0) return 'params must be an object';
  if (issue.code === 'invalid_key') {
    const inner = issue.issues[0];
    return `${path.slice(0, -1).join('.')} ${inner ? inner.message : issue.message}`;
  }
  return `${path.join('.')} ${issue.message}`;
}

/** The value at a path in untrusted input (undefined when any step is missing). */
function valueAt(value: unknown, path: readonly string[]): unknown {
  let at = value;
  for (const key of path) {
    if (!isRecord(at) || !Object.prototype.hasOwnProperty.call(at, key)) return undefined;
    at = at[key];
  }
  return at;
}

/** Checks params against the method's schema; returns an error message or null. */
export function validateParams(method: ApiMethod, params: unknown): string | null {
  const result = METHODS[method].params.safeParse(params);
  if (result.success) return null;
  const issue = result.error.issues[0];
  return `${method}: ${issue ? describeIssue(issue, params) : 'invalid params'}`;
}

export type ParsedRequest =
  { ok: true; message: ClientMessage } | { ok: false; id: number | null; error: ApiError };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Validates an untrusted decoded message (already JSON-parsed or structured-cloned). */
export function parseClientMessage(raw: unknown): ParsedRequest {
  if (!isRecord(raw))
    return { ok: false, id: null, error: apiError('EBADMSG', 'message must be an object') };
  const id = typeof raw.id === 'number' && Number.isSafeInteger(raw.id) ? raw.id : null;
  if (raw.type !== 'request')
    return {
      ok: false,
      id,
      error: apiError('EBADMSG', `unknown message type ${JSON.stringify(raw.type)}`),
    };
  const envelope = ClientMessageSchema.safeParse(raw);
  if (id === null || !envelope.success)
    return { ok: false, id, error: apiError('EBADMSG', 'request id must be an integer') };
  const { method, params } = envelope.data;
  if (!isApiMethod(method))
    return { ok: false, id, error: apiError('ENOSYS', `unknown method ${JSON.stringify(method)}`) };
  const problem = validateParams(method, params);
  if (problem) return { ok: false, id, error: apiError('EINVAL', problem) };
  return { ok: true, message: { type: 'request', id, method, params } };
}

export { isSandglassChannel } from './constants.js';
