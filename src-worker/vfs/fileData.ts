/**
 * File contents as a persistent vector of 16 KiB chunks.
 *
 * A chunk shared with a snapshot is copied before it is written, so a small
 * write into a large file copies at most the chunks it touches plus the
 * array of chunk references. A chunk's buffer may be shorter than the chunk's
 * logical length: the missing tail reads as zeros, and a `null` chunk is a
 * hole of zeros. Buffers owned by the current edit grow by doubling, so
 * appends are amortised O(1).
 *
 * Invariant: every byte in [0, size) reads back what was last written there
 * or zero. Growing the size zeroes [oldSize, ...) first, because a shrunken
 * file's buffers may still hold stale bytes past the old end.
 */
import { Errno, KernelError } from '../base/errno.js';
import type { Edit } from './hamt.js';
import type { ContentSource } from './types.js';

/**
 * 16 KiB: a small edit to a shared big file copies one chunk, so this is
 * what a snapshot costs per touched region; larger chunks made the timeline's
 * per-command snapshots of edited logs and databases 4x bigger, smaller ones
 * make the chunk-reference array of big files long.
 */
export const CHUNK_SIZE = 16384;

interface Chunk {
  owner: Edit | null;
  buf: Uint8Array;
}

export interface FileData {
  owner: Edit | null;
  size: number;
  chunks: Array<Chunk | null>;
  /**
   * Contents not read yet (a lazy host import): `chunks` is empty until the
   * first use loads them. Loading fills this object in place even when
   * snapshots share it: the contents were fixed when the source was made,
   * so every holder sees the same bytes, only later.
   */
  source: ContentSource | null;
}

export function emptyData(edit: Edit): FileData {
  return { owner: edit, size: 0, chunks: [], source: null };
}

/** Data of `source.size` bytes read from `source` on first use. */
export function lazyData(source: ContentSource, edit: Edit): FileData {
  return { owner: edit, size: source.size, chunks: [], source };
}

/**
 * Reads a lazy file's contents in (no-op otherwise). The chunks are views of
 * the one buffer the source returns, shared (owner null) so a write copies
 * the chunk it touches. Throws what the source throws (EIO when its origin
 * changed), leaving the data lazy.
 */
export function loadData(data: FileData): void {
  const source = data.source;
  if (!source) return;
  const bytes = source.load();
  if (bytes.length !== data.size)
    throw new KernelError(Errno.EIO, `read ${bytes.length} of ${data.size} bytes`);
  data.chunks = sharedChunks(bytes);
  data.source = null;
}

/** Views of `bytes` as chunks nobody owns: a write copies the chunk it touches. */
function sharedChunks(bytes: Uint8Array): Chunk[] {
  const chunks: Chunk[] = [];
  for (let at = 0; at < bytes.length; at += CHUNK_SIZE)
    chunks.push({ owner: null, buf: bytes.subarray(at, at + CHUNK_SIZE) });
  return chunks;
}

/**
 * Data holding `bytes` without copying them (the caller never changes
 * them): files made from one buffer share it until one is written.
 */
export function sharedData(bytes: Uint8Array, edit: Edit): FileData {
  return { owner: edit, size: bytes.length, chunks: sharedChunks(bytes), source: null };
}

/** An editable copy of the header (chunk references are shared, not copied). */
export function editableData(data: FileData, edit: Edit): FileData {
  loadData(data);
  if (data.owner === edit) return data;
  return { owner: edit, size: data.size, chunks: data.chunks.slice(), source: null };
}

/** Read up to `len` bytes at `offset`. */
export function readData(data: FileData, offset: number, len: number): Uint8Array {
  const n = Math.max(0, Math.min(data.size, offset + len) - offset);
  const out = new Uint8Array(n);
  readDataInto(data, offset, out);
  return out;
}

