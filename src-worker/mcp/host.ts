/**
 * A host for the MCP tools: an engine, the agent's client of it (listed in
 * the workbench's Agents view under the name the MCP client gives), the
 * limits in force and where exports go.
 */
import type { SandglassEngine } from '../api/engine.js';
import type { ApiEvent } from '../contract/api.js';
import { API_VERSION } from '../contract/constants.js';
import { defaultExportDir } from './hostFiles.js';
import type { AllowedImport } from './hostImports.js';
import { DEFAULT_OUTPUT_BYTES } from './output.js';
import type { McpHost, McpLimits } from './tool.js';

export const DEFAULT_LIMITS: McpLimits = {
  outputBytes: DEFAULT_OUTPUT_BYTES,
  readBytes: 64 * 1024,
  dirEntries: 1000,
  progressIntervalMs: 2000,
};

export interface AgentOptions {
  readonly limits?: Partial<McpLimits>;
  /** Host directory timeline_export writes to (default ~/.sandglass/exports). */
  readonly exportDir?: string;
  /** Host folders agents may import (default: none). */
  readonly allowedImports?: () => readonly AllowedImport[];
  /** How the agent is connected, as the Agents view shows it. */
  readonly transport: 'mcp-stdio' | 'mcp-http';
  /** Ends the agent's connection when a person stops it. */
  readonly disconnect?: () => void;
}

/**
 * Connects an agent to the engine. The events of the sandboxes the agent's
 * client is subscribed to go to whichever MCP servers listen (resource
 * subscriptions, log messages); with none listening they are dropped.
 */
export function connectAgent(
  engine: SandglassEngine,
  options: AgentOptions,
): McpHost & { close(): void } {
  const listeners = new Set<(event: ApiEvent) => void>();
  const client = engine.connect('agent', (event) => listeners.forEach((l) => l(event)), {
    name: options.transport === 'mcp-stdio' ? 'MCP client (stdio)' : 'MCP client (HTTP)',
    transport: options.transport,
    ...(options.disconnect ? { disconnect: options.disconnect } : {}),
  });
  let named = '';
  return {
    engine,
    client,
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    exportDir: options.exportDir ?? defaultExportDir(),
    allowedImports: options.allowedImports ?? (() => []),
    introduce: (who) => {
      const key = `${who.name}\0${who.version ?? ''}`;
      if (key === named) return;
      named = key;
      const version = who.version !== undefined ? { version: who.version.slice(0, 100) } : {};
      void engine
        .call(
          'hello',
          { apiVersion: API_VERSION, client: { name: who.name.slice(0, 200), ...version } },
          client,
        )
        .catch(() => undefined);
    },
    onEvent: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () => {
      listeners.clear();
      client.close();
    },
  };
}
