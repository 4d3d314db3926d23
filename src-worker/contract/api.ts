/**
 * The Sandglass API contract as TypeScript types, all inferred from the zod
 * schemas (schema.ts, methods.ts, events.ts, wire.ts), plus the constants.
 * Type-only imports: loading this module loads no schema code.
 */
import type { z } from 'zod';
import type { ApiEvent as ApiEventSchema } from './events.js';
import type { SaveFileParams as SaveFileParamsSchema } from './ipc.js';
import type { MethodTable } from './methods.js';
import type * as S from './schema.js';
import type * as T from './timeline.js';
import type { ServerMessage as ServerMessageSchema } from './wire.js';

export {
  API_VERSION,
  CHANNEL_PREFIX,
  CHANNELS,
  LIMITS,
  RPC_WS_PATH,
  WS_PATH,
} from './constants.js';

export type SandboxLimits = z.infer<typeof S.SandboxLimits>;
export type SandboxSettings = z.infer<typeof S.SandboxSettings>;
export type NetworkSettings = z.infer<typeof S.NetworkSettings>;
export type NetworkApproval = z.infer<typeof S.NetworkApproval>;
export type NetworkAuditRecord = z.infer<typeof S.NetworkAuditRecord>;
export type SandboxInfo = z.infer<typeof S.SandboxInfo>;
export type FileKind = z.infer<typeof S.FileKind>;
export type FileEntry = z.infer<typeof S.FileEntry>;
export type ProcessInfo = z.infer<typeof S.ProcessInfo>;
export type SandboxStats = z.infer<typeof S.SandboxStats>;
export type SessionKind = z.infer<typeof T.SessionKind>;
export type StepKind = z.infer<typeof T.StepKind>;
export type Step = z.infer<typeof T.Step>;
export type StepChanges = z.infer<typeof T.StepChanges>;
export type ChangedPath = z.infer<typeof T.ChangedPath>;
export type ChangeType = z.infer<typeof T.ChangeType>;
/** A network request of a step, as the audit records it. */
export type NetworkRecord = z.infer<typeof S.NetworkAuditRecord>;
export type Branch = z.infer<typeof T.Branch>;
export type TimelineInfo = z.infer<typeof T.TimelineInfo>;
export type ForkOrigin = z.infer<typeof S.ForkOrigin>;
export type DiffEntry = z.infer<typeof T.DiffEntry>;
export type DiffPage = z.infer<typeof T.DiffPage>;
export type FileSide = z.infer<typeof T.FileSide>;
export type FileDiff = z.infer<typeof T.FileDiff>;
export type RecordingFrame = z.infer<typeof T.RecordingFrame>;
export type StepRecording = z.infer<typeof T.StepRecording>;
export type TimelineFileSummary = z.infer<typeof T.TimelineFileSummary>;
export type RunResult = z.infer<typeof S.RunResult>;
export type FsChange = z.infer<typeof S.FsChange>;
export type FsChangeKind = FsChange['kind'];
export type ApiError = z.infer<typeof S.ApiError>;
export type ClientRole = z.infer<typeof S.ClientRole>;
export type ClientInfo = z.infer<typeof S.ClientInfo>;
export type EngineRequest = z.infer<typeof S.EngineRequest>;
export type RequestAnswer = z.infer<typeof S.RequestAnswer>;
export type RequestOutcome = z.infer<typeof S.RequestOutcome>;

export type ApiMethod = keyof MethodTable;
/** Params as a caller writes them (optional fields may be left out). */
export type ApiParams<M extends ApiMethod> = z.input<MethodTable[M]['params']>;
export type ApiResult<M extends ApiMethod> = z.infer<MethodTable[M]['result']>;

/** Pushed from the engine to the clients subscribed to what it concerns. */
export type ApiEvent = z.infer<typeof ApiEventSchema>;

export type ClientMessage = { type: 'request'; id: number; method: ApiMethod; params: unknown };
export type ServerMessage = z.infer<typeof ServerMessageSchema>;

/** The typed client every front end uses (proxy over a transport). */
export type SandglassApi = {
  [M in ApiMethod]: (params: ApiParams<M>) => Promise<ApiResult<M>>;
} & {
  /** Subscribe to engine events; returns the unsubscribe function. */
  onEvent(listener: (event: ApiEvent) => void): () => void;
};

export type SaveFileParams = z.infer<typeof SaveFileParamsSchema>;

/** What the preload exposes on `window.sandglass` in Electron. */
export interface PreloadBridge {
  apiVersion: number;
  /** Send a client message to the engine. */
  send(message: ClientMessage): void;
  /** Receive server messages; returns the unsubscribe function. */
  onMessage(listener: (message: ServerMessage) => void): () => void;
  /** Native save dialog; resolves to false when cancelled. */
  saveFile(params: SaveFileParams): Promise<boolean>;
}
