/** A host for the MCP tools: an engine, the agent's client of its bus, and the limits in force. */
import type { SandglassEngine } from '../api/engine.js';
import { DEFAULT_OUTPUT_BYTES } from './output.js';
import type { McpHost, McpLimits } from './tool.js';

export const DEFAULT_LIMITS: McpLimits = {
  outputBytes: DEFAULT_OUTPUT_BYTES,
  readBytes: 64 * 1024,
  dirEntries: 1000,
  progressIntervalMs: 2000,
};

/**
 * Connects an agent to the engine's bus. Agents take no events: they ask,
 * and sandbox events are for the people watching.
 */
export function connectAgent(
  engine: SandglassEngine,
  limits: Partial<McpLimits> = {},
): McpHost & { close(): void } {
  const client = engine.connect('agent', () => undefined);
  return { engine, client, limits: { ...DEFAULT_LIMITS, ...limits }, close: () => client.close() };
}
