/**
 * Restoring the memory snapshot into a fresh interpreter's heap without
 * touching the pages that are zero in it (more than half of the 30 MiB):
 * a fresh wasm memory reads as zeros without holding any RAM, so copying
 * only the other pages saves the copy and keeps each interpreter's resident
 * heap to what the snapshot really holds. Pages instantiation already wrote
 * to are cleared where the snapshot has zeros, so the heap ends up exactly
 * the snapshot's. The page map is the engine's (python/resources.ts,
 * `snapshotPageMap`): [heap offset in the file, page size] as two little-endian
 * u32, then one byte per page, 1 when the page holds anything but zeros.
 */

import { helperModule } from './wasmHelpers.js';

/**
 * A tiny wasm module over the heap's memory exporting `nz(from, to)`: 1 when
 * any 8 bytes in [from, to) are non-zero. Scanning the zero pages this way
 * takes ~1-3 ms where a JavaScript loop, cold in each new realm, took 15-40.
 */
const SCANNER = Uint8Array.of(
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
  // type 0: (i32, i32) -> i32
  ...[0x01, 0x07, 0x01, 0x60, 0x02, 0x7f, 0x7f, 0x01, 0x7f],
  // import "e" "m": memory, min 0
  ...[0x02, 0x08, 0x01, 0x01, 0x65, 0x01, 0x6d, 0x02, 0x00, 0x00],
  ...[0x03, 0x02, 0x01, 0x00],
  // export "nz" = func 0
  ...[0x07, 0x06, 0x01, 0x02, 0x6e, 0x7a, 0x00, 0x00],
  ...[0x0a, 0x2a, 0x01, 0x28, 0x00],
  // block; loop; br_if 1 (from >= to); if (i64.load from != 0) return 1; from += 8; br 0; end; end; 0
  ...[0x02, 0x40, 0x03, 0x40, 0x20, 0x00, 0x20, 0x01, 0x4f, 0x0d, 0x01],
  ...[0x20, 0x00, 0x29, 0x03, 0x00, 0x42, 0x00, 0x52, 0x04, 0x40, 0x41, 0x01, 0x0f, 0x0b],
  ...[0x20, 0x00, 0x41, 0x08, 0x6a, 0x21, 0x00, 0x0c, 0x00, 0x0b, 0x0b, 0x41, 0x00, 0x0b],
);

/** `nz` over `memory`, or a JavaScript scan of `heap` when there is no memory to bind to. */
function zeroScanner(heap: Uint8Array, memory: WebAssembly.Memory | undefined) {
  if (memory && memory.buffer === heap.buffer) {
    const instance = new WebAssembly.Instance(helperModule('sandglass:zero-scan', SCANNER), {
      e: { m: memory },
    });
    const nz = instance.exports.nz as (from: number, to: number) => number;
    return (from: number, to: number): boolean => nz(from, to) !== 0;
  }
  // Int32 words: a Float64 view would take -0 for zero.
  const words = new Int32Array(heap.buffer, 0, Math.floor(heap.length / 4));
  return (from: number, to: number): boolean => {
    for (let w = from / 4, end = to / 4; w < end; w++) if (words[w] !== 0) return true;
    return false;
  };
}

/**
 * Copy `heap` from the snapshot's heap part `snap` (Pyodide's restoreSnapshot
 * calls this, with the heap's `memory`).
 */
export function restoreHeap(
  heap: Uint8Array,
  snap: Uint8Array,
  pageMap: Uint8Array | undefined,
  memory?: WebAssembly.Memory,
): void {
  if (!pageMap || pageMap.length < 8) {
    heap.set(snap);
    return;
  }
  const head = new DataView(pageMap.buffer, pageMap.byteOffset, 8);
  const heapAt = head.getUint32(0, true);
  const page = head.getUint32(4, true);
  const flags = pageMap.subarray(8);
  // The map describes another file, or pages that do not divide the heap: copy it all.
  if (
    snap.byteOffset !== heapAt ||
    page % 8 !== 0 ||
    flags.length !== Math.ceil(snap.length / page) ||
    heap.length < snap.length ||
    heap.byteOffset !== 0
  ) {
    heap.set(snap);
    return;
  }
  const written = zeroScanner(heap, memory);
  for (let i = 0; i < flags.length;) {
    const start = i * page;
    if (flags[i] || start + page > snap.length) {
      let j = i + 1;
      while (j < flags.length && flags[j]) j++;
      const end = Math.min(j * page, snap.length);
      heap.set(snap.subarray(start, end), start);
      i = j;
      continue;
    }
    // Zero in the snapshot: reading the heap's page maps no memory; clear it only if written.
    if (written(start, start + page)) heap.fill(0, start, start + page);
    i++;
  }
}
