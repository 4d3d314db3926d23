/**
 * Reads and validates a timeline file before anything is built from it:
 * entry names, sizes and compression ratios are checked from the zip's
 * directory before a byte is inflated, local headers against the directory;
 * then every JSON entry against its
 * schema and commit.json's hashes, every blob against its name, and the step
 * graph (unique ids, parents before children, no cycles, known branches).
 * Any problem is one TimelineError naming it.
 */
import { inflateRawSync } from 'node:zlib';
import { strFromU8, unzipSync, type UnzipFileInfo } from 'fflate';
import type { z } from 'zod';
import { sha256 } from '../changes.js';
import { TimelineError } from '../model.js';
import { checkCrcs, checkLocalHeaders } from './zipHeaders.js';
import {
  Commit,
  FILE_LIMITS,
  FORMAT_NAME,
  FORMAT_VERSION,
  Manifest,
  OriginTree,
  Recording,
  SHA256,
  StepTree,
  type RecordingData,
  type TimelineData,
} from './schema.js';

function bad(message: string): TimelineError {
  return new TimelineError('EBADTIMELINE', `timeline file: ${message}`);
}

const ENTRY_NAME =
  /^(manifest\.json|commit\.json|trees\/origin\.json|steps\/[A-Za-z0-9_-]{1,64}\.json|recordings\/[A-Za-z0-9_-]{1,64}\.json|blobs\/[0-9a-f]{64})$/;

/** Why a zip entry name is refused, or null. */
function nameProblem(name: string): string | null {
  if (name.length > 512) return 'is overlong';
  if (name.includes('\0')) return 'contains NUL';
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'is an absolute path';
  if (name.includes('\\')) return 'contains a backslash';
  if (name.split('/').some((p) => p === '..' || p === '.')) return 'climbs out with . or ..';
  if (!ENTRY_NAME.test(name)) return 'is not an entry a timeline file has';
  return null;
}

/** Checks the directory's claims (names, sizes, ratios) as fflate lists entries, before inflating. */
function directoryGuard(): (info: UnzipFileInfo) => boolean {
  const seen = new Set<string>();
  let total = 0;
  return (info) => {
    const shown = JSON.stringify(info.name.slice(0, 100));
    const problem = nameProblem(info.name);
    if (problem) throw bad(`entry ${shown} ${problem}`);
    if (seen.has(info.name)) throw bad(`entry ${shown} appears twice`);
    seen.add(info.name);
    if (seen.size > FILE_LIMITS.entries) throw bad(`more than ${FILE_LIMITS.entries} entries`);
    if (info.compression !== 0 && info.compression !== 8)
      throw bad(
        `entry ${shown} uses compression method ${info.compression} (only stored and deflate)`,
      );
    const cap = info.name.endsWith('.json') ? FILE_LIMITS.jsonBytes : FILE_LIMITS.entryBytes;
    if (info.originalSize > cap)
      throw bad(`entry ${shown} inflates to ${info.originalSize} bytes, more than ${cap}`);
    if (info.originalSize > 1024 * 1024 && info.originalSize > info.size * FILE_LIMITS.ratio)
      throw bad(
        `entry ${shown} claims a compression ratio over ${FILE_LIMITS.ratio}:1 (a zip bomb?)`,
      );
    total += info.originalSize;
    if (total > FILE_LIMITS.totalBytes)
      throw bad(`entries inflate to more than ${FILE_LIMITS.totalBytes} bytes in all`);
    const blob = info.name.startsWith('blobs/');
    if (info.compression !== 0 && (blob || info.compression !== 8))
      throw bad(
        `entry ${shown} uses compression method ${info.compression} (${blob ? 'blobs are stored: their bytes are deflated already' : 'only stored and deflate'})`,
      );
    return true;
  };
}

function unzip(bytes: Uint8Array): Record<string, Uint8Array> {
  if (bytes.length > FILE_LIMITS.fileBytes)
    throw bad(
      `${bytes.length} bytes, more than the ${FILE_LIMITS.fileBytes} a timeline file may have`,
    );
  if (bytes.length < 22 || bytes[0] !== 0x50 || bytes[1] !== 0x4b)
    throw bad('not a zip archive (empty, truncated or another format)');
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, { filter: directoryGuard() });
  } catch (err) {
    if (err instanceof TimelineError) throw err;
    const why = err instanceof Error ? err.message : String(err);
    throw bad(`corrupt or truncated zip (${why})`);
  }
  // fflate reads the central directory only: the local headers must agree with it.
  const directory = checkLocalHeaders(bytes);
  if (typeof directory === 'string') throw bad(`zip: ${directory}`);
  const crcProblem = checkCrcs(directory, files);
  if (crcProblem) throw bad(crcProblem);
  return files;
}

