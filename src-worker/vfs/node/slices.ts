/**
 * Host copies (import, export) run synchronously in slices of a few ms and
 * yield to the event loop between them: synchronous calls are several times
 * faster than awaiting each one, and the yields keep an engine that copies a
 * large tree answering its other sandboxes.
 */

/** Work between two yields. */
export const SLICE_MS = 8;

/** Yields to the event loop (setImmediate: after pending I/O callbacks). */
export function yieldNow(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
