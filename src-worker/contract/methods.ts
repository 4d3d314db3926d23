/**
 * Every API method: its params and result schema and one line saying what it
 * does. Adding a method starts here (see docs/architecture.md).
 */
import { z } from 'zod';
import {
  ClientInfo,
  FileEntry,
  NetworkAuditRecord,
  RequestAnswer,
  RunResult,
  SandboxInfo,
  SandboxSettings,
  SandboxStats,
  bool,
  envVars,
  num,
  str,
} from './schema.js';
import {
  Branch,
  DiffPage,
  FileDiff,
  Step,
  StepRecording,
  TimelineFileSummary,
  TimelineInfo,
} from './timeline.js';

const sandboxId = str().describe('id of the sandbox');
const path = str().describe('absolute path inside the sandbox');
const snapshotId = str().describe(
  'read this snapshot (a step’s snapshotId) instead of the live tree',
);
const done = z.null();
const stepId = str().describe('id of a step');
const offset = z.int({ error: 'must be an integer' }).min(0).optional();
const limit = z.int({ error: 'must be an integer' }).min(1).optional();
const base64 = str().describe('bytes as base64');

function method<P extends z.ZodType, R extends z.ZodType>(
  description: string,
  params: P,
  result: R,
) {
  return { description, params, result };
}

