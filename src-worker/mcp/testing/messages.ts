/** JSON-RPC messages the MCP tests send by hand (what a client library would build for them). */

/** A 2025-era `initialize` request; `params` replaces fields of the usual one. */
export function initializeRequest(
  params: Record<string, unknown> = {},
  id: string | number = 1,
): {
  jsonrpc: '2.0';
  id: string | number;
  method: 'initialize';
  params: { protocolVersion: string; capabilities: object; clientInfo: object };
} {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'raw', version: '0' },
      ...params,
    },
  };
}
