/**
 * The journal a running sandbox's timeline is written to as it goes, so a
 * crash loses at most the step being written. It is append-only: a sequence
 * of records `NAME SIZE\n` + SIZE bytes, each one entry of the timeline file
 * (trees/origin.json, steps/<id>.json, recordings/<id>.json, blobs/<sha256>)
 * plus `journal.json` (the sandbox), `meta/<id>.json` (a step's metadata,
 * written last for the step, so its presence means the step is complete) and
 * `branches/<id>.json` (a branch as last named). On a clean end the journal is
 * compacted into a timeline file; after a crash `recoverJournal` turns what
 * it holds into one, which then goes through the same validation as any file.
 */
import { strFromU8, strToU8, zipSync, type Zippable } from 'fflate';
import type { Branch, SandboxSettings, Step } from '../../contract/api.js';
import type { SnapshotId } from '../../vfs/index.js';
import { sha256 } from '../changes.js';
import type { SnapshotStore } from '../host.js';
import { TimelineError, type Timeline } from '../model.js';
import {
  FORMAT_NAME,
  FORMAT_VERSION,
  type BranchMeta,
  type Manifest,
  type StepMeta,
} from './schema.js';
import { blobEntry, Blobs, json, stepMeta, stepTree, treeChanges } from './write.js';

const RECORD_NAME = /^[A-Za-z0-9_./-]{1,200}$/;

function record(name: string, data: Uint8Array): Uint8Array {
  const head = strToU8(`${name} ${data.length}\n`);
  const out = new Uint8Array(head.length + data.length);
  out.set(head);
  out.set(data, head.length);
  return out;
}

export interface JournalInput {
  name: string;
  settings: SandboxSettings;
  timeline: Timeline;
  store: SnapshotStore;
  /** Appends bytes to the journal (synchronously, so a step is on disk when it returns). */
  append: (bytes: Uint8Array) => void;
}

/** Writes each new step of a timeline to the journal; returns the function that stops. */
export function journalTimeline(input: JournalInput): () => void {
  const { timeline, store, append } = input;
  const blobs = new Blobs();
  const write = (name: string, data: Uint8Array): void => append(record(name, data));
  const flushBlobs = (): void => {
    for (const [hash, data] of blobs.drain()) write(`blobs/${hash}`, data);
  };
  write(
    'journal.json',
    json({
      format: FORMAT_NAME,
      version: FORMAT_VERSION,
      sandbox: { name: input.name, settings: input.settings },
    }),
  );
  // Written again when the origin moves (a host import before the first step);
  // the last record of a name is the one recovery reads.
  const writeOrigin = (): void => {
    const origin = treeChanges(store, blobs, null, timeline.origin).set;
    flushBlobs();
    write('trees/origin.json', json({ entries: origin }));
  };
  writeOrigin();
  const branches = new Map<string, string>();
  const noteBranch = (b: Branch): void => {
    if (branches.get(b.id) === b.name) return;
    branches.set(b.id, b.name);
    const meta: BranchMeta = {
      id: b.id,
      name: b.name,
      forkedFrom: b.forkedFrom,
      createdAt: b.createdAt,
    };
    write(`branches/${b.id}.json`, json(meta));
  };
  for (const b of timeline.branches()) noteBranch(b);
  const stopOrigin = timeline.onOrigin(writeOrigin);
  const stopSteps = timeline.onStep((step: Step) => {
    const snapshot = timeline.snapshotOf(step.id);
    const base = step.parentId;
    const baseSnapshot: SnapshotId = base === null ? timeline.origin : timeline.snapshotOf(base);
    const tree = stepTree(
      store,
      blobs,
      step.id,
      base,
      baseSnapshot,
      snapshot,
      timeline.sessionsOf(step.id),
    );
    flushBlobs();
    write(`steps/${step.id}.json`, json(tree));
    const recording = timeline.recordingOf(step.id);
    const recorded = step.recordingBytes > 0;
    if (recorded)
      write(
        `recordings/${step.id}.json`,
        json({
          frames: recording.frames,
          truncated: recording.truncated,
          screen: recording.screen,
        }),
      );
    noteBranch(timeline.branch(step.branchId));
    write(`meta/${step.id}.json`, json(stepMeta(step, false, recorded)));
  });
  return () => {
    stopOrigin();
    stopSteps();
  };
}

