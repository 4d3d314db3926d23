/**
 * A process worker's spare wasm memories. A fresh memory costs a 10 GB
 * address-space reservation, page faults on every page the data segments
 * and stack touch (~0.4 ms for coreutils' 1.6 MB), and a garbage collection
 * later to free it: most of a small program's start. A program whose
 * memory exec made an import (`importMemory`) gets a memory an earlier
 * process of the same shape left, zeroed as that process ended (after its
 * EXIT was sent, so off the spawn's path). Only memories that never grew
 * are kept (a memory cannot shrink), and only a few small ones per worker.
 */
import type { MemoryShape } from '../../limits/memoryLimit.js';

const PAGE = 65536;
/** Spares a worker keeps (a pipeline's programs differ; two cover most scripts). */
const MAX_SPARES = 2;
/** Larger memories are not kept: zeroing would cost more than a fresh reservation. */
const MAX_SPARE_BYTES = 16 * 1024 * 1024;

interface Spare {
  readonly memory: WebAssembly.Memory;
  readonly maximum: number;
}

const spares: Spare[] = [];

/** A zeroed memory of `shape`: a spare if one fits, else a new one. */
export function takeMemory(shape: MemoryShape): WebAssembly.Memory {
  const bytes = shape.initial * PAGE;
  const i = spares.findIndex(
    (s) => s.maximum === shape.maximum && s.memory.buffer.byteLength === bytes,
  );
  if (i >= 0) return (spares.splice(i, 1)[0] as Spare).memory;
  return new WebAssembly.Memory({ initial: shape.initial, maximum: shape.maximum });
}

/** The process using `memory` has ended: zero it and keep it if it is still of `shape`. */
export function keepMemory(memory: WebAssembly.Memory, shape: MemoryShape): void {
  const bytes = memory.buffer.byteLength;
  if (bytes !== shape.initial * PAGE || bytes > MAX_SPARE_BYTES) return;
  new Uint8Array(memory.buffer).fill(0);
  spares.push({ memory, maximum: shape.maximum });
  if (spares.length > MAX_SPARES) spares.shift();
}
