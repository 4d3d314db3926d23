/**
 * What makes a JSON value a JSON-RPC 2.0 message, checked before the SDK
 * sees it: the SDK drops what it cannot parse without a reply (stdio) or
 * answers it as a parse error (HTTP), where the spec asks for -32600.
 */

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;

export type JsonRpcId = string | number | null;

/** Whether `value` is a JSON-RPC 2.0 message, or the -32600 error it gets (with the id to answer). */
export function checkMessage(
  value: unknown,
): { ok: true } | { ok: false; id: JsonRpcId; message: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return {
      ok: false,
      id: null,
      message: 'Invalid Request: expected a JSON-RPC 2.0 message object',
    };
  const m = value as Record<string, unknown>;
  const id: JsonRpcId = typeof m.id === 'string' || typeof m.id === 'number' ? m.id : null;
  if (m.jsonrpc !== '2.0')
    return { ok: false, id, message: 'Invalid Request: jsonrpc must be "2.0"' };
  const isCall = typeof m.method === 'string';
  // MCP narrows JSON-RPC: a request's id is a string or a number, never null.
  if (
    'id' in m &&
    typeof m.id !== 'string' &&
    typeof m.id !== 'number' &&
    (isCall || m.id !== null)
  )
    return { ok: false, id: null, message: 'Invalid Request: id must be a string or a number' };
  const isReply = 'id' in m && ('result' in m || 'error' in m);
  if (!isCall && !isReply)
    return { ok: false, id, message: 'Invalid Request: no method, result or error' };
  if (isCall && 'params' in m && (typeof m.params !== 'object' || m.params === null))
    return { ok: false, id, message: 'Invalid Request: params must be an object or an array' };
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
