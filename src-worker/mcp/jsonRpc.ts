/**
 * What makes a JSON value a JSON-RPC 2.0 message as MCP has them, checked
 * before the SDK sees it: the SDK drops what it cannot parse without a reply
 * (stdio), answers it as a parse error (HTTP) or as an internal error (bad
 * `initialize` params), where the spec asks for -32600 or -32602.
 */

import { parseJSONRPCMessage, specTypeSchemas } from '@modelcontextprotocol/server';

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;

export type JsonRpcId = string | number | null;

export const INVALID_PARAMS = -32602;

/** Why a message is refused: the error to answer, or `silent` for a notification (never answered). */
export interface Refusal {
  readonly ok: false;
  readonly id: JsonRpcId;
  readonly code: number;
  readonly message: string;
  readonly silent: boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** What is wrong with `initialize` params the SDK would take for an internal error (-32603), if anything. */
function initializeProblem(params: unknown): string | undefined {
  if (!isObject(params)) return 'initialize takes params';
  if (typeof params.protocolVersion !== 'string') return 'params.protocolVersion must be a string';
  if (!isObject(params.capabilities)) return 'params.capabilities must be an object';
  const info = params.clientInfo;
  if (!isObject(info) || typeof info.name !== 'string' || typeof info.version !== 'string')
    return 'params.clientInfo must be {name, version} strings';
  return undefined;
}

interface SchemaIssue {
  readonly path?: readonly unknown[];
  readonly message?: string;
  /** A union's branches, each with its own issues. */
  readonly errors?: readonly (readonly SchemaIssue[])[];
}

/** The issue to report: inside a union (request | notification | response), the branch that came closest. */
function closestIssue(issues: readonly SchemaIssue[]): SchemaIssue | undefined {
  const first = issues[0];
  if (!first?.errors?.length) return first;
  const branch = [...first.errors].sort((a, b) => a.length - b.length)[0] ?? [];
  return closestIssue(branch) ?? first;
}

/** Where an issue is and what it says, as one line. */
function describeIssue(issue: SchemaIssue): string {
  const where = (issue.path ?? []).map(String).join('.');
  return `${where === '' ? '' : `${where}: `}${issue.message ?? 'does not match the schema'}`;
}

interface RequestSchema {
  safeParse(v: unknown): { success: boolean; error?: { issues: SchemaIssue[] } };
}

/** The spec's schema of each client request, by method (ping, tools/list, resources/read...). */
const REQUEST_SCHEMAS: ReadonlyMap<string, RequestSchema> = (() => {
  const union = specTypeSchemas.ClientRequest as unknown as {
    options: { shape: { method: { value?: unknown } } }[];
  };
  const byMethod = new Map<string, RequestSchema>();
  for (const option of union.options) {
    const method = option.shape.method.value;
    if (typeof method === 'string') byMethod.set(method, option as unknown as RequestSchema);
  }
  return byMethod;
})();

/**
 * What is wrong with a request's params by the spec's schema of its method
 * (a cursor that is not a string, a log level that is none), if anything.
 * The SDK checks the same inside its handlers but answers -32603.
 */
export function requestParamsProblem(method: string, request: unknown): string | undefined {
  const schema = REQUEST_SCHEMAS.get(method);
  if (!schema) return undefined;
  const parsed = schema.safeParse(request);
  if (parsed.success) return undefined;
  const issue = closestIssue(parsed.error?.issues ?? []);
  return issue ? describeIssue(issue) : 'does not match the schema';
}

/** What the SDK's JSON-RPC message schema finds wrong with `m`, if anything. */
function sdkSchemaProblem(m: Record<string, unknown>): string | undefined {
  try {
    parseJSONRPCMessage(m);
    return undefined;
  } catch (e) {
    const issue = closestIssue((e as { issues?: SchemaIssue[] }).issues ?? []);
    if (!issue) return e instanceof Error ? e.message : String(e);
    return describeIssue(issue);
  }
}

/**
 * Whether `value` is a JSON-RPC 2.0 message as MCP has them, or the error
 * it gets: -32600 for what is no message at all, -32602 for positional
 * params (MCP names its params) and params the spec's schema of a known
 * method refuses (malformed `initialize` params, a non-string cursor...).
 */
export function checkMessage(value: unknown): { ok: true } | Refusal {
  const refuse = (id: JsonRpcId, code: number, message: string, silent = false): Refusal => ({
    ok: false,
    id,
    code,
    message,
    silent,
  });
  if (!isObject(value))
    return refuse(null, INVALID_REQUEST, 'Invalid Request: expected a JSON-RPC 2.0 message object');
  const m = value;
  const id: JsonRpcId = typeof m.id === 'string' || typeof m.id === 'number' ? m.id : null;
  if (m.jsonrpc !== '2.0')
    return refuse(id, INVALID_REQUEST, 'Invalid Request: jsonrpc must be "2.0"');
  const isCall = typeof m.method === 'string';
  // MCP narrows JSON-RPC: a request's id is a string or a number, never null.
  if (
    'id' in m &&
    typeof m.id !== 'string' &&
    typeof m.id !== 'number' &&
    (isCall || m.id !== null)
  )
    return refuse(null, INVALID_REQUEST, 'Invalid Request: id must be a string or a number');
  if (typeof m.id === 'number' && !Number.isSafeInteger(m.id))
    return refuse(id, INVALID_REQUEST, 'Invalid Request: a numeric id must be an integer');
  const isReply = 'id' in m && ('result' in m || 'error' in m);
  if (!isCall && !isReply)
    return refuse(id, INVALID_REQUEST, 'Invalid Request: no method, result or error');
  const notification = isCall && !('id' in m);
  if (isCall && 'params' in m && (typeof m.params !== 'object' || m.params === null))
    return refuse(id, INVALID_REQUEST, 'Invalid Request: params must be an object or an array');
  if (isCall && Array.isArray(m.params))
    return refuse(
      id,
      INVALID_PARAMS,
      `Invalid params: ${String(m.method)} takes its params by name (an object), not by position`,
      notification,
    );
  const problem = m.method === 'initialize' ? initializeProblem(m.params) : undefined;
  if (problem !== undefined)
    return refuse(id, INVALID_PARAMS, `Invalid params: ${problem}`, notification);
  // The SDK's own schema (no unknown members, _meta an object, a scalar
  // progressToken...): what fails it the SDK would drop unanswered.
  const schemaProblem = sdkSchemaProblem(m);
  if (schemaProblem !== undefined)
    return refuse(id, INVALID_REQUEST, `Invalid Request: ${schemaProblem}`, notification);
  if (isCall && !notification) {
    const paramsProblem = requestParamsProblem(String(m.method), m);
    if (paramsProblem !== undefined)
      return refuse(id, INVALID_PARAMS, `Invalid params: ${paramsProblem}`);
  }
  return { ok: true };
}

/**
 * Whether a protocol version takes JSON-RPC batches: 2025-03-26 made
 * receiving them a MUST, 2025-06-18 removed them (and 2024-11-05 predates
 * both, so JSON-RPC's own rule, batches allowed, applies).
 */
export function batchAllowed(protocolVersion: string): boolean {
  return protocolVersion < '2025-06-18';
}
