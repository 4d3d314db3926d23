/**
 * Files whose bytes every interpreter of the engine shares (the standard
 * library zip, 16 MB): MEMFS keeps a view of the shared buffer instead of a
 * copy per interpreter. The first write to such a file gives this
 * interpreter a private copy first (copy on write), so no process can change
 * what another one reads.
 */
import type { EmscriptenFS, FsStream } from './emscripten.js';

type Write = (stream: FsStream, ...rest: unknown[]) => number;

interface MemFs {
  stream_ops: { write: Write };
  ops_table: { file: { stream: { write: Write } } } | null;
}

interface MemFile {
  contents: Uint8Array | null;
  usedBytes: number;
}

/** Contents that are views of shared buffers (a write must copy them first). */
const shared = new WeakSet<Uint8Array>();
const patched = new WeakSet<object>();

function copyOnWrite(memfs: MemFs): void {
  if (patched.has(memfs)) return;
  patched.add(memfs);
  const wrap =
    (write: Write): Write =>
    (stream, ...rest) => {
      const node = stream.node as unknown as MemFile;
      if (node.contents && shared.has(node.contents))
        node.contents = node.contents.slice(0, node.usedBytes);
      return write(stream, ...rest);
    };
  // Streams use the ops table's copy; msync calls MEMFS.stream_ops.write itself.
  memfs.stream_ops.write = wrap(memfs.stream_ops.write);
  const table = memfs.ops_table?.file.stream;
  if (!table) throw new Error('sandglass realm: MEMFS has no file operations yet');
  table.write = wrap(table.write);
}

/** Create `path` in MEMFS holding `bytes` (a view of a shared buffer) without copying them. */
export function writeSharedFile(FS: EmscriptenFS, path: string, bytes: Uint8Array): void {
  const fs = FS as unknown as {
    filesystems: { MEMFS: MemFs };
    writeFile(p: string, d: Uint8Array, o: { canOwn: boolean }): void;
  };
  copyOnWrite(fs.filesystems.MEMFS);
  fs.writeFile(path, bytes, { canOwn: true });
  const node = FS.lookupPath(path).node as unknown as MemFile;
  if (node.contents) shared.add(node.contents);
}