/** Records of a journal, up to the first incomplete one. */
function records(bytes: Uint8Array): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  let at = 0;
  while (at < bytes.length) {
    const nl = bytes.indexOf(10, at);
    if (nl < 0 || nl - at > 256) break;
    const m = /^(\S+) (\d{1,10})$/.exec(strFromU8(bytes.subarray(at, nl)));
    if (!m || !RECORD_NAME.test(m[1] as string)) break;
    const size = Number(m[2]);
    if (nl + 1 + size > bytes.length) break;
    out.set(m[1] as string, bytes.subarray(nl + 1, nl + 1 + size));
    at = nl + 1 + size;
  }
  return out;
}

/**
 * A timeline file made of what a journal holds: every complete step, in the
 * order written. The result is checked by decodeTimeline like any file.
 */
export function recoverJournal(bytes: Uint8Array): {
  file: Uint8Array;
  steps: number;
  lostBytes: number;
} {
  const recs = records(bytes);
  const header = recs.get('journal.json');
  if (!header || !recs.has('trees/origin.json'))
    throw new TimelineError(
      'EBADTIMELINE',
      'timeline journal: no header or origin tree (not a journal, or cut before its first step)',
    );
  let sandbox: Manifest['sandbox'];
  try {
    const h = JSON.parse(strFromU8(header)) as {
      sandbox: { name: string; settings: SandboxSettings };
    };
    sandbox = { name: h.sandbox.name, settings: h.sandbox.settings };
  } catch {
    throw new TimelineError('EBADTIMELINE', 'timeline journal: its header is not valid JSON');
  }
  const files: Record<string, Uint8Array> = {};
  const steps: StepMeta[] = [];
  const branches: BranchMeta[] = [];
  let used = 0;
  const parse = <T>(name: string, data: Uint8Array): T => {
    try {
      return JSON.parse(strFromU8(data)) as T;
    } catch {
      throw new TimelineError('EBADTIMELINE', `timeline journal: ${name} is not valid JSON`);
    }
  };
  for (const [name, data] of recs) {
    used += `${name} ${data.length}\n`.length + data.length;
    if (name.startsWith('meta/')) steps.push(parse<StepMeta>(name, data));
    else if (name.startsWith('branches/')) branches.push(parse<BranchMeta>(name, data));
    else if (name !== 'journal.json') files[name] = data;
  }
  // Entries of a step whose metadata never came (the step being written at the crash) go.
  const complete = new Set(steps.map((s) => s.id));
  for (const name of Object.keys(files)) {
    const m = /^(steps|recordings)\/(.+)\.json$/.exec(name);
    if (m && !complete.has(m[2] as string)) delete files[name];
  }
  const usedBranches = new Set(steps.map((s) => s.branchId));
  const last = steps.at(-1);
  const manifest: Manifest = {
    format: FORMAT_NAME,
    version: FORMAT_VERSION,
    createdAt: Date.now(),
    sandbox,
    branches: branches.filter((b, i) => usedBranches.has(b.id) || i === 0),
    steps,
    head: last?.id ?? null,
    branchId: last?.branchId ?? branches[0]?.id ?? 'main',
  };
  files['manifest.json'] = json(manifest);
  const entries: Record<string, string> = {};
  for (const [name, data] of Object.entries(files))
    if (!name.startsWith('blobs/')) entries[name] = sha256(data);
  const blobCount = Object.keys(files).filter((n) => n.startsWith('blobs/')).length;
  const zip: Zippable = {};
  for (const [name, data] of Object.entries(files))
    zip[name] = name.startsWith('blobs/') ? blobEntry(data) : data;
  zip['commit.json'] = json({
    format: FORMAT_NAME,
    version: FORMAT_VERSION,
    steps: steps.length,
    blobs: blobCount,
    entries,
  });
  return { file: zipSync(zip, { level: 6 }), steps: steps.length, lostBytes: bytes.length - used };
}
