/**
 * The Sandglass API contract: every type the renderer, Electron main and the
 * engine exchange. Types and a few constants only; this folder imports nothing
 * outside itself so both sides can share it.
 */

/** Bumped on any incompatible change to methods, events or wire messages. */
export const API_VERSION = 1;

/** Every IPC channel name starts with this; the preload refuses others. */
export const CHANNEL_PREFIX = 'sandglass:';

/** IPC channels (Electron) and the WebSocket path (web mode). */
export const CHANNELS = {
  /** Renderer asks main for a MessagePort connected to the engine. */
  connect: 'sandglass:connect',
  /** Main hands the renderer a port (the message carries it). */
  port: 'sandglass:port',
  /** Native dialogs owned by main (export to host). */
  saveDialog: 'sandglass:save-dialog',
} as const;

/** WebSocket endpoint path in web mode. */
export const WS_PATH = '/api';

/** Resource limits of one sandbox; 0 means "kernel default". */
export interface SandboxLimits {
  totalBytes: number;
  fileBytes: number;
  nodeCount: number;
  processCount: number;
  outputBytes: number;
}

export interface SandboxSettings {
  limits: SandboxLimits;
  env: Record<string, string>;
  /** Wall-time limit per command in milliseconds (0 = none). */
  timeoutMs: number;
}

export interface SandboxInfo {
  id: string;
  name: string;
  createdAt: number;
  settings: SandboxSettings;
}

export type FileKind = 'file' | 'dir' | 'symlink' | 'other';

export interface FileEntry {
  name: string;
  /** Absolute path inside the sandbox. */
  path: string;
  kind: FileKind;
  /** Permission bits (0o7777 range). */
  mode: number;
  size: number;
  mtimeMs: number;
  /** Link target, for symlinks. */
  target?: string;
}

export interface SandboxStats {
  files: number;
  bytes: number;
  processes: number;
  /** Command line of the command running in an API session or terminal, if any. */
  running: string | null;
}

export type SessionKind = 'terminal' | 'api';

/** One finished command. Steps form a tree: parentId is the step before it. */
export interface Step {
  id: string;
  parentId: string | null;
  sandboxId: string;
  sessionId: string;
  sessionKind: SessionKind;
  command: string;
  /** Exit status; null when the shell did not report one. */
  status: number | null;
  startedAt: number;
  durationMs: number;
  /** Captured for API sessions only. */
  stdout?: string;
  stderr?: string;
  /** Snapshot taken right after the command finished. */
  snapshotId: string;
}

export interface RunResult {
  stdout: string;
  stderr: string;
  status: number;
  durationMs: number;
  stepId: string;
}

export type FsChangeKind = 'created' | 'modified' | 'deleted';

export interface FsChange {
  kind: FsChangeKind;
  path: string;
}

/** Errors crossing any boundary have this shape. `code` is an errno name or an API code. */
export interface ApiError {
  name: string;
  message: string;
  code: string;
}

/** Methods: one params object in, one result out. */
export interface ApiMethods {
  hello: { params: { apiVersion: number }; result: { apiVersion: number; kernel: string } };
  listSandboxes: { params: Record<string, never>; result: SandboxInfo[] };
  createSandbox: { params: { name: string; settings?: SandboxSettings }; result: SandboxInfo };
  renameSandbox: { params: { sandboxId: string; name: string }; result: SandboxInfo };
  destroySandbox: { params: { sandboxId: string }; result: null };
  updateSettings: { params: { sandboxId: string; settings: SandboxSettings }; result: SandboxInfo };
  stats: { params: { sandboxId: string }; result: SandboxStats };
  readDir: {
    params: { sandboxId: string; path: string; snapshotId?: string };
    result: FileEntry[];
  };
  stat: { params: { sandboxId: string; path: string; snapshotId?: string }; result: FileEntry };
  /** File bytes as base64 (JSON-safe on every transport). */
  readFile: {
    params: { sandboxId: string; path: string; snapshotId?: string };
    result: { base64: string; size: number };
  };
  writeFile: { params: { sandboxId: string; path: string; base64: string }; result: null };
  mkdir: { params: { sandboxId: string; path: string }; result: null };
  remove: { params: { sandboxId: string; path: string; recursive: boolean }; result: null };
  rename: { params: { sandboxId: string; from: string; to: string }; result: null };
  run: {
    params: { sandboxId: string; command: string; stdin?: string; cwd?: string };
    result: RunResult;
  };
  listSteps: { params: { sandboxId: string }; result: Step[] };
  restoreStep: { params: { sandboxId: string; stepId: string }; result: null };
  openTerminal: {
    params: { sandboxId: string; cols: number; rows: number };
    result: { terminalId: string };
  };
  terminalWrite: { params: { terminalId: string; data: string }; result: null };
  terminalResize: { params: { terminalId: string; cols: number; rows: number }; result: null };
  closeTerminal: { params: { terminalId: string }; result: null };
}

export type ApiMethod = keyof ApiMethods;
export type ApiParams<M extends ApiMethod> = ApiMethods[M]['params'];
export type ApiResult<M extends ApiMethod> = ApiMethods[M]['result'];

/** Pushed from the engine to every connected client. */
export type ApiEvent =
  | { type: 'sandboxes'; sandboxes: SandboxInfo[] }
  | { type: 'fsChange'; sandboxId: string; changes: FsChange[] }
  | { type: 'stats'; sandboxId: string; stats: SandboxStats }
  | { type: 'step'; step: Step }
  | { type: 'restored'; sandboxId: string; stepId: string }
  | { type: 'terminalData'; terminalId: string; data: string }
  | { type: 'terminalExit'; terminalId: string; status: number };

/** Wire messages (WebSocket frames as JSON, MessagePort messages as objects). */
export type ClientMessage = { type: 'request'; id: number; method: ApiMethod; params: unknown };

export type ServerMessage =
  | { type: 'response'; id: number; ok: true; result: unknown }
  | { type: 'response'; id: number; ok: false; error: ApiError }
  | { type: 'event'; event: ApiEvent };

/** The typed client every front end uses (proxy over a transport). */
export type SandglassApi = {
  [M in ApiMethod]: (params: ApiParams<M>) => Promise<ApiResult<M>>;
} & {
  /** Subscribe to engine events; returns the unsubscribe function. */
  onEvent(listener: (event: ApiEvent) => void): () => void;
};

/** What the preload exposes on `window.sandglass` in Electron. */
export interface PreloadBridge {
  apiVersion: number;
  /** Send a client message to the engine. */
  send(message: ClientMessage): void;
  /** Receive server messages; returns the unsubscribe function. */
  onMessage(listener: (message: ServerMessage) => void): () => void;
  /** Native save dialog; resolves to false when cancelled. */
  saveFile(params: { defaultName: string; base64: string }): Promise<boolean>;
}