/** Read up to `dst.length` bytes at `offset` into `dst`; returns the count. */
export function readDataInto(data: FileData, offset: number, dst: Uint8Array): number {
  loadData(data);
  const end = Math.min(data.size, offset + dst.length);
  if (end <= offset) return 0;
  let pos = offset;
  while (pos < end) {
    const ci = Math.floor(pos / CHUNK_SIZE);
    const within = pos - ci * CHUNK_SIZE;
    const take = Math.min(CHUNK_SIZE - within, end - pos);
    const chunk = data.chunks[ci];
    let avail = 0;
    if (chunk && within < chunk.buf.length) {
      avail = Math.min(take, chunk.buf.length - within);
      dst.set(chunk.buf.subarray(within, within + avail), pos - offset);
    }
    // dst may be reused memory: holes and short buffers are zeroed here.
    if (avail < take) dst.fill(0, pos - offset + avail, pos - offset + take);
    pos += take;
  }
  return end - offset;
}

/** Make chunk `ci` writable with at least `need` bytes of buffer. */
function writableChunk(data: FileData, ci: number, need: number, edit: Edit): Chunk {
  const chunk = data.chunks[ci];
  if (chunk && chunk.owner === edit && chunk.buf.length >= need) return chunk;
  const oldLen = chunk ? chunk.buf.length : 0;
  let cap: number;
  if (!chunk) {
    cap = need; // exact: most files are written once, and small files dominate
  } else if (need <= oldLen) {
    cap = oldLen; // copy-on-write of a shared chunk
  } else {
    cap = Math.max(oldLen * 2, 64); // doubling keeps appends amortised O(1)
    while (cap < need) cap *= 2;
  }
  cap = Math.min(Math.max(cap, need), CHUNK_SIZE);
  const buf = new Uint8Array(cap);
  if (chunk) buf.set(chunk.buf.subarray(0, Math.min(oldLen, cap)));
  const fresh: Chunk = { owner: edit, buf };
  data.chunks[ci] = fresh;
  return fresh;
}

/** Zero [from, to) within existing buffers (holes and missing tails are zero already). */
function zeroRange(data: FileData, from: number, to: number, edit: Edit): void {
  let pos = from;
  while (pos < to) {
    const ci = Math.floor(pos / CHUNK_SIZE);
    const within = pos - ci * CHUNK_SIZE;
    const take = Math.min(CHUNK_SIZE - within, to - pos);
    const chunk = data.chunks[ci];
    if (chunk && within < chunk.buf.length) {
      if (within === 0 && take === CHUNK_SIZE) {
        data.chunks[ci] = null;
      } else {
        const c = writableChunk(data, ci, 0, edit);
        c.buf.fill(0, within, Math.min(within + take, c.buf.length));
      }
    }
    pos += take;
  }
}

/** Set the logical size, zero-filling growth; `data` must be editable. */
export function resizeData(data: FileData, size: number, edit: Edit): void {
  loadData(data);
  if (size > data.size) {
    zeroRange(data, data.size, size, edit);
  }
  const nChunks = Math.ceil(size / CHUNK_SIZE);
  if (data.chunks.length > nChunks) data.chunks.length = nChunks;
  while (data.chunks.length < nChunks) data.chunks.push(null);
  data.size = size;
}

/** Write `src` at `offset`, growing the file; `data` must be editable. */
export function writeData(data: FileData, offset: number, src: Uint8Array, edit: Edit): void {
  loadData(data);
  const end = offset + src.length;
  if (offset > data.size) resizeData(data, offset, edit);
  if (end > data.size) resizeData(data, end, edit);
  let pos = offset;
  while (pos < end) {
    const ci = Math.floor(pos / CHUNK_SIZE);
    const within = pos - ci * CHUNK_SIZE;
    const take = Math.min(CHUNK_SIZE - within, end - pos);
    const c = writableChunk(data, ci, within + take, edit);
    c.buf.set(src.subarray(pos - offset, pos - offset + take), within);
    pos += take;
  }
}
