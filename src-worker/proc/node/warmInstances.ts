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
  const bytes = new Uint8Array(w.memory.buffer);
  if (bytes.length > MAX_BYTES) return;
  let first = 0;
  while (first < bytes.length && bytes[first] === 0) first++;
  let end = bytes.length;
  while (end > first && bytes[end - 1] === 0) end--;
  const globals: [WebAssembly.Global, unknown][] = [];
  for (const [name, v] of Object.entries(w.instance.exports))
    if (name.startsWith(RESTART_GLOBAL) && v instanceof WebAssembly.Global)
      globals.push([v, v.value]);
  images.set(w.instance, { at: first, image: bytes.slice(first, end), globals });
}

/**
 * The process on `w` ended normally: put its instance back as it was before
 * its first `_start` and keep it for `key`. False if it cannot be (its
 * memory grew, or it was never snapshot): the caller drops it.
 */
export function keepInstance(key: string, w: WarmInstance, initialBytes: number): boolean {
  const img = images.get(w.instance);
  const bytes = new Uint8Array(w.memory.buffer);
  if (!img || bytes.length !== initialBytes) return false;
  bytes.fill(0, 0, img.at);
  bytes.set(img.image, img.at);
  bytes.fill(0, img.at + img.image.length);
  for (const [g, v] of img.globals) g.value = v;
  kept.delete(key);
  kept.set(key, { ...w, ...img });
  while (kept.size > MAX_WARM) kept.delete(kept.keys().next().value as string);
  return true;
}
