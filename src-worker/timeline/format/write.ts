/**
 * Writes a timeline file: each retained step's tree as the changes from its
 * nearest retained ancestor (so the cost follows what changed), every file
 * content once under its sha256, and commit.json last.
 */
import { deflateRaw, deflateRawSync } from 'node:zlib';
import { strToU8, zipSync, type ZipOptions, type Zippable } from 'fflate';
import type { SandboxSettings, Step, TimelineFileSummary } from '../../contract/api.js';
import { pathToUtf8, type BytePath, type NodeState, type SnapshotId } from '../../vfs/index.js';
import { contentHash, sha256 } from '../changes.js';
import type { SnapshotStore } from '../host.js';
import type { Timeline } from '../model.js';
import {
  FORMAT_NAME,
  FORMAT_VERSION,
  type BranchMeta,
  type Commit,
  type Manifest,
  type StepMeta,
  type StepTree,
  type TreeEntry,
} from './schema.js';

export interface SaveInput {
  name: string;
  settings: SandboxSettings;
  timeline: Timeline;
  store: SnapshotStore;
  /** Deflate level (1 fast .. 9 small; default DEFAULT_LEVEL). */
  level?: number;
}

/** Collects file contents by hash. */
export class Blobs {
  readonly bytes = new Map<string, Uint8Array>();
  /** Hashes collected, including those drained. */
  private readonly seen = new Set<string>();
  contentBytes = 0;

  /** The contents collected since the last drain (a journal writes them once). */
  drain(): Array<[string, Uint8Array]> {
    const out = [...this.bytes];
    this.bytes.clear();
    return out;
  }

  entry(path: BytePath, state: NodeState): TreeEntry | null {
    if (state.kind !== 'file' && state.kind !== 'dir' && state.kind !== 'symlink') return null;
    const entry: TreeEntry = {
      path: pathToUtf8(path),
      kind: state.kind,
      mode: state.mode & 0o7777,
      uid: state.uid,
      gid: state.gid,
      mtime: state.mtime,
    };
    if (state.kind === 'symlink') entry.target = pathToUtf8(state.target);
    if (state.kind === 'file') {
      const contents = state.contents;
      const hash = contents ? contentHash(contents) : sha256(new Uint8Array(0));
      if (!this.seen.has(hash)) {
        const data = contents ? contents.read() : new Uint8Array(0);
        this.seen.add(hash);
        this.bytes.set(hash, data);
        this.contentBytes += data.length;
      }
      entry.blob = hash;
    }
    return entry;
  }
}

export function json(value: unknown): Uint8Array {
  return strToU8(JSON.stringify(value));
}

/** The tree of `snapshot` as changes against `base` (null: the empty tree). */
export function treeChanges(
  store: SnapshotStore,
  blobs: Blobs,
  base: SnapshotId | null,
  snapshot: SnapshotId,
): { deleted: string[]; set: TreeEntry[] } {
  const deleted: string[] = [];
  const set = new Map<string, TreeEntry>();
  const put = (path: BytePath, state: NodeState | undefined): void => {
    if (path === '/' || !state) return;
    const e = blobs.entry(path, state);
    if (e) set.set(e.path, e);
  };
  for (const c of store.diff(base, snapshot)) {
    if (c.type === 'deleted') deleted.push(pathToUtf8(c.path));
    else if (c.type === 'renamed') {
      deleted.push(pathToUtf8(c.oldPath ?? c.path));
      put(c.path, c.after);
      // A moved directory's contents are not listed by the diff: list them here.
      if (c.kind === 'dir') for (const n of store.subtree(snapshot, c.path)) put(n.path, n.state);
    } else put(c.path, c.after);
  }
  deleted.sort();
  const entries = [...set.values()].sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : 0,
  );
  return { deleted, set: entries };
}

/**
 * Deflate level of a save. Level 4 deflates text about 3x faster than 6 for
 * about 7 % more bytes (docs/benchmarks.md, "Timeline"): the file stays
 * well within 1.2x of the distinct content deflated at level 6.
 */
export const DEFAULT_LEVEL = 4;

/**
 * A blob as the zip stores it: raw deflate (RFC 1951) by node's zlib, stored
 * in the zip without zip compression. Native deflate and inflate are several
 * times faster than a JavaScript one on the bulk of a file's bytes.
 */
export function blobEntry(data: Uint8Array, level = DEFAULT_LEVEL): [Uint8Array, { level: 0 }] {
  return [new Uint8Array(deflateRawSync(data, { level })), { level: 0 }];
}

/** Blobs deflated at most this many at a time off the main thread (libuv's pool has 4 threads). */
const DEFLATES_IN_FLIGHT = 8;

/** `blobEntry` for many blobs at once, deflated on libuv's thread pool (every core). */
async function blobEntriesAsync(
  blobs: ReadonlyMap<string, Uint8Array>,
  level: number,
): Promise<Map<string, [Uint8Array, { level: 0 }]>> {
  const out = new Map<string, [Uint8Array, { level: 0 }]>();
  const queue = [...blobs];
  const worker = async (): Promise<void> => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [hash, data] = next;
      const deflated = await new Promise<Buffer>((resolve, reject) =>
        deflateRaw(data, { level }, (err, buf) => (err ? reject(err) : resolve(buf))),
      );
      out.set(hash, [
        new Uint8Array(deflated.buffer, deflated.byteOffset, deflated.length),
        { level: 0 },
      ]);
    }
  };
  await Promise.all(Array.from({ length: DEFLATES_IN_FLIGHT }, worker));
  return out;
}

