/**
 * The seed's dotted method names (`snapshot.create`, `snapshot.restore`,
 * `sandbox.fork`), kept for SDKs written against them: each maps its params
 * onto a contract method and that method's result back to the seed's shape.
 */
import { z } from 'zod';
import type { ApiMethod } from '../contract/api.js';
import type { MethodJsonSchema } from '../contract/jsonSchema.js';

export interface Alias {
  readonly description: string;
  readonly method: ApiMethod;
  /** The alias's own params schema (what rpc.discover publishes). */
  readonly schema: z.ZodType;
  readonly resultSchema: z.ZodType;
  params(params: Record<string, unknown>): unknown;
  result(result: unknown): unknown;
}

export const ALIASES: Readonly<Record<string, Alias>> = {};

export function aliasJsonSchemas(): Record<string, MethodJsonSchema> {
  const out: Record<string, MethodJsonSchema> = {};
  for (const [name, alias] of Object.entries(ALIASES))
    out[name] = {
      description: `${alias.description} (alias of ${alias.method})`,
      params: z.toJSONSchema(alias.schema, { io: 'input' }) as Record<string, unknown>,
      result: z.toJSONSchema(alias.resultSchema, { io: 'output' }) as Record<string, unknown>,
    };
  return out;
}
