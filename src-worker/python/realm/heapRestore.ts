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

/** Copy `heap` from the snapshot's heap part `snap` (Pyodide's restoreSnapshot calls this). */
export function restoreHeap(
  heap: Uint8Array,
  snap: Uint8Array,
  pageMap: Uint8Array | undefined,
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
    page % 4 !== 0 ||
    flags.length !== Math.ceil(snap.length / page) ||
    heap.length < snap.length ||
    heap.byteOffset !== 0
  ) {
    heap.set(snap);
    return;
  }
  // Int32 words: a Float64 view would take -0 for zero.
  const words = new Int32Array(heap.buffer, 0, Math.floor(snap.length / 4));
  const perPage = page / 4;
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
    for (let w = i * perPage, wEnd = w + perPage; w < wEnd; w++) {
      if (words[w] !== 0) {
        heap.fill(0, start, start + page);
        break;
      }
    }
    i++;
  }
}
