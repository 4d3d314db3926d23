/**
 * The Sandglass MCP server: one McpServer with every tool, built per
 * connection (stdio) or per request (HTTP) by the SDK's serving entries,
 * which pick the protocol era (2025-11-25 or 2026-07-28) themselves. All
 * state lives in the engine, so a fresh instance per request loses nothing.
 * A tool's failure is an `isError` result naming the error code; protocol
 * errors are left to the SDK (unknown tool, malformed request). Besides the
 * tools: logging (logging.ts) and the sandboxes' files as resources
 * (resources.ts).
 */
import {
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type ServerContext,
  type Tool,
} from '@modelcontextprotocol/server';
import { API_VERSION } from '../contract/constants.js';
import { toApiError } from '../api/errors.js';
import { installLogging, type Log } from './logging.js';
import { installResources } from './resources.js';
import type { McpHost, ToolCall, ToolDef } from './tool.js';
import { TOOLS } from './tools/index.js';

export const SERVER_NAME = 'sandglass';

const INSTRUCTIONS = `Sandglass runs commands in WebAssembly sandboxes: a bash-compatible shell, GNU coreutils and Python over an in-memory filesystem, isolated from the host. Start with create_sandbox (or list_sandboxes to join one a person opened), then pass its sandbox_id to every tool. run keeps one shell session per sandbox, so cd and variables persist. Each run is a step on the sandbox's timeline: snapshot, restore, fork and diff work on those steps. The network is closed unless the sandbox policy or a person watching the workbench allows a request.`;

/** Runs one tool for the SDK and shapes its reply or its error as a tool result. */
async function callTool(
  tool: ToolDef,
  host: McpHost,
  args: unknown,
  ctx: ServerContext,
  /** The request's logger, when the client asked for log messages. */
  logger: Log | undefined,
): Promise<CallToolResult> {
  const log: Log = logger ?? (() => undefined);
  const token = ctx.mcpReq._meta?.progressToken;
  let step = 0;
  const call: ToolCall = {
    host,
    signal: ctx.mcpReq.signal,
    ...(logger ? { log: logger } : {}),
    progress: (message) => {
      if (token === undefined || ctx.mcpReq.signal.aborted) return;
      void ctx.mcpReq
        .notify({
          method: 'notifications/progress',
          params: { progressToken: token, progress: ++step, message },
        })
        .catch(() => undefined);
    },
  };
  const startedAt = Date.now();
  const told = new Set<string>();
  const sandboxId = (args as { sandbox_id?: unknown } | undefined)?.sandbox_id;
  // What a long call waits for: progress (when asked for) and, once per
  // network request, a log message that a person's answer is awaited.
  const watch = async (): Promise<void> => {
    const waiting = await waitingFor(host, sandboxId, startedAt);
    if (waiting.request && !told.has(waiting.request.id)) {
      told.add(waiting.request.id);
      log('notice', {
        event: 'network_approval_waiting',
        sandbox_id: waiting.request.sandboxId,
        request: waiting.request.title,
      });
    }
    call.progress(waiting.message);
  };
  const heartbeat =
    token === undefined && logger === undefined
      ? undefined
      : setInterval(() => void watch().catch(() => undefined), host.limits.progressIntervalMs);
  try {
    const reply = await tool.run(args as never, call);
    const text = reply.text ?? [JSON.stringify(reply.structured)];
    return {
      content: text.map((t) => ({ type: 'text' as const, text: t })),
      structuredContent: reply.structured as Record<string, unknown>,
    };
  } catch (err) {
    const e = toApiError(err);
    log('error', { event: 'tool_failed', tool: tool.name, code: e.code, message: e.message });
    return { content: [{ type: 'text', text: `${e.code}: ${e.message}` }], isError: true };
  } finally {
    clearInterval(heartbeat);
  }
}

/**
 * What a call that takes long is waiting for, as its progress message: a
 * person (the agent is paused, or a network request of its sandbox awaits
 * approval), or its command.
 */
async function waitingFor(
  host: McpHost,
  sandboxId: unknown,
  startedAt: number,
): Promise<{ message: string; request?: { id: string; sandboxId: string; title: string } }> {
  const clients = await host.engine.call('listClients', {});
  if (clients.find((c) => c.id === host.client.id)?.paused)
    return { message: 'paused by a person in the workbench; waiting to be resumed' };
  const request =
    typeof sandboxId === 'string' ? host.engine.bus.pendingFor(sandboxId)[0] : undefined;
  if (request)
    return {
      message: `waiting for a person to answer in the workbench: ${request.title}`,
      request,
    };
  return { message: `running for ${Math.round((Date.now() - startedAt) / 1000)} s` };
}

/** A server instance with every tool, for one connection or one request. */
export function createMcpServer(host: McpHost): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, title: 'Sandglass', version: `${API_VERSION}.0.0` },
    // The tool list never changes while a server runs: no listChanged.
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
  );
  const logging = installLogging(server);
  for (const tool of TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        outputSchema: tool.output,
        annotations: { title: tool.title, ...tool.annotations },
      },
      (args, ctx) => {
        // The client says who it is per request (2026-07-28) or once at initialize (2025).
        const who = server.server.getClientVersion();
        if (who) host.introduce(who);
        return callTool(tool, host, args, ctx, logging.forRequest(ctx));
      },
    );
  }
  listToolsOnOnePage(server);
  installResources(server, host);
  return server;
}

/** How a tool is listed: what the SDK's own listing gives, from the same zod schemas. */
function listed(tool: ToolDef): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchema(tool.input, 'input') as Tool['inputSchema'],
    outputSchema: jsonSchema(tool.output, 'output') as Tool['outputSchema'],
    annotations: { title: tool.title, ...tool.annotations },
  };
}

/** A zod schema as JSON Schema 2020-12 (the Standard JSON Schema interface zod implements). */
function jsonSchema(schema: ToolDef['input'], io: 'input' | 'output'): Record<string, unknown> {
  const converted = schema['~standard'].jsonSchema[io]({ target: 'draft-2020-12' });
  return { type: 'object', ...converted };
}

/** The tools as tools/list gives them, made at the first listing. */
let listedTools: Tool[] | undefined;

/**
 * Every tool fits on one page of tools/list, so no cursor is ever handed
 * out and any cursor a client sends is invalid: -32602, as the spec's
 * pagination asks, rather than the whole list again as if it were page 2.
 * The list is built once from the tools' own schemas (they never change).
 */
function listToolsOnOnePage(server: McpServer): void {
  server.server.setRequestHandler('tools/list', (request) => {
    if (request.params?.cursor !== undefined)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Invalid cursor ${JSON.stringify(request.params.cursor)}: tools/list has one page, call it without a cursor`,
      );
    listedTools ??= TOOLS.map(listed);
    return { tools: listedTools };
  });
}
