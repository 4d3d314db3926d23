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
export type SandboxInfo = z.infer<typeof S.SandboxInfo>;
export type FileKind = z.infer<typeof S.FileKind>;
export type FileEntry = z.infer<typeof S.FileEntry>;
export type ProcessInfo = z.infer<typeof S.ProcessInfo>;
export type SandboxStats = z.infer<typeof S.SandboxStats>;
export type SessionKind = z.infer<typeof S.SessionKind>;
export type Step = z.infer<typeof S.Step>;
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
