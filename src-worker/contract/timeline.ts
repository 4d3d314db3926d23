/**
 * The timeline's data shapes: steps in a branch graph, branches, diffs of two
 * steps, terminal recordings, and the summary of a saved timeline. Every list
 * here is bounded (LIMITS) so a reply stays small whatever the sandbox did.
 */
import { z } from 'zod';
import { FileKind, ForkOrigin, NetworkAuditRecord } from './schema.js';

/** Where a step came from. */
export const SessionKind = z.enum(['terminal', 'api', 'cli', 'file', 'restore', 'fork']);

/**
 * What a step did: a shell command line, a file operation through the API
 * (editor save, tree drop, mkdir, remove, rename), a restore of an earlier
 * step, or the root of a forked sandbox (the step it was forked from).
 */
export const StepKind = z.enum([
  'command',
  'write',
  'mkdir',
  'remove',
  'rename',
  'restore',
  'fork',
]);

export const ChangeType = z.enum(['added', 'modified', 'deleted']);

/** One changed path, as a step's own list shows it. */
export const ChangedPath = z.object({ path: z.string(), change: ChangeType, kind: FileKind });

/** Files a step changed against its parent: counts and a bounded list. */
export const StepChanges = z.object({
  added: z.number(),
  modified: z.number(),
  deleted: z.number(),
  /** The first LIMITS.stepChangedPaths paths, sorted; `stepChanges` pages the rest. */
  paths: z.array(ChangedPath),
  truncated: z.boolean(),
});

/** One step of a sandbox's timeline. Steps form a graph: parentId is the step it continued from. */
export const Step = z.object({
  id: z.string(),
  parentId: z.string().nullable(),
  sandboxId: z.string(),
  /** The branch the step is on. */
  branchId: z.string(),
  kind: StepKind,
  sessionId: z.string(),
  sessionKind: SessionKind,
  /** The command line, or `write /path`, `restore st12`... (cut to LIMITS.commandChars). */
  command: z.string(),
  /** Exit status; null when there is none (a file operation that failed has 1). */
  status: z.number().nullable(),
  startedAt: z.number(),
  durationMs: z.number(),
  /** Output previews (head and tail, LIMITS.outputPreviewBytes each). */
  stdout: z.string().optional(),
  stderr: z.string().optional(),
  /** Total output bytes, of which the previews show at most both ends. */
  stdoutBytes: z.number().optional(),
  stderrBytes: z.number().optional(),
  /** VFS snapshot taken right after the step (readDir/readFile accept it). */
  snapshotId: z.string(),
  /**
   * The snapshot was released to keep the sandbox within its memory budget:
   * the step stays listed but cannot be restored, forked or browsed.
   */
  snapshotReleased: z.boolean(),
  /** Files changed against the parent step. */
  changes: StepChanges,
  /** Network requests and approval decisions (bounded to LIMITS.stepNetworkRecords). */
  network: z.array(NetworkAuditRecord),
  /** Bytes of terminal recording kept for replay (0 when none). */
  recordingBytes: z.number(),
  /** For a restore step: the step restored. */
  restoredFrom: z.string().optional(),
  /** For the root step of a forked sandbox: the sandbox and step it was forked from. */
  origin: ForkOrigin.optional(),
});

export const Branch = z.object({
  id: z.string(),
  sandboxId: z.string(),
  /** Editable; defaults to main, branch-2, branch-3... */
  name: z.string(),
  /** The step the branch grew from (null for the first branch). */
  forkedFrom: z.string().nullable(),
  /** Its newest step (null while empty). */
  headStepId: z.string().nullable(),
  stepCount: z.number(),
  createdAt: z.number(),
});

/** The timeline of a sandbox at a glance. */
export const TimelineInfo = z.object({
  sandboxId: z.string(),
  /** The step the next one continues from. */
  headStepId: z.string().nullable(),
  /** The branch the next step goes on (a new one is made when head is not a branch tip). */
  branchId: z.string(),
  stepCount: z.number(),
  branchCount: z.number(),
  /** Replays a loaded timeline file: read-only until a step is forked. */
  replay: z.boolean(),
  /** Bytes of distinct file content the retained snapshots hold. */
  retainedBytes: z.number(),
  /** Retained snapshots are released past this (the sandbox's memory limit). */
  budgetBytes: z.number(),
});

/** One entry of a diff between two steps. */
export const DiffEntry = z.object({
  path: z.string(),
  change: ChangeType,
  kind: FileKind,
  /** Whether both sides (those present) are text (UTF-8, no NUL). */
  text: z.boolean(),
  /** Line counts, for text files within LIMITS.diffLineBytes. */
  linesAdded: z.number().optional(),
  linesRemoved: z.number().optional(),
  sizeBefore: z.number().optional(),
  sizeAfter: z.number().optional(),
  /** sha256 hex of the contents, for regular files. */
  hashBefore: z.string().optional(),
  hashAfter: z.string().optional(),
});

export const DiffPage = z.object({
  entries: z.array(DiffEntry),
  added: z.number(),
  modified: z.number(),
  deleted: z.number(),
  total: z.number(),
  nextOffset: z.number().nullable(),
});

/** One side of a file diff: text when it is text and small enough, otherwise size and hash. */
export const FileSide = z.object({
  size: z.number(),
  sha256: z.string(),
  text: z.string().optional(),
  /** Text left out: binary, or larger than LIMITS.diffFileBytes. */
  omitted: z.enum(['binary', 'tooLarge']).optional(),
});

export const FileDiff = z.object({
  path: z.string(),
  before: FileSide.nullable(),
  after: FileSide.nullable(),
});

/** Terminal output as it was recorded: ms since the step started, and the text. */
export const RecordingFrame = z.object({ t: z.number(), data: z.string() });

export const StepRecording = z.object({
  stepId: z.string(),
  frames: z.array(RecordingFrame),
  /** The recording hit its bound and later output was dropped. */
  truncated: z.boolean(),
  /** The terminal's last output before the step (enough to repaint its screen). */
  screen: z.string(),
});

/** What `loadTimeline` and `saveTimeline` report. */
export const TimelineFileSummary = z.object({
  formatVersion: z.number(),
  steps: z.number(),
  branches: z.number(),
  blobs: z.number(),
  /** Bytes of distinct file content. */
  contentBytes: z.number(),
  /** Size of the timeline file. */
  fileBytes: z.number(),
});