/** A step's metadata as the manifest lists it. */
export function stepMeta(step: Step, released: boolean, recorded: boolean): StepMeta {
  const meta: StepMeta = {
    id: step.id,
    parentId: step.parentId,
    branchId: step.branchId,
    kind: step.kind,
    sessionId: step.sessionId,
    sessionKind: step.sessionKind,
    command: step.command,
    status: step.status,
    startedAt: step.startedAt,
    durationMs: step.durationMs,
    network: step.network,
    released,
    recorded,
  };
  for (const k of [
    'stdout',
    'stderr',
    'stdoutBytes',
    'stderrBytes',
    'restoredFrom',
    'origin',
  ] as const)
    if (step[k] !== undefined) Object.assign(meta, { [k]: step[k] });
  return meta;
}

/** A step's tree entry: its changes from `base`, and its shell session states. */
export function stepTree(
  store: SnapshotStore,
  blobs: Blobs,
  id: string,
  base: string | null,
  baseSnapshot: SnapshotId,
  snapshot: SnapshotId,
  sessions: ReadonlyMap<string, Uint8Array>,
): StepTree {
  return {
    id,
    base,
    ...treeChanges(store, blobs, baseSnapshot, snapshot),
    sessions: Object.fromEntries(
      [...sessions].map(([name, blob]) => [name, Buffer.from(blob).toString('base64')]),
    ),
  };
}

/** A timeline's entries but its blobs, and its blobs' contents (taken at once, so consistent). */
interface Collected {
  files: Zippable;
  blobs: Blobs;
  commit: Commit;
  summary: Omit<TimelineFileSummary, 'fileBytes'>;
}

function collect(input: SaveInput): Collected {
  const { timeline, store } = input;
  const blobs = new Blobs();
  const files: Zippable = {};
  const entryHashes: Record<string, string> = {};
  const add = (name: string, data: Uint8Array): void => {
    files[name] = data;
    entryHashes[name] = sha256(data);
  };

  const origin = treeChanges(store, blobs, null, timeline.origin).set;
  add('trees/origin.json', json({ entries: origin }));

  const saved = timeline.saved();
  const snapshotOf = new Map(saved.map((s) => [s.step.id, s.snapshot]));
  const steps: StepMeta[] = [];
  for (const { step, snapshot, sessions, recording } of saved) {
    const meta = stepMeta(step, snapshot === null, recording !== null);
    steps.push(meta);
    if (recording) add(`recordings/${step.id}.json`, json(recording));
    if (snapshot === null) continue;
    // Changes from the nearest ancestor whose snapshot is kept.
    let base: string | null = step.parentId;
    while (base !== null && (snapshotOf.get(base) ?? null) === null) base = timeline.parentOf(base);
    const baseSnapshot = base === null ? timeline.origin : (snapshotOf.get(base) as SnapshotId);
    add(
      `steps/${step.id}.json`,
      json(stepTree(store, blobs, step.id, base, baseSnapshot, snapshot, sessions)),
    );
  }

  const branches: BranchMeta[] = timeline.branches().map((b) => ({
    id: b.id,
    name: b.name,
    forkedFrom: b.forkedFrom,
    createdAt: b.createdAt,
  }));
  const manifest: Manifest = {
    format: FORMAT_NAME,
    version: FORMAT_VERSION,
    createdAt: Date.now(),
    sandbox: { name: input.name, settings: input.settings },
    branches,
    steps,
    head: timeline.head,
    branchId: timeline.currentBranch,
  };
  add('manifest.json', json(manifest));
  const commit: Commit = {
    format: FORMAT_NAME,
    version: FORMAT_VERSION,
    steps: steps.length,
    blobs: blobs.bytes.size,
    entries: entryHashes,
  };
  return {
    files,
    blobs,
    commit,
    summary: {
      formatVersion: FORMAT_VERSION,
      steps: steps.length,
      branches: branches.length,
      blobs: blobs.bytes.size,
      contentBytes: blobs.contentBytes,
    },
  };
}

/** The zip of collected entries and deflated blobs, commit.json last. */
function finish(
  c: Collected,
  deflated: ReadonlyMap<string, [Uint8Array, { level: 0 }]>,
  level: number,
): { bytes: Uint8Array; summary: TimelineFileSummary } {
  // In the order collected, however the deflates finished.
  for (const hash of c.blobs.bytes.keys())
    c.files[`blobs/${hash}`] = deflated.get(hash) as [Uint8Array, { level: 0 }];
  // Last entry of the archive: a file without it was not finished.
  c.files['commit.json'] = json(c.commit);
  const bytes = zipSync(c.files, { level: level as ZipOptions['level'] });
  return { bytes, summary: { ...c.summary, fileBytes: bytes.length } };
}

/** The timeline as a zip, and what it holds. */
export function encodeTimeline(input: SaveInput): {
  bytes: Uint8Array;
  summary: TimelineFileSummary;
} {
  const level = input.level ?? DEFAULT_LEVEL;
  const c = collect(input);
  const deflated = new Map(
    [...c.blobs.bytes].map(([hash, data]) => [hash, blobEntry(data, level)]),
  );
  return finish(c, deflated, level);
}

/**
 * `encodeTimeline` with the blobs deflated on libuv's thread pool: the bulk
 * of a save's work runs on every core, and the event loop stays free. The
 * tree and contents are taken before the first await, so later work in the
 * sandbox does not show in the file.
 */
export async function encodeTimelineAsync(input: SaveInput): Promise<{
  bytes: Uint8Array;
  summary: TimelineFileSummary;
}> {
  const level = input.level ?? DEFAULT_LEVEL;
  const c = collect(input);
  return finish(c, await blobEntriesAsync(c.blobs.bytes, level), level);
}