export const METHODS = {
  hello: method(
    'Checks the API version and names the engine; a client may say who it is (shown in the Agents view).',
    z.strictObject({
      apiVersion: num(),
      client: z
        .strictObject({ name: str().max(200), version: str().max(100).optional() })
        .optional(),
    }),
    z.object({
      apiVersion: z.number(),
      kernel: z.string(),
      /** Names this engine run; a different one after a reconnect means a new engine. */
      instance: z.string().optional(),
      /** True when this engine replaced one that stopped unexpectedly. */
      restarted: z.boolean().optional(),
      clientId: z.string().optional(),
    }),
  ),
  listSandboxes: method('Lists every sandbox.', z.strictObject({}), z.array(SandboxInfo)),
  createSandbox: method(
    'Creates a sandbox; the calling client is subscribed to it.',
    z.strictObject({ name: str(), settings: SandboxSettings.optional() }),
    SandboxInfo,
  ),
  renameSandbox: method(
    'Renames a sandbox.',
    z.strictObject({ sandboxId, name: str() }),
    SandboxInfo,
  ),
  destroySandbox: method(
    'Destroys a sandbox, its processes, terminals and steps.',
    z.strictObject({ sandboxId }),
    done,
  ),
  updateSettings: method(
    'Applies new limits, environment and time limit to a sandbox.',
    z.strictObject({ sandboxId, settings: SandboxSettings }),
    SandboxInfo,
  ),
  subscribe: method(
    'Sends this client the events of a sandbox (files, stats, steps, terminals, requests).',
    z.strictObject({ sandboxId }),
    done,
  ),
  unsubscribe: method(
    'Stops sending this client the events of a sandbox.',
    z.strictObject({ sandboxId }),
    done,
  ),
  stats: method(
    'Files, bytes, processes and the running command.',
    z.strictObject({ sandboxId }),
    SandboxStats,
  ),
  readDir: method(
    'Lists a directory.',
    z.strictObject({ sandboxId, path, snapshotId: snapshotId.optional() }),
    z.array(FileEntry),
  ),
  stat: method(
    'Describes one file without following a final symlink.',
    z.strictObject({ sandboxId, path, snapshotId: snapshotId.optional() }),
    FileEntry,
  ),
  readFile: method(
    'Reads a file; bytes as base64 (JSON-safe on every transport).',
    z.strictObject({ sandboxId, path, snapshotId: snapshotId.optional() }),
    z.object({ base64: z.string(), size: z.number() }),
  ),
  writeFile: method(
    'Writes a file (created or replaced) from base64 bytes.',
    z.strictObject({
      sandboxId,
      path,
      base64: str(),
      mode: z.int({ error: 'must be an integer' }).min(0).max(0o7777).optional(),
    }),
    done,
  ),
  importFiles: method(
    'Writes one batch of an upload of many files under `dir` (parents made as needed), reporting progress to subscribers as importProgress events; the last batch records the whole upload as one step. Fails with ECANCELED once the upload was cancelled.',
    z.strictObject({
      sandboxId,
      importId: str().describe('id the client chose for this upload (one per upload)'),
      dir: path,
      files: z.array(
        z.strictObject({
          path: str().describe('path relative to `dir` (no `..`)'),
          base64,
          mode: z.int({ error: 'must be an integer' }).min(0).max(0o7777).optional(),
        }),
      ),
      totalFiles: z.int({ error: 'must be an integer' }).min(0),
      totalBytes: num().min(0),
      last: bool().describe('this batch ends the upload'),
    }),
    z.object({ files: z.number(), bytes: z.number() }),
  ),
  cancelImport: method(
    'Stops an upload of importFiles: later batches fail, the files written so far stay (recorded as one step).',
    z.strictObject({ sandboxId, importId: str() }),
    done,
  ),
  mkdir: method(
    'Creates a directory (recursive: with its missing parents, and no error if it exists).',
    z.strictObject({ sandboxId, path, recursive: bool().optional() }),
    done,
  ),
  remove: method(
    'Removes a file, or a directory (recursive to remove what it holds).',
    z.strictObject({ sandboxId, path, recursive: bool() }),
    done,
  ),
  rename: method(
    'Renames or moves a file or directory.',
    z.strictObject({ sandboxId, from: path, to: path }),
    done,
  ),
  run: method(
    'Runs a shell command line in the sandbox’s API session and records it as a step.',
    z.strictObject({
      sandboxId,
      command: str(),
      stdin: str().optional(),
      cwd: path.optional(),
      env: envVars.optional().describe('variables for this command only'),
      timeoutMs: num()
        .min(0, { error: 'must be a number >= 0' })
        .optional()
        .describe('wall-time limit for this command in ms (default: the sandbox setting)'),
      networkReason: str()
        .optional()
        .describe(
          'why this command needs the network: shown to the person asked to approve its requests (sets SANDGLASS_NET_REASON for the command)',
        ),
      keepOutputOver: num()
        .min(0, { error: 'must be a number >= 0' })
        .optional()
        .describe(
          'keep a stream longer than this many bytes whole in the sandbox (under /tmp/.sandglass/out, as part of this run’s step) and return its path',
        ),
    }),
    RunResult,
  ),
  listSteps: method(
    'One page of a sandbox’s steps, oldest first (of one branch when branchId is given); nextOffset is null on the last page.',
    z.strictObject({ sandboxId, offset, limit, branchId: str().optional() }),
    z.object({ steps: z.array(Step), total: z.number(), nextOffset: z.number().nullable() }),
  ),
  getStep: method('One step of a sandbox’s timeline.', z.strictObject({ sandboxId, stepId }), Step),
  getTimeline: method(
    'The timeline at a glance: head, current branch, counts, retained snapshot bytes.',
    z.strictObject({ sandboxId }),
    TimelineInfo,
  ),
  listBranches: method(
    'Every branch of a sandbox’s timeline, oldest first.',
    z.strictObject({ sandboxId }),
    z.array(Branch),
  ),
  renameBranch: method(
    'Renames a branch (names are unique within a sandbox).',
    z.strictObject({ sandboxId, branchId: str(), name: str() }),
    Branch,
  ),
  restoreStep: method(
    'Puts the whole sandbox (files and shell sessions) back as it was after a step, recorded as a restore step; nothing is lost: the next steps form a new branch.',
    z.strictObject({ sandboxId, stepId }),
    Step,
  ),
  forkSandbox: method(
    'A new sandbox from a step’s snapshot, with the same settings (O(1), copy-on-write); the caller is subscribed to it.',
    z.strictObject({ sandboxId, stepId, name: str().optional() }),
    SandboxInfo,
  ),
  diffSteps: method(
    'Files added, modified and deleted from one step to another (to the live tree when `to` is left out), with +/- line counts for text and size and sha256 for binary; paged.',
    z.strictObject({ sandboxId, from: stepId, to: stepId.optional(), offset, limit }),
    DiffPage,
  ),
  stepChanges: method(
    'What one step changed against its parent, as diffSteps pages it.',
    z.strictObject({ sandboxId, stepId, offset, limit }),
    DiffPage,
  ),
  diffFile: method(
    'One file at two steps (`to` left out: the live tree): both texts, or size and hash when binary or too large.',
    z.strictObject({ sandboxId, from: stepId, to: stepId.optional(), path }),
    FileDiff,
  ),
  getRecording: method(
    'The terminal output of a step as recorded, with its timing, and the screen before it (for replay).',
    z.strictObject({ sandboxId, stepId }),
    StepRecording,
  ),
  saveTimeline: method(
    'The sandbox’s timeline as a timeline file (zip, see docs/timeline.md), as base64.',
    z.strictObject({ sandboxId }),
    z.object({ base64: z.string(), summary: TimelineFileSummary }),
  ),
  loadTimeline: method(
    'Validates a timeline file and opens it as a new read-only replay sandbox (fork a step to continue live); the caller is subscribed to it.',
    z.strictObject({ name: str(), base64 }),
    z.object({ sandbox: SandboxInfo, summary: TimelineFileSummary }),
  ),
  openTerminal: method(
    'Starts an interactive shell on a terminal of the given size.',
    z.strictObject({ sandboxId, cols: num(), rows: num(), cwd: path.optional() }),
    z.object({ terminalId: z.string() }),
  ),
  terminalWrite: method(
    'Types into a terminal.',
    z.strictObject({ terminalId: str(), data: str() }),
    done,
  ),
  terminalResize: method(
    'Resizes a terminal.',
    z.strictObject({ terminalId: str(), cols: num(), rows: num() }),
    done,
  ),
  closeTerminal: method('Closes a terminal.', z.strictObject({ terminalId: str() }), done),
  answer: method(
    'Answers an open engine request (an approval) addressed to this client.',
    z.strictObject({ requestId: str(), answer: RequestAnswer }),
    done,
  ),
  listClients: method(
    'Lists the connected clients (agents and people), their sandboxes and state.',
    z.strictObject({}),
    z.array(ClientInfo),
  ),
  pauseClient: method(
    'Pauses a client: its next call waits until it is resumed (people only).',
    z.strictObject({ clientId: str() }),
    done,
  ),
  resumeClient: method(
    'Resumes a paused client; its waiting calls go on (people only).',
    z.strictObject({ clientId: str() }),
    done,
  ),
  disconnectClient: method(
    'Stops a client: its running command is killed and its connection closed (people only).',
    z.strictObject({ clientId: str() }),
    done,
  ),
  networkAudit: method(
    'Every network request of a sandbox (or of one step), oldest first: time, step, program, method, URL, decision and who made it, status, bytes.',
    z.strictObject({ sandboxId, stepId: str().optional() }),
    z.array(NetworkAuditRecord),
  ),
} as const;

export type MethodTable = typeof METHODS;
