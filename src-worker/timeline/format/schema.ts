/**
 * The timeline file's entries as zod schemas, and its bounds. A file is a
 * zip (docs/timeline.md):
 *   manifest.json        version, sandbox, branches, steps (metadata), head
 *   trees/origin.json    the tree before the first step (full listing)
 *   steps/<id>.json      a step's tree as changes against its base step
 *   recordings/<id>.json a step's terminal recording
 *   blobs/<sha256>       file contents, content-addressed, stored once
 *   commit.json          written last: counts and the sha256 of every entry above but blobs
 */
import { z } from 'zod';
import { NetworkAuditRecord, SandboxSettings } from '../../contract/schema.js';
import { RecordingFrame, SessionKind, StepKind } from '../../contract/timeline.js';

export const FORMAT_NAME = 'sandglass-timeline';
export const FORMAT_VERSION = 1;

/** Bounds checked before anything is inflated or built. */
export const FILE_LIMITS = {
  /** Size of a timeline file. */
  fileBytes: 1024 * 1024 * 1024,
  entries: 400_000,
  /** Inflated size of one entry and of them all. */
  entryBytes: 256 * 1024 * 1024,
  totalBytes: 1024 * 1024 * 1024,
  /** Deflate cannot compress beyond ~1032:1; a higher claim is a lie. */
  ratio: 1100,
  /** A JSON entry's inflated size. */
  jsonBytes: 64 * 1024 * 1024,
  steps: 100_000,
  branches: 10_000,
  treeEntries: 500_000,
  pathChars: 4096,
  nameBytes: 255,
  sessions: 64,
} as const;

const ID = /^[A-Za-z0-9_-]{1,64}$/;
const id = z.string().regex(ID, { error: 'must be an id of 1 to 64 letters, digits, _ or -' });
const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const time = z.number().finite();
export const SHA256 = /^[0-9a-f]{64}$/;
const sha = z.string().regex(SHA256, { error: 'must be a sha256 in hex' });

/** A path inside the sandbox: absolute, normalised, no NUL, bounded. */
const sandboxPath = z.string().superRefine((p, ctx) => {
  const problem = pathProblem(p);
  if (problem)
    ctx.addIssue({ code: 'custom', message: `path ${JSON.stringify(p.slice(0, 80))} ${problem}` });
});

export function pathProblem(p: string): string | null {
  if (p.length > FILE_LIMITS.pathChars) return `is longer than ${FILE_LIMITS.pathChars} characters`;
  if (p.includes('\0')) return 'contains NUL';
  if (!p.startsWith('/')) return 'is not absolute';
  if (p === '/') return 'is the root';
  const parts = p.slice(1).split('/');
  for (const part of parts) {
    if (part === '' || part === '.' || part === '..')
      return 'is not normalised (empty, . or .. part)';
    if (Buffer.byteLength(part) > FILE_LIMITS.nameBytes)
      return `has a name longer than ${FILE_LIMITS.nameBytes} bytes`;
  }
  return null;
}

export const TreeEntry = z.strictObject({
  path: sandboxPath,
  kind: z.enum(['file', 'dir', 'symlink']),
  mode: z.number().int().min(0).max(0o7777),
  uid: z.number().int().min(0).max(0xffffffff),
  gid: z.number().int().min(0).max(0xffffffff),
  mtime: time,
  /** Files: the blob holding the contents. */
  blob: sha.optional(),
  /** Symlinks: the target. */
  target: z.string().max(FILE_LIMITS.pathChars).optional(),
});

export const OriginTree = z.strictObject({
  entries: z.array(TreeEntry).max(FILE_LIMITS.treeEntries),
});

/** A step's tree: paths deleted from its base's tree, then entries set (parents first). */
export const StepTree = z.strictObject({
  id,
  /** The step whose tree this one changes (null: the origin). */
  base: id.nullable(),
  deleted: z.array(sandboxPath).max(FILE_LIMITS.treeEntries),
  set: z.array(TreeEntry).max(FILE_LIMITS.treeEntries),
  /** Shell session states by session name (base64). */
  sessions: z.record(z.string().max(256), z.string().max(16 * 1024 * 1024)),
});

export const StepMeta = z.strictObject({
  id,
  parentId: id.nullable(),
  branchId: id,
  kind: StepKind,
  sessionId: z.string().max(256),
  sessionKind: SessionKind,
  command: z.string().max(64 * 1024),
  status: z.number().int().nullable(),
  startedAt: time,
  durationMs: z.number().finite().min(0),
  stdout: z
    .string()
    .max(1024 * 1024)
    .optional(),
  stderr: z
    .string()
    .max(1024 * 1024)
    .optional(),
  stdoutBytes: count.optional(),
  stderrBytes: count.optional(),
  network: z.array(NetworkAuditRecord).max(10_000),
  restoredFrom: id.optional(),
  /** The root step of a forked sandbox: where it was forked from (ids of another sandbox, not checked here). */
  origin: z
    .strictObject({
      sandboxId: z.string().max(256),
      sandboxName: z.string().max(256),
      stepId: z.string().max(256),
    })
    .optional(),
  /** No tree saved: its snapshot was released before the save. */
  released: z.boolean(),
  /** A recording is saved in recordings/<id>.json. */
  recorded: z.boolean(),
});

export const BranchMeta = z.strictObject({
  id,
  name: z.string().min(1).max(100),
  forkedFrom: id.nullable(),
  createdAt: time,
});

export const Manifest = z.strictObject({
  format: z.literal(FORMAT_NAME, { error: `is not ${FORMAT_NAME}` }),
  version: z.number().int(),
  createdAt: time,
  sandbox: z.strictObject({ name: z.string().min(1).max(256), settings: SandboxSettings }),
  branches: z.array(BranchMeta).min(1).max(FILE_LIMITS.branches),
  steps: z.array(StepMeta).max(FILE_LIMITS.steps),
  head: id.nullable(),
  branchId: id,
});

export const Recording = z.strictObject({
  frames: z.array(RecordingFrame).max(1_000_000),
  truncated: z.boolean(),
  screen: z.string().max(1024 * 1024),
});

export const Commit = z.strictObject({
  format: z.literal(FORMAT_NAME),
  version: z.number().int(),
  steps: count,
  blobs: count,
  /** sha256 of every entry but blobs (blobs are named by theirs). */
  entries: z.record(z.string().max(512), sha),
});

export type TreeEntry = z.infer<typeof TreeEntry>;
export type StepTree = z.infer<typeof StepTree>;
export type StepMeta = z.infer<typeof StepMeta>;
export type BranchMeta = z.infer<typeof BranchMeta>;
export type Manifest = z.infer<typeof Manifest>;
export type RecordingData = z.infer<typeof Recording>;
export type Commit = z.infer<typeof Commit>;

/** A validated timeline file, ready to build a sandbox from. */
export interface TimelineData {
  manifest: Manifest;
  origin: TreeEntry[];
  trees: Map<string, StepTree>;
  recordings: Map<string, RecordingData>;
  blobs: Map<string, Uint8Array>;
  /** Bytes of distinct file content. */
  contentBytes: number;
  fileBytes: number;
}
