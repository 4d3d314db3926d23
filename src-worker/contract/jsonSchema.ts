/**
 * JSON Schema of every method and event, generated from the zod schemas: what
 * the MCP server publishes as tool input schemas and the SDKs generate from.
 */
import { z } from 'zod';
import type { ApiMethod } from './api.js';
import { ApiEvent } from './events.js';
import { METHODS } from './methods.js';

export type JsonSchema = Record<string, unknown>;

export interface MethodJsonSchema {
  description: string;
  params: JsonSchema;
  result: JsonSchema;
}

/** Params (as a client sends them) and result (as it receives them) of each method. */
export function methodJsonSchemas(): Record<ApiMethod, MethodJsonSchema> {
  const out = {} as Record<ApiMethod, MethodJsonSchema>;
  for (const [name, m] of Object.entries(METHODS) as [ApiMethod, (typeof METHODS)[ApiMethod]][]) {
    out[name] = {
      description: m.description,
      params: z.toJSONSchema(m.params, { io: 'input' }) as JsonSchema,
      result: z.toJSONSchema(m.result, { io: 'output' }) as JsonSchema,
    };
  }
  return out;
}

/** The union of every event the engine sends. */
export function eventJsonSchema(): JsonSchema {
  return z.toJSONSchema(ApiEvent, { io: 'output' }) as JsonSchema;
}
