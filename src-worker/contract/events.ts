/** Every event the engine pushes to clients, as one tagged union. */
import { z } from 'zod';
import {
  ClientInfo,
  EngineRequest,
  FsChange,
  NetworkAuditRecord,
  RequestOutcome,
  SandboxInfo,
  SandboxStats,
} from './schema.js';
import { Branch, Step } from './timeline.js';

export const ApiEvent = z.discriminatedUnion('type', [
  /** The sandbox list changed (to every client). */
  z.object({ type: z.literal('sandboxes'), sandboxes: z.array(SandboxInfo) }),
  /** The connected clients or their state changed (to every person). */
  z.object({ type: z.literal('clients'), clients: z.array(ClientInfo) }),
  z.object({ type: z.literal('fsChange'), sandboxId: z.string(), changes: z.array(FsChange) }),
  z.object({ type: z.literal('stats'), sandboxId: z.string(), stats: SandboxStats }),
  /** Progress of a large import (an importFiles upload): done so far of the totals. */
  z.object({
    type: z.literal('importProgress'),
    sandboxId: z.string(),
    importId: z.string(),
    dir: z.string(),
    files: z.number(),
    bytes: z.number(),
    totalFiles: z.number(),
    totalBytes: z.number(),
    state: z.enum(['running', 'done', 'cancelled']),
  }),
  /** A step was added to a sandbox's timeline. */
  z.object({ type: z.literal('step'), step: Step }),
  /** A step changed after it was added (network records, snapshot released). */
  z.object({ type: z.literal('stepUpdated'), step: Step }),
  /** A branch was created or renamed, or its tip moved. */
  z.object({ type: z.literal('branch'), branch: Branch }),
  /** The sandbox was put back to a step (the restore step is `restoreStepId`). */
  z.object({
    type: z.literal('restored'),
    sandboxId: z.string(),
    stepId: z.string(),
    restoreStepId: z.string(),
  }),
  /** The step the next one continues from moved. */
  z.object({
    type: z.literal('head'),
    sandboxId: z.string(),
    stepId: z.string().nullable(),
    branchId: z.string(),
  }),
  z.object({ type: z.literal('terminalData'), terminalId: z.string(), data: z.string() }),
  z.object({ type: z.literal('terminalExit'), terminalId: z.string(), status: z.number() }),
  /** A terminal's shell is in `cwd` (sent at open and whenever a command line changed it). */
  z.object({ type: z.literal('terminalCwd'), terminalId: z.string(), cwd: z.string() }),
  /** A network request finished (or was refused) in a subscribed sandbox. */
  z.object({ type: z.literal('network'), record: NetworkAuditRecord }),
  /** A question for this client (it may answer with the `answer` method). */
  z.object({ type: z.literal('request'), request: EngineRequest }),
  /** A request this client was shown is closed: answered (by anyone), cancelled or timed out. */
  z.object({
    type: z.literal('requestClosed'),
    requestId: z.string(),
    outcome: RequestOutcome,
    reason: z.string(),
  }),
]);

export type ApiEventType = z.infer<typeof ApiEvent>['type'];
