/**
 * Every API method: its params and result schema and one line saying what it
 * does. Adding a method starts here (see docs/architecture.md).
 */
import { z } from 'zod';
import {
  ClientInfo,
  FileEntry,
  RequestAnswer,
  RunResult,
  SandboxInfo,
  SandboxSettings,
  SandboxStats,
  Step,
  bool,
  envName,
  num,
  str,
} from './schema.js';

const sandboxId = str().describe('id of the sandbox');
const path = str().describe('absolute path inside the sandbox');
const snapshotId = str().describe(
  'read this snapshot (a step’s snapshotId) instead of the live tree',
);
const done = z.null();

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
    z.object({ apiVersion: z.number(), kernel: z.string(), clientId: z.string().optional() }),
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
      env: z.record(envName, str()).optional().describe('variables for this command only'),
      timeoutMs: num()
        .min(0, { error: 'must be a number >= 0' })
        .optional()
        .describe('wall-time limit for this command in ms (default: the sandbox setting)'),
    }),
    RunResult,
  ),
  listSteps: method(
    'One page of a sandbox’s steps, oldest first; nextOffset is null on the last page.',
    z.strictObject({
      sandboxId,
      offset: z.int({ error: 'must be an integer' }).min(0).optional(),
      limit: z.int({ error: 'must be an integer' }).min(1).optional(),
    }),
    z.object({ steps: z.array(Step), total: z.number(), nextOffset: z.number().nullable() }),
  ),
  restoreStep: method(
    'Puts the sandbox’s files back as they were after a step; new steps branch from it.',
    z.strictObject({ sandboxId, stepId: str() }),
    done,
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
} as const;

export type MethodTable = typeof METHODS;
