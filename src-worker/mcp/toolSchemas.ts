/**
 * Input and output schemas of the MCP tools, built from the engine contract
 * (src-worker/contract): the field types, their error messages and the
 * shapes the engine returns are the contract's; this file only names the
 * arguments as MCP tools name them (snake_case, an explicit `sandbox_id`)
 * and adds what is MCP's own (output caps, line ranges, encodings).
 */
import { z } from 'zod';
import { METHODS } from '../contract/methods.js';
import {
  FileEntry,
  SandboxInfo,
  SandboxLimits,
  SandboxSettings,
  bool,
  str,
} from '../contract/schema.js';
import { DiffPage, Step, TimelineFileSummary } from '../contract/timeline.js';
import { MAX_OUTPUT_BYTES, MIN_OUTPUT_BYTES } from './output.js';

const run = METHODS.run.params.shape;
const write = METHODS.writeFile.params.shape;

const sandboxId = run.sandboxId.describe(
  'id of the sandbox (from create_sandbox or list_sandboxes)',
);
const path = str().describe('path inside the sandbox: absolute, or relative to /home/user');
const stepId = str().describe(
  'id of a snapshot: the snapshot_id that snapshot returned, or the step_id of a run',
);
const lineNumber = (what: string) =>
  z.int({ error: 'must be an integer' }).min(1, { error: 'must be >= 1' }).describe(what);
const byteCap = (what: string) =>
  z
    .int({ error: 'must be an integer' })
    .min(MIN_OUTPUT_BYTES, { error: `must be >= ${MIN_OUTPUT_BYTES}` })
    .max(MAX_OUTPUT_BYTES, { error: `must be <= ${MAX_OUTPUT_BYTES}` })
    .describe(what);

export const createSandboxInput = z.strictObject({
  name: str().max(200).optional().describe('a name people see in the workbench'),
  limits: SandboxLimits.partial()
    .optional()
    .describe('resource limits in bytes and counts; 0 or absent means the default'),
  env: SandboxSettings.shape.env.optional().describe('environment variables of every command'),
  timeout_ms: SandboxSettings.shape.timeoutMs.optional(),
  imports: z
    .array(
      z.strictObject({
        host_path: str()
          .max(4096)
          .describe('absolute host folder, inside one a person allowed for imports'),
        path: path
          .optional()
          .describe('where the copy goes in the sandbox (default /home/user/<folder name>)'),
        read_only: bool()
          .optional()
          .describe('seal the copy read-only (always so for :ro folders)'),
      }),
    )
    .max(16)
    .optional()
    .describe(
      'host folders copied into the new sandbox; only folders a person allowed ' +
        '(sandglass mcp --allow-import) may be named, anything else is refused',
    ),
});

export const sandboxOutput = z.object({
  sandbox_id: z.string(),
  name: z.string(),
  created_at: z.number().describe('ms since the epoch'),
  settings: SandboxSettings,
});

export const listSandboxesInput = z.strictObject({});
export const listSandboxesOutput = z.object({ sandboxes: z.array(SandboxInfo) });

export const sandboxOnlyInput = z.strictObject({ sandbox_id: sandboxId });
export const destroyOutput = z.object({ sandbox_id: z.string(), destroyed: z.literal(true) });

export const runInput = z.strictObject({
  sandbox_id: sandboxId,
  command: run.command.describe(
    'a bash command line; it runs in the sandbox’s persistent shell, so cd, variables and functions carry over',
  ),
  cwd: path
    .optional()
    .describe('directory to run in (the shell’s cwd stays where the command leaves it)'),
  env: run.env,
  stdin: run.stdin.describe('text given to the command on standard input'),
  timeout_ms: run.timeoutMs,
  network_reason: run.networkReason,
  max_output_bytes: byteCap(
    'cap per stream (stdout, stderr) of what is returned; longer output keeps its head and tail',
  ).optional(),
});

export const runOutput = z.object({
  exit_code: z
    .number()
    .describe('exit status as the shell reports it (124 time limit, 137 killed or cancelled)'),
  duration_ms: z.number(),
  step_id: z.string().optional().describe('the timeline step recording this command'),
  stdout_bytes: z.number(),
  stderr_bytes: z.number(),
  truncated: bool().describe('true when stdout or stderr was cut to its head and tail'),
  stdout_path: z.string().optional().describe('where the whole stdout was kept, when it was cut'),
  stderr_path: z.string().optional().describe('where the whole stderr was kept, when it was cut'),
});

