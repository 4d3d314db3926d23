/**
 * The seed's dotted method names (`snapshot.create`, `snapshot.restore`,
 * `sandbox.fork`, with `sandboxId` routing), kept for SDKs written against
 * them, mapped onto the timeline methods: a snapshot is a step (its state
 * after it), restoring one is `restoreStep`, forking is `forkSandbox` from the
 * latest step. The SDKs share `currentStep`.
 */
import { z } from 'zod';
import type { ApiMethod, ApiParams, ApiResult } from '../contract/api.js';
import type { MethodJsonSchema } from '../contract/jsonSchema.js';
import { str } from '../contract/schema.js';
import { EngineError } from '../api/errors.js';

/** Calls a contract method (validated), throwing its error. */
export type Call = <M extends ApiMethod>(method: M, params: ApiParams<M>) => Promise<ApiResult<M>>;

/**
 * The step that names the sandbox's current state: the timeline's head. A
 * sandbox with no step yet gets one (a no-op command) so its state has a name.
 */
export async function currentStep(call: Call, sandboxId: string): Promise<string> {
  const { headStepId } = await call('getTimeline', { sandboxId });
  if (headStepId !== null) return headStepId;
  const { stepId } = await call('run', { sandboxId, command: 'true' });
  if (stepId === undefined) throw new EngineError('EIO', 'the engine recorded no step');
  return stepId;
}

export interface Alias {
  readonly description: string;
  /** The contract methods it maps onto. */
  readonly uses: readonly ApiMethod[];
  readonly params: z.ZodType;
  readonly result: z.ZodType;
  invoke(call: Call, params: unknown): Promise<unknown>;
}

function alias<P extends z.ZodType, R extends z.ZodType>(def: {
  description: string;
  uses: readonly ApiMethod[];
  params: P;
  result: R;
  invoke: (call: Call, params: z.infer<P>) => Promise<z.infer<R>>;
}): Alias {
  return def as Alias;
}

const sandboxId = str().describe('id of the sandbox');

export const ALIASES: Readonly<Record<string, Alias>> = {
  'snapshot.create': alias({
    description: 'Names the sandbox’s current state (its latest step) and returns its id.',
    uses: ['getTimeline'],
    params: z.strictObject({ sandboxId }),
    result: z.object({ id: z.string() }),
    invoke: async (call, p) => ({ id: await currentStep(call, p.sandboxId) }),
  }),
  'snapshot.restore': alias({
    description: 'Puts the sandbox back as it was at a snapshot (recorded as a restore step).',
    uses: ['restoreStep'],
    params: z.strictObject({ sandboxId, id: str().describe('a snapshot id (a step id)') }),
    result: z.object({ ok: z.literal(true) }),
    invoke: async (call, p) => {
      await call('restoreStep', { sandboxId: p.sandboxId, stepId: p.id });
      return { ok: true as const };
    },
  }),
  'sandbox.fork': alias({
    description:
      'A new independent sandbox from this one’s current state; calls route to it by sandboxId.',
    uses: ['forkSandbox'],
    params: z.strictObject({ sandboxId, name: str().optional() }),
    result: z.object({ sandboxId: z.string() }),
    invoke: async (call, p) => {
      const stepId = await currentStep(call, p.sandboxId);
      const info = await call('forkSandbox', {
        sandboxId: p.sandboxId,
        stepId,
        ...(p.name !== undefined ? { name: p.name } : {}),
      });
      return { sandboxId: info.id };
    },
  }),
};

/** Checks an alias's params; returns an error message or null. */
export function validateAliasParams(name: string, a: Alias, params: unknown): string | null {
  const result = a.params.safeParse(params);
  if (result.success) return null;
  const issue = result.error.issues[0];
  if (!issue) return `${name}: invalid params`;
  const where = issue.path.map(String).join('.');
  return `${name}: ${where ? `${where} ` : ''}${issue.message}`;
}

export function aliasJsonSchemas(): Record<string, MethodJsonSchema> {
  const out: Record<string, MethodJsonSchema> = {};
  for (const [name, a] of Object.entries(ALIASES))
    out[name] = {
      description: `${a.description} (maps onto ${a.uses.join(', ')})`,
      params: z.toJSONSchema(a.params, { io: 'input' }) as Record<string, unknown>,
      result: z.toJSONSchema(a.result, { io: 'output' }) as Record<string, unknown>,
    };
  return out;
}
