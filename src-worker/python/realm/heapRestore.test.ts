/**
 * The snapshot restore that skips zero pages leaves the heap exactly as a
 * full copy would, whatever instantiation wrote before it, and falls back
 * to a full copy when the page map does not describe the snapshot.
 */
import { describe, expect, it } from 'vitest';
import { snapshotPageMap } from '../resources.js';
import { restoreHeap } from './heapRestore.js';

const PAGE = 4096;
const HEAP_AT = 128;

/** A snapshot file: a header of HEAP_AT bytes (heap offset at byte 4), then `pages` pages. */
function snapshotFile(pages: number, filled: (i: number) => boolean): Buffer {
  const file = Buffer.alloc(HEAP_AT + pages * PAGE);
  file.writeUInt32LE(HEAP_AT, 4);
  for (let i = 0; i < pages; i++)
    if (filled(i)) file.fill((i % 251) + 1, HEAP_AT + i * PAGE + 7, HEAP_AT + i * PAGE + 900);
  // A lone non-zero byte, and a -0.0 bit pattern, at a page's end.
  file[HEAP_AT + 3 * PAGE - 1] = 9;
  file.writeDoubleLE(-0, HEAP_AT + 5 * PAGE - 8);
  return file;
}

function pageMapBytes(file: Buffer): Uint8Array {
  return new Uint8Array(snapshotPageMap(file));
}

describe('snapshot heap restore', () => {
  // The heap as a plain buffer (scanned in JavaScript) and as a wasm memory (scanned by the wasm scanner).
  it.each([false, true])(
    'gives the snapshot byte for byte, clearing pages written before it (wasm memory: %s)',
    (wasm) => {
      const pages = 64;
      const file = snapshotFile(pages, (i) => i % 3 === 0 || i === 40);
      const snap = new Uint8Array(file.buffer, file.byteOffset + HEAP_AT, pages * PAGE);
      const size = pages * PAGE + 2 * PAGE;
      const memory = wasm ? new WebAssembly.Memory({ initial: size / 65536 + 1 }) : undefined;
      const heap = new Uint8Array(memory ? memory.buffer : new ArrayBuffer(size));
      // What instantiation wrote: stray bytes in pages the snapshot has as zeros, and past its end.
      heap[PAGE + 5] = 1;
      heap[7 * PAGE + PAGE - 1] = 2;
      heap[11 * PAGE] = 4;
      heap.set(new Uint8Array(new Float64Array([-0]).buffer), 13 * PAGE + 64);
      heap[pages * PAGE + 3] = 3;
      const map = pageMapBytes(file);
      expect(map.subarray(8).reduce((a, b) => a + b, 0)).toBeLessThan(pages);
      restoreHeap(
        heap,
        new Uint8Array(file.buffer, file.byteOffset, file.length).subarray(HEAP_AT),
        map,
        memory,
      );
      expect(Buffer.from(heap.subarray(0, snap.length)).equals(Buffer.from(snap))).toBe(true);
      // Beyond the snapshot the heap is left alone, as a plain copy would.
      expect(heap[pages * PAGE + 3]).toBe(3);
    },
  );

  it('copies everything when the map is for another file', () => {
    const file = snapshotFile(8, () => true);
    const other = pageMapBytes(snapshotFile(9, () => false));
    const heap = new Uint8Array(8 * PAGE);
    heap[5] = 77;
    restoreHeap(
      heap,
      new Uint8Array(file.buffer, file.byteOffset, file.length).subarray(HEAP_AT),
      other,
    );
    expect(Buffer.from(heap).equals(file.subarray(HEAP_AT))).toBe(true);
  });
});
