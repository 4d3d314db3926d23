/**
 * Boundary validation of client messages: every request the engine accepts is
 * checked here first, so a malformed message becomes an ApiError, never a crash.
 * Pure code with no imports beyond the contract.
 */
import type { ApiError, ApiMethod, ClientMessage } from './api.js';

type FieldType = 'string' | 'number' | 'boolean' | 'settings';
/** A field spec; a trailing `?` marks it optional. */
type FieldSpec = FieldType | `${FieldType}?`;

const PARAMS: Record<ApiMethod, Record<string, FieldSpec>> = {
  hello: { apiVersion: 'number' },
  listSandboxes: {},
  createSandbox: { name: 'string', settings: 'settings?' },
  renameSandbox: { sandboxId: 'string', name: 'string' },
  destroySandbox: { sandboxId: 'string' },
  updateSettings: { sandboxId: 'string', settings: 'settings' },
  stats: { sandboxId: 'string' },
  readDir: { sandboxId: 'string', path: 'string', snapshotId: 'string?' },
  stat: { sandboxId: 'string', path: 'string', snapshotId: 'string?' },
  readFile: { sandboxId: 'string', path: 'string', snapshotId: 'string?' },
  writeFile: { sandboxId: 'string', path: 'string', base64: 'string' },
  mkdir: { sandboxId: 'string', path: 'string' },
  remove: { sandboxId: 'string', path: 'string', recursive: 'boolean' },
  rename: { sandboxId: 'string', from: 'string', to: 'string' },
  run: { sandboxId: 'string', command: 'string', stdin: 'string?', cwd: 'string?' },
  listSteps: { sandboxId: 'string' },
  restoreStep: { sandboxId: 'string', stepId: 'string' },
  openTerminal: { sandboxId: 'string', cols: 'number', rows: 'number' },
  terminalWrite: { terminalId: 'string', data: 'string' },
  terminalResize: { terminalId: 'string', cols: 'number', rows: 'number' },
  closeTerminal: { terminalId: 'string' },
};

/** Names of all API methods, for proxies and tests. */
export const API_METHODS = Object.keys(PARAMS) as ApiMethod[];

export function isApiMethod(name: unknown): name is ApiMethod {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(PARAMS, name);
}

export function apiError(code: string, message: string, name = 'ApiError'): ApiError {
  return { name, message, code };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkSettings(value: unknown): string | null {
  if (!isRecord(value)) return 'must be an object';
  const { limits, env, timeoutMs } = value;
  if (!isRecord(limits)) return 'limits must be an object';
  for (const key of ['totalBytes', 'fileBytes', 'nodeCount', 'processCount', 'outputBytes']) {
    const n = limits[key];
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0)
      return `limits.${key} must be a number >= 0`;
  }
  if (!isRecord(env)) return 'env must be an object';
  for (const [k, v] of Object.entries(env)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k))
      return `env name ${JSON.stringify(k)} is not a valid variable name`;
    if (typeof v !== 'string') return `env.${k} must be a string`;
  }
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs < 0) {
    return 'timeoutMs must be a number >= 0';
  }
  return null;
}

function checkField(type: FieldType, value: unknown): string | null {
  switch (type) {
    case 'string':
      return typeof value === 'string' ? null : 'must be a string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? null : 'must be a finite number';
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be a boolean';
    case 'settings':
      return checkSettings(value);
  }
}

/** Checks params against the method's spec; returns an error message or null. */
export function validateParams(method: ApiMethod, params: unknown): string | null {
  if (!isRecord(params)) return `${method}: params must be an object`;
  const spec = PARAMS[method];
  for (const key of Object.keys(params)) {
    if (!(key in spec)) return `${method}: unknown parameter ${JSON.stringify(key)}`;
  }
  for (const [key, fieldSpec] of Object.entries(spec)) {
    const optional = fieldSpec.endsWith('?');
    const type = (optional ? fieldSpec.slice(0, -1) : fieldSpec) as FieldType;
    const value = params[key];
    if (value === undefined) {
      if (optional) continue;
      return `${method}: missing parameter ${JSON.stringify(key)}`;
    }
    const problem = checkField(type, value);
    if (problem) return `${method}: ${key} ${problem}`;
  }
  return null;
}

export type ParsedRequest =
  { ok: true; message: ClientMessage } | { ok: false; id: number | null; error: ApiError };

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
  if (id === null)
    return { ok: false, id, error: apiError('EBADMSG', 'request id must be an integer') };
  if (!isApiMethod(raw.method)) {
    return {
      ok: false,
      id,
      error: apiError('ENOSYS', `unknown method ${JSON.stringify(raw.method)}`),
    };
  }
  const problem = validateParams(raw.method, raw.params);
  if (problem) return { ok: false, id, error: apiError('EINVAL', problem) };
  return { ok: true, message: { type: 'request', id, method: raw.method, params: raw.params } };
}

/** Checks an IPC channel name against the contract's prefix. */
export function isSandglassChannel(channel: unknown): channel is string {
  return (
    typeof channel === 'string' &&
    channel.startsWith('sandglass:') &&
    channel.length > 'sandglass:'.length
  );
}