export const readFileInput = z.strictObject({
  sandbox_id: sandboxId,
  path,
  start_line: lineNumber('first line to return (1-based); text files only').optional(),
  end_line: lineNumber('last line to return (inclusive); text files only').optional(),
  encoding: z
    .enum(['auto', 'text', 'base64'])
    .optional()
    .describe('auto (default): text for UTF-8 files, base64 for binary ones'),
  max_bytes: byteCap(
    'most bytes returned; a longer file or range is cut (default 64 KiB)',
  ).optional(),
  snapshot_id: stepId.optional().describe('read the file as it was at this snapshot'),
});

export const readFileOutput = z.object({
  path: z.string(),
  size: z.number().describe('bytes in the whole file'),
  encoding: z.enum(['text', 'base64']),
  start_line: z.number().optional(),
  end_line: z.number().optional(),
  total_lines: z.number().optional(),
  truncated: z.boolean().describe('true when the content returned stops before the range ends'),
});

export const writeFileInput = z.strictObject({
  sandbox_id: sandboxId,
  path,
  content: str().describe('the new content of the file'),
  encoding: z.enum(['text', 'base64']).optional().describe('how content is given (default text)'),
  mode: write.mode.describe('permission bits, e.g. 493 (0755) for a script'),
  create_dirs: bool().optional().describe('create missing parent directories (default true)'),
});

export const writeFileOutput = z.object({ path: z.string(), bytes: z.number() });

export const editFileInput = z.strictObject({
  sandbox_id: sandboxId,
  path,
  old_text: str().describe('exact text to find; it must occur once unless replace_all'),
  new_text: str().describe('text to put in its place'),
  replace_all: bool().optional().describe('replace every occurrence (default false)'),
});

export const editFileOutput = z.object({
  path: z.string(),
  replacements: z.number(),
  lines: z.array(z.number()).describe('lines where the replaced text started'),
  bytes: z.number().describe('size of the file after the edit'),
});

export const listDirInput = z.strictObject({
  sandbox_id: sandboxId,
  path: path.optional().describe('directory to list (default /home/user)'),
  snapshot_id: stepId.optional().describe('list the directory as it was at this snapshot'),
});

export const listDirOutput = z.object({
  path: z.string(),
  entries: z.array(FileEntry),
  truncated: z.boolean().describe('true when the directory has more entries than were returned'),
});

export const snapshotInput = z.strictObject({ sandbox_id: sandboxId });

export const snapshotOutput = z.object({
  snapshot_id: z.string().describe('give it to restore, fork, diff, read_file or list_dir'),
  step: Step.pick({ kind: true, command: true, startedAt: true, branchId: true }).describe(
    'the timeline step whose snapshot this is',
  ),
});

export const restoreInput = z.strictObject({ sandbox_id: sandboxId, snapshot_id: stepId });
export const restoreOutput = z.object({
  sandbox_id: z.string(),
  snapshot_id: z.string(),
  step_id: z.string().describe('the restore step (later steps continue from it on a new branch)'),
});

export const forkInput = z.strictObject({
  sandbox_id: sandboxId,
  snapshot_id: stepId.optional().describe('the snapshot to fork from (default: the current state)'),
  name: str().max(200).optional().describe('name of the new sandbox'),
});

export const forkOutput = sandboxOutput.extend({
  forked_from: z.object({ sandbox_id: z.string(), snapshot_id: z.string() }),
});

export const diffInput = z.strictObject({
  sandbox_id: sandboxId,
  from: stepId.describe('the snapshot to compare from'),
  to: stepId.optional().describe('the snapshot to compare to (default: the live sandbox)'),
  offset: z.int({ error: 'must be an integer' }).min(0).optional().describe('entries to skip'),
  limit: z
    .int({ error: 'must be an integer' })
    .min(1)
    .max(1000)
    .optional()
    .describe('most entries (default 200)'),
});

// Paging as an optional offset rather than the contract's nullable one: output
// schemas stay single-typed, which every client's schema dialect can read.
export const diffOutput = DiffPage.omit({ nextOffset: true }).extend({
  next_offset: z.number().optional().describe('offset of the next page, when there is one'),
});

export const exportInput = z.strictObject({ sandbox_id: sandboxId });

export const exportOutput = z.object({
  host_path: z.string().describe('the timeline file written on the host'),
  summary: TimelineFileSummary,
});
