/**
 * What a tool is: a name, a description, input and output schemas (zod, so
 * the SDK validates arguments and publishes JSON Schema), annotations, and a
 * function from arguments to a result. Tools reach the sandboxes only through
 * the engine (`engine.call` with the agent's bus client), so every agent
 * command is a step like any other client's.
 */
import type { ToolAnnotations } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import type { SandglassEngine } from '../api/engine.js';
import type { BusClient } from '../api/eventBus.js';
import type { ApiEvent } from '../contract/api.js';
import type { AllowedImport } from './hostImports.js';
import type { Log } from './logging.js';

/** Per-server settings of what tools return (each may be overridden per call where a tool says so). */
export interface McpLimits {
  /** Cap per stream of a run's stdout and stderr, in bytes. */
  readonly outputBytes: number;
  /** Most bytes read_file returns. */
  readonly readBytes: number;
  /** Most entries list_dir returns. */
  readonly dirEntries: number;
  /** How often a running command reports progress (when the client asked for it). */
  readonly progressIntervalMs: number;
}

/** What the tools run against: the engine and the agent's client of it. */
export interface McpHost {
  readonly engine: SandglassEngine;
  /** The bus client (role 'agent') every call of this server goes through. */
  readonly client: BusClient;
  readonly limits: McpLimits;
  /** Host directory timeline_export writes to. */
  readonly exportDir: string;
  /** Host folders a person allows agents to import (asked at each create_sandbox). */
  allowedImports(): readonly AllowedImport[];
  /** Listens to the events of the sandboxes the agent's client is subscribed to; returns the unsubscribe. */
  onEvent(listener: (event: ApiEvent) => void): () => void;
  /** Names the agent after the MCP client (its clientInfo), for the Agents view. */
  introduce(who: { readonly name: string; readonly version?: string }): void;
}

/** One call of a tool. */
export interface ToolCall {
  readonly host: McpHost;
  /** Aborted when the client cancels the request or goes away. */
  readonly signal: AbortSignal;
  /** Reports progress when the client gave a progress token (else does nothing). */
  progress(message: string): void;
  /** Sends a log message about this call; absent when the client asked for none. */
  readonly log?: Log;
}

export interface ToolReply<O> {
  /** structuredContent: metadata, never the bulk of the output. */
  readonly structured: O;
  /** Text blocks before the JSON of `structured` (the output itself, once). */
  readonly text?: readonly string[];
}

export interface ToolDef<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly input: I;
  readonly output: O;
  readonly annotations: ToolAnnotations;
  run(args: z.output<I>, call: ToolCall): Promise<ToolReply<z.input<O>>>;
}

/** A tool definition with its types checked (the list of tools holds them untyped). */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(
  def: ToolDef<I, O>,
): ToolDef {
  return def as unknown as ToolDef;
}

/**
 * Makes a directory and its parents when missing. Every file operation
 * through the engine is a timeline step, so one that would change nothing
 * is not made.
 */
export async function ensureDir(host: McpHost, sandboxId: string, path: string): Promise<void> {
  try {
    if ((await host.engine.call('stat', { sandboxId, path }, host.client)).kind === 'dir') return;
  } catch {
    // Missing (or unreadable): mkdir says what is wrong, if anything.
  }
  await host.engine.call('mkdir', { sandboxId, path, recursive: true }, host.client);
}

/** Annotations of a tool that only reads. */
export const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** Annotations of a tool that changes a sandbox (never the world outside: openWorldHint false). */
export function changes(how: { destructive: boolean; idempotent: boolean }): ToolAnnotations {
  return {
    readOnlyHint: false,
    destructiveHint: how.destructive,
    idempotentHint: how.idempotent,
    openWorldHint: false,
  };
}
