/** Every event the engine pushes to clients, as one tagged union. */
import { z } from 'zod';
import {
  ClientInfo,
  EngineRequest,
  FsChange,
  RequestOutcome,
  SandboxInfo,
  SandboxStats,
  Step,
} from './schema.js';

export const ApiEvent = z.discriminatedUnion('type', [
  /** The sandbox list changed (to every client). */
  z.object({ type: z.literal('sandboxes'), sandboxes: z.array(SandboxInfo) }),
  /** The connected clients or their state changed (to every person). */
  z.object({ type: z.literal('clients'), clients: z.array(ClientInfo) }),
  z.object({ type: z.literal('fsChange'), sandboxId: z.string(), changes: z.array(FsChange) }),
  z.object({ type: z.literal('stats'), sandboxId: z.string(), stats: SandboxStats }),
  z.object({ type: z.literal('step'), step: Step }),
  z.object({ type: z.literal('restored'), sandboxId: z.string(), stepId: z.string() }),
  z.object({ type: z.literal('terminalData'), terminalId: z.string(), data: z.string() }),
  z.object({ type: z.literal('terminalExit'), terminalId: z.string(), status: z.number() }),
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
