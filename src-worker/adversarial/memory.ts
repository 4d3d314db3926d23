/**
 * Reading the engine's own memory for leak checks: a full GC on demand
 * (V8's gc, exposed for this process without a command-line flag) and a
 * reading taken once the collector has really finished.
 */
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';

/** Runs a full garbage collection (V8's gc, exposed for this process). */
export function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/** Engine memory that a leak would hold: the JS heap and ArrayBuffer contents (bytes). */
export interface RetainedMemory {
  readonly heap: number;
  readonly buffers: number;
}

export function retained(): RetainedMemory {
  collectGarbage();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, buffers: m.arrayBuffers };
}

/**
 * Memory once the collector has finished. ArrayBuffer contents are freed by
 * a sweeper that runs after the GC, and a terminated worker thread lets go
 * of what it shared a little later, so a reading taken at once after one GC
 * can count tens of MiB of garbage (a heap snapshot of that moment shows
 * none of it alive). Collects and waits until two readings agree.
 */
export async function settledMemory(): Promise<RetainedMemory> {
  let last = retained();
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 100));
    const next = retained();
    const still =
      Math.abs(next.heap - last.heap) < 256 * 1024 &&
      Math.abs(next.buffers - last.buffers) < 256 * 1024;
    last = next;
    if (still) break;
  }
  return last;
}
