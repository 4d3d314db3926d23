/**
 * The data shapes the API exchanges, as zod schemas. Types are inferred from
 * these in api.ts; methods.ts and events.ts build on them.
 */
import { z } from 'zod';

/** Field types with the messages a caller sees when a value is wrong. */
export const str = () => z.string({ error: 'must be a string' });
export const num = () => z.number({ error: 'must be a finite number' });
export const bool = () => z.boolean({ error: 'must be a boolean' });
const count = num().min(0, { error: 'must be a number >= 0' });

/** Resource limits of one sandbox; 0 means "kernel default". */
export const SandboxLimits = z.strictObject({
  totalBytes: count,
  fileBytes: count,
  nodeCount: count,
  processCount: count,
  outputBytes: count,
});

export const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, {
  error: (issue) => `name ${JSON.stringify(issue.input)} is not a valid variable name`,
});

export const SandboxSettings = z.strictObject({
  limits: SandboxLimits,
  env: z.record(envName, str()),
  /** Wall-time limit per command in milliseconds (0 = none). */
  timeoutMs: count.describe('wall-time limit per command in ms, 0 for none'),
});

export const SandboxInfo = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.number(),
  settings: SandboxSettings,
});

export const FileKind = z.enum(['file', 'dir', 'symlink', 'other']);

export const FileEntry = z.object({
  name: z.string(),
  /** Absolute path inside the sandbox. */
  path: z.string(),
  kind: FileKind,
  /** Permission bits (0o7777 range). */
  mode: z.number(),
  size: z.number(),
  mtimeMs: z.number(),
  /** Link target, for symlinks. */
  target: z.string().optional(),
});

export const ProcessInfo = z.object({
  pid: z.number(),
  ppid: z.number(),
  name: z.string(),
  argv: z.array(z.string()),
  wallMs: z.number(),
  cpuMs: z.number(),
});

/** One stats shape for the sandbox, the API and the CLI. */
export const SandboxStats = z.object({
  files: z.number(),
  bytes: z.number(),
  processes: z.array(ProcessInfo),
  /** Command line running in an API session or terminal, if any. */
  running: z.string().nullable(),
});

/** One finished command, from the sandbox, the API and the CLI alike. */
export const RunResult = z.object({
  stdout: z.string(),
  stderr: z.string(),
  status: z.number(),
  durationMs: z.number(),
  /** The step recording this run, when the engine ran it. */
  stepId: z.string().optional(),
});

export const FsChange = z.object({
  kind: z.enum(['created', 'modified', 'deleted']),
  path: z.string(),
});

/** Errors crossing any boundary have this shape. `code` is an errno name or an API code. */
export const ApiError = z.object({
  name: z.string(),
  message: z.string(),
  code: z.string(),
});

/** Who a client is: a person at the workbench, or an agent driving sandboxes. */
export const ClientRole = z.enum(['person', 'agent']);

/** One connected client, as the Agents view shows it. */
export const ClientInfo = z.object({
  id: z.string(),
  role: ClientRole,
  /** What the client calls itself (MCP clientInfo, `hello`'s client.name), or its transport. */
  name: z.string(),
  /** How it is connected: `ipc`, `websocket`, `jsonrpc-stdio`, `jsonrpc-websocket`, `mcp-stdio`, `mcp-http`, `in-process`. */
  transport: z.string(),
  /** When it connected (ms since the epoch). */
  since: z.number(),
  /** Sandboxes it is subscribed to (the ones it created or watches). */
  sandboxes: z.array(z.string()),
  /** Paused by a person: its next call waits until resumed. */
  paused: z.boolean(),
  /** Methods it has called. */
  calls: z.number(),
  /** The command line it is running now, if any. */
  running: z.string().nullable(),
});

/**
 * A question the engine puts to the clients allowed to answer it (first use:
 * network approval). It stays open until answered, cancelled or timed out.
 */
export const EngineRequest = z.object({
  id: z.string(),
  sandboxId: z.string(),
  kind: z.literal('approval'),
  title: z.string(),
  detail: z.string(),
  raisedAt: z.number(),
  /** When the engine gives up and applies its policy; null waits forever. */
  expiresAt: z.number().nullable(),
});

export const RequestAnswer = z.strictObject({ allow: bool() });

export const RequestOutcome = z.enum(['answered', 'cancelled', 'timedOut']);
