/**
 * Instances a process worker keeps to run their program again (see
 * programs/restart.ts for which modules qualify). What a new process must
 * not inherit is put back as the last one ends, after its EXIT is sent (off
 * the spawn's path): the memory from the image taken before the first
 * `_start`, the mutable globals to their first values. The glue context is
 * the instance's too (its imports are bound to it); the next process gets
 * its own argv, env, handles and file caches in it.
 */
import { RESTART_GLOBAL } from '../../programs/restart.js';
import type { GlueContext } from '../../wasi/context.js';

/** Instances a worker keeps (a pipeline's programs differ; two cover most scripts). */
const MAX_WARM = 2;
/** Larger memories are not kept: restoring would cost more than a new instance. */
const MAX_BYTES = 16 * 1024 * 1024;

export interface WarmInstance {
  readonly instance: WebAssembly.Instance;
  readonly memory: WebAssembly.Memory;
  readonly ctx: GlueContext;
  readonly start: () => void;
}

interface Kept extends WarmInstance {
  /** The memory's non-zero span before the first `_start`. */
  readonly at: number;
  readonly image: Uint8Array;
  readonly globals: [WebAssembly.Global, unknown][];
}

/**
 * Block sizes for finding zeros: whole blocks are compared natively
 * (memcmp), so a scan does not walk megabytes a byte at a time in code V8
 * has not optimised yet (the shell's 8 MiB stack comes first in its
 * memory: a byte loop cost ~17 ms of a cold start).
 */
const BLOCKS = [65536, 4096, 64];
const ZEROS = Buffer.alloc(BLOCKS[0] as number);

/** The memory's bytes as a Buffer (a view, not a copy) for native compares. */
function memoryBytes(memory: WebAssembly.Memory): Buffer {
  return Buffer.from(memory.buffer);
}

function allZero(bytes: Buffer, from: number, to: number): boolean {
  return bytes.compare(ZEROS, 0, to - from, from, to) === 0;
}

/** Index of the first non-zero byte in [from, to), or `to`. */
export function firstNonZero(bytes: Buffer, from: number, to: number): number {
  let p = from;
  for (const block of BLOCKS) while (p + block <= to && allZero(bytes, p, p + block)) p += block;
  while (p < to && bytes[p] === 0) p++;
  return p;
}

/** One past the last non-zero byte in [from, to), or `from`. */
export function endOfNonZero(bytes: Buffer, from: number, to: number): number {
  let e = to;
  for (const block of BLOCKS) while (e - block >= from && allZero(bytes, e - block, e)) e -= block;
  while (e > from && bytes[e - 1] === 0) e--;
  return e;
}

/**
 * Zeroes [from, to) writing only the blocks that are not zero already: a
 * write to an untouched page would make the process hold it (the shell's
 * stack is 8 MiB, of which a command touches a few pages).
 */
export function zeroDirtyBlocks(bytes: Buffer, from: number, to: number): void {
  const block = BLOCKS[0] as number;
  for (let p = from; p < to; p += block) {
    const e = Math.min(p + block, to);
    if (!allZero(bytes, p, e)) bytes.fill(0, p, e);
  }
}

const kept = new Map<string, Kept>();
const images = new WeakMap<WebAssembly.Instance, Omit<Kept, keyof WarmInstance>>();

/** Takes the kept instance for `key`, if there is one (it is the caller's until `keepInstance`). */
export function takeInstance(key: string): WarmInstance | undefined {
  const k = kept.get(key);
  if (k) kept.delete(key);
  return k;
}

/** Remembers what a new instance looks like before its first `_start`, so it can be restored. */
export function snapshotInstance(w: WarmInstance): void {
  if (images.has(w.instance)) return;
  const bytes = memoryBytes(w.memory);
  if (bytes.length > MAX_BYTES) return;
  const first = firstNonZero(bytes, 0, bytes.length);
  const end = endOfNonZero(bytes, first, bytes.length);
  const globals: [WebAssembly.Global, unknown][] = [];
  for (const [name, v] of Object.entries(w.instance.exports))
    if (name.startsWith(RESTART_GLOBAL) && v instanceof WebAssembly.Global)
      globals.push([v, v.value]);
  images.set(w.instance, { at: first, image: new Uint8Array(bytes.subarray(first, end)), globals });
}

/**
 * The process on `w` ended normally: put its instance back as it was before
 * its first `_start` and keep it for `key`. False if it cannot be (its
 * memory grew, or it was never snapshot): the caller drops it.
 */
export function keepInstance(key: string, w: WarmInstance, initialBytes: number): boolean {
  const img = images.get(w.instance);
  const bytes = memoryBytes(w.memory);
  if (!img || bytes.length !== initialBytes) return false;
  zeroDirtyBlocks(bytes, 0, img.at);
  bytes.set(img.image, img.at);
  zeroDirtyBlocks(bytes, img.at + img.image.length, bytes.length);
  for (const [g, v] of img.globals) g.value = v;
  kept.delete(key);
  kept.set(key, { ...w, ...img });
  while (kept.size > MAX_WARM) kept.delete(kept.keys().next().value as string);
  return true;
}