/** One issue of a schema check as "where: what". */
function issueText(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const where = issue.path.length > 0 ? issue.path.map(String).join('.') : 'value';
  return `${where} ${issue.message}`;
}

function parseJson<T extends z.ZodType>(
  entries: Record<string, Uint8Array>,
  name: string,
  schema: T,
): z.infer<T> {
  const data = entries[name];
  if (!data) throw bad(`${name} is missing`);
  let raw: unknown;
  try {
    raw = JSON.parse(strFromU8(data));
  } catch {
    throw bad(`${name} is not valid JSON`);
  }
  if (name === 'manifest.json' || name === 'commit.json') checkVersion(name, raw);
  const result = schema.safeParse(raw);
  if (!result.success) throw bad(`${name}: ${issueText(result.error)}`);
  return result.data;
}

/** Format and version first, so a newer file gets that message and not a schema error. */
function checkVersion(name: string, raw: unknown): void {
  const obj = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  if (obj.format !== FORMAT_NAME) throw bad(`${name} does not name the ${FORMAT_NAME} format`);
  if (obj.version !== FORMAT_VERSION)
    throw bad(
      `${name}: format version ${JSON.stringify(obj.version)}; this Sandglass reads version ${FORMAT_VERSION}`,
    );
}

/** Parses and validates a timeline file. */
export function decodeTimeline(bytes: Uint8Array): TimelineData {
  const entries = unzip(bytes);
  if (!entries['commit.json'])
    throw bad('commit.json is missing: the file was not finished (the save was interrupted)');
  const commit = parseJson(entries, 'commit.json', Commit);
  for (const [name, hash] of Object.entries(commit.entries)) {
    const data = entries[name];
    if (!data) throw bad(`${name} is missing (commit.json lists it)`);
    if (sha256(data) !== hash)
      throw bad(`${name} is corrupt (its sha256 differs from commit.json's)`);
  }
  for (const name of Object.keys(entries))
    if (!name.startsWith('blobs/') && name !== 'commit.json' && !(name in commit.entries))
      throw bad(`${name} is not listed in commit.json`);
  const manifest = parseJson(entries, 'manifest.json', Manifest);
  const origin = parseJson(entries, 'trees/origin.json', OriginTree).entries;
  if (commit.steps !== manifest.steps.length)
    throw bad(
      `commit.json counts ${commit.steps} steps, the manifest has ${manifest.steps.length}`,
    );

  checkGraph(manifest);
  const parents = new Map(manifest.steps.map((s) => [s.id, s.parentId]));
  const trees = new Map<string, z.infer<typeof StepTree>>();
  const recordings = new Map<string, RecordingData>();
  const hasTree = new Set<string>();
  for (const step of manifest.steps) {
    const treeName = `steps/${step.id}.json`;
    if (step.released) {
      if (entries[treeName]) throw bad(`${treeName} exists for a released step`);
    } else {
      const tree = parseJson(entries, treeName, StepTree);
      if (tree.id !== step.id) throw bad(`${treeName} names step ${tree.id}`);
      if (tree.base !== null && !hasTree.has(tree.base))
        throw bad(`${treeName}: base ${tree.base} is not an earlier step with a tree`);
      if (tree.base !== null && !isAncestor(parents, tree.base, step.id))
        throw bad(`${treeName}: base ${tree.base} is not an ancestor of the step`);
      if (Object.keys(tree.sessions).length > FILE_LIMITS.sessions)
        throw bad(`${treeName}: more than ${FILE_LIMITS.sessions} shell sessions`);
      trees.set(step.id, tree);
      hasTree.add(step.id);
    }
    const recName = `recordings/${step.id}.json`;
    if (step.recorded) recordings.set(step.id, parseJson(entries, recName, Recording));
    else if (entries[recName]) throw bad(`${recName} exists for a step without a recording`);
  }
  for (const name of Object.keys(entries)) {
    const m = /^(steps|recordings)\/(.+)\.json$/.exec(name);
    if (m && !manifest.steps.some((s) => s.id === m[2]))
      throw bad(`${name} belongs to no step of the manifest`);
  }

  const blobs = new Map<string, Uint8Array>();
  let contentBytes = 0;
  for (const [name, raw] of Object.entries(entries)) {
    if (!name.startsWith('blobs/')) continue;
    const hash = name.slice(6);
    // Bounded like the zip's own entries: a blob cannot inflate past what is left.
    const room = Math.min(FILE_LIMITS.entryBytes, FILE_LIMITS.totalBytes - contentBytes);
    let data: Uint8Array;
    try {
      data = new Uint8Array(inflateRawSync(raw, { maxOutputLength: Math.max(1, room) }));
    } catch (err) {
      const why =
        (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE'
          ? `inflates past ${room} bytes`
          : 'cannot inflate';
      throw bad(`${name} is corrupt (${why})`);
    }
    if (!SHA256.test(hash) || sha256(data) !== hash)
      throw bad(`${name} is corrupt (its contents do not match its name)`);
    blobs.set(hash, data);
    contentBytes += data.length;
  }
  if (blobs.size !== commit.blobs)
    throw bad(`commit.json counts ${commit.blobs} blobs, the file has ${blobs.size}`);
  const need = (blob: string | undefined, where: string): void => {
    if (blob !== undefined && !blobs.has(blob))
      throw bad(`${where} refers to missing blob ${blob}`);
  };
  for (const e of origin) need(e.blob, 'trees/origin.json');
  for (const [id, tree] of trees) for (const e of tree.set) need(e.blob, `steps/${id}.json`);
  for (const e of origin) entryProblem(e, 'trees/origin.json');
  for (const [id, tree] of trees) for (const e of tree.set) entryProblem(e, `steps/${id}.json`);
  return { manifest, origin, trees, recordings, blobs, contentBytes, fileBytes: bytes.length };
}

function entryProblem(
  e: { kind: string; blob?: string; target?: string; path: string },
  where: string,
): void {
  if (e.kind === 'file' && e.blob === undefined) throw bad(`${where}: file ${e.path} has no blob`);
  if (e.kind === 'symlink' && e.target === undefined)
    throw bad(`${where}: symlink ${e.path} has no target`);
}

function isAncestor(
  parents: ReadonlyMap<string, string | null>,
  ancestor: string,
  stepId: string,
): boolean {
  for (let id = parents.get(stepId) ?? null; id !== null; id = parents.get(id) ?? null)
    if (id === ancestor) return true;
  return false;
}

/** Unique ids, known branches, parents before their children (so no cycles). */
function checkGraph(manifest: Manifest): void {
  const branches = new Set<string>();
  const names = new Set<string>();
  for (const b of manifest.branches) {
    if (branches.has(b.id)) throw bad(`manifest.json: branch id ${b.id} appears twice`);
    if (names.has(b.name))
      throw bad(`manifest.json: branch name ${JSON.stringify(b.name)} appears twice`);
    branches.add(b.id);
    names.add(b.name);
  }
  const ids = new Set(manifest.steps.map((s) => s.id));
  if (ids.size !== manifest.steps.length) {
    const seen = new Set<string>();
    for (const s of manifest.steps) {
      if (seen.has(s.id)) throw bad(`manifest.json: step id ${s.id} appears twice`);
      seen.add(s.id);
    }
  }
  const parents = new Map(manifest.steps.map((s) => [s.id, s.parentId]));
  const earlier = new Set<string>();
  for (const s of manifest.steps) {
    if (!branches.has(s.branchId))
      throw bad(`manifest.json: step ${s.id} is on unknown branch ${s.branchId}`);
    if (s.parentId !== null && !ids.has(s.parentId))
      throw bad(`manifest.json: step ${s.id} has unknown parent ${s.parentId}`);
    if (s.parentId !== null && !earlier.has(s.parentId)) {
      // Either a cycle or a parent listed after its child: say which.
      const seen = new Set<string>([s.id]);
      for (let id: string | null = s.parentId; id !== null; id = parents.get(id) ?? null) {
        if (seen.has(id)) throw bad(`manifest.json: the step graph has a cycle through ${s.id}`);
        seen.add(id);
      }
      throw bad(`manifest.json: step ${s.id} is listed before its parent ${s.parentId}`);
    }
    if (s.restoredFrom !== undefined && !earlier.has(s.restoredFrom))
      throw bad(`manifest.json: step ${s.id} restores unknown step ${s.restoredFrom}`);
    earlier.add(s.id);
  }
  for (const b of manifest.branches)
    if (b.forkedFrom !== null && !ids.has(b.forkedFrom))
      throw bad(`manifest.json: branch ${b.id} grows from unknown step ${b.forkedFrom}`);
  if (manifest.head !== null && !ids.has(manifest.head))
    throw bad(`manifest.json: head ${manifest.head} is not a step`);
  if (!branches.has(manifest.branchId))
    throw bad(`manifest.json: current branch ${manifest.branchId} is not a branch`);
}
