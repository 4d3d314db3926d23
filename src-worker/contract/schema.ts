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
  /** Memory of all processes together (0 or absent: the kernel default). */
  memoryBytes: count.optional(),
});

export const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, {
  error: (issue) => `name ${JSON.stringify(issue.input)} is not a valid variable name`,
});

/** Most variables, and characters of `NAME=value` text, an environment may have. */
export const ENV_MAX_VARS = 4096;
export const ENV_MAX_CHARS = 1024 * 1024;

/**
 * Environment variables. Bounded like a system's ARG_MAX: the shell sets
 * each one per command, and tens of thousands take it minutes.
 */
export const envVars = z
  .record(envName, str())
  .refine((env) => Object.keys(env).length <= ENV_MAX_VARS, {
    error: `at most ${ENV_MAX_VARS} variables`,
  })
  .refine(
    (env) =>
      Object.entries(env).reduce((n, [k, v]) => n + k.length + v.length + 2, 0) <= ENV_MAX_CHARS,
    { error: `at most ${ENV_MAX_CHARS} characters of NAME=value text` },
  );

/**
 * The sandbox's network policy (docs/network.md): entries such as
 * `example.com`, `*.example.com:443`, `10.0.0.0/8`, `[::1]:8080`, `*`.
 * Everything else is denied unless a person approves it; a blocked entry
 * always wins. The engine checks each entry with the gateway's parser and
 * refuses a change naming the bad entry (EINVAL).
 */
const hostEntry = str().max(300, { error: 'a host entry is at most 300 characters' });
export const NetworkSettings = z.strictObject({
  allowedHosts: z.array(hostEntry).describe('hosts programs may reach without asking'),
  blockedHosts: z.array(hostEntry).describe('hosts always refused (wins over allowed)'),
});

export const SandboxSettings = z.strictObject({
  limits: SandboxLimits,
  env: envVars,
  /** Wall-time limit per command in milliseconds (0 = none). */
  timeoutMs: count.describe('wall-time limit per command in ms, 0 for none'),
  /** Left out: everything denied (default deny), people asked. */
  network: NetworkSettings.optional(),
});

/**
 * Where a forked sandbox came from: the source sandbox (its id, and its name
 * at the time of the fork) and the step forked. The source may be gone since.
 */
export const ForkOrigin = z.object({
  sandboxId: z.string(),
  sandboxName: z.string(),
  stepId: z.string(),
});

export const SandboxInfo = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.number(),
  settings: SandboxSettings,
  /** A forked sandbox: what it was forked from (its first step is that step). */
  origin: ForkOrigin.optional(),
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
  /** Linear memory the program holds, as it last reported it (0 if it does not report). */
  memoryBytes: z.number(),
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
  /** Where the whole stream was kept, when it was longer than `keepOutputOver`. */
  stdoutPath: z.string().optional(),
  stderrPath: z.string().optional(),
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
/** What a network approval asks about: one request or redirect hop of one process. */
export const NetworkApproval = z.object({
  url: z.string(),
  method: z.string(),
  /** The host as an entry would name it (`example.com`, `example.com:8443`). */
  host: z.string(),
  /** Lower-case names; secrets (Authorization, Cookie, tokens) masked. */
  headers: z.record(z.string(), z.string()),
  pid: z.number().nullable(),
  argv: z.array(z.string()),
  /** The command line the process belongs to, when known. */
  command: z.string().nullable(),
  stepId: z.string().nullable(),
  /** 0 for the request, n for its n-th redirect. */
  hop: z.number(),
  /** Why the agent wants it, when it said. */
  reason: z.string().nullable(),
});

/** One request (or redirect hop) a program made, as the gateway audited it. */
export const NetworkAuditRecord = z.object({
  /** ISO time the hop started. */
  time: z.string(),
  sandboxId: z.string(),
  /** The step it belongs to; null until its command's step is recorded. */
  stepId: z.string().nullable(),
  pid: z.number().nullable(),
  argv: z.array(z.string()),
  hop: z.number(),
  url: z.string(),
  method: z.string(),
  decision: z.enum(['allow', 'deny']),
  /** `policy`, `session`, or who answered (`person`). */
  decidedBy: z.string(),
  rule: z.string().nullable(),
  reason: z.string().nullable(),
  message: z.string().nullable(),
  addresses: z.array(z.string()),
  status: z.number().nullable(),
  bytesSent: z.number(),
  bytesReceived: z.number(),
  durationMs: z.number(),
  approvalWaitMs: z.number(),
});

export const EngineRequest = z.object({
  id: z.string(),
  sandboxId: z.string(),
  kind: z.literal('approval'),
  title: z.string(),
  detail: z.string(),
  raisedAt: z.number(),
  /** When the engine gives up and applies its policy; null waits forever. */
  expiresAt: z.number().nullable(),
  /** Present for a network approval. */
  network: NetworkApproval.optional(),
});

/**
 * An answer. `remember` widens it to the request's host: `session` until
 * the engine stops (allow only), `always` saved in the sandbox's network
 * settings (allowedHosts or blockedHosts).
 */
export const RequestAnswer = z.strictObject({
  allow: bool(),
  remember: z.enum(['once', 'session', 'always']).optional(),
});

export const RequestOutcome = z.enum(['answered', 'cancelled', 'timedOut']);
