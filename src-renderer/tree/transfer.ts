/** Moving files across the host boundary: reading dropped host files/folders, exporting to the host. */
import { api } from '../store/apiHandle.js';
import { base64ToBytes, bytesToBase64 } from '../store/filesSlice.js';
import { electronBridge } from '../api/transports.js';
import { baseName } from '../store/paths.js';
import { writeTar, type TarEntry } from './tar.js';

export interface HostFile {
  relativePath: string;
  data: Uint8Array;
}

/** Subset of the File System Entry API (webkitGetAsEntry) we use. */
interface FsEntry {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
  file?(success: (file: File) => void, failure: (err: unknown) => void): void;
  createReader?(): {
    readEntries(success: (entries: FsEntry[]) => void, failure: (err: unknown) => void): void;
  };
}

async function readEntry(entry: FsEntry, prefix: string, out: HostFile[]): Promise<void> {
  const path = prefix ? `${prefix}/${entry.name}` : entry.name;
  if (entry.isFile && entry.file) {
    const file = await new Promise<File>((resolve, reject) => entry.file?.(resolve, reject));
    out.push({ relativePath: path, data: new Uint8Array(await file.arrayBuffer()) });
  } else if (entry.isDirectory && entry.createReader) {
    const reader = entry.createReader();
    // readEntries returns batches until an empty one.
    for (;;) {
      const batch = await new Promise<FsEntry[]>((resolve, reject) =>
        reader.readEntries(resolve, reject),
      );
      if (batch.length === 0) break;
      for (const child of batch) await readEntry(child, path, out);
    }
  }
}

/** Collects dropped host files and folders (recursively) with their relative paths. */
export async function readDroppedFiles(transfer: DataTransfer): Promise<HostFile[]> {
  const out: HostFile[] = [];
  const entries: FsEntry[] = [];
  for (const item of Array.from(transfer.items)) {
    const getEntry = (item as DataTransferItem & { webkitGetAsEntry?: () => FsEntry | null })
      .webkitGetAsEntry;
    const entry = item.kind === 'file' && getEntry ? getEntry.call(item) : null;
    if (entry) entries.push(entry);
  }
  if (entries.length > 0) {
    for (const entry of entries) await readEntry(entry, '', out);
    return out;
  }
  for (const file of Array.from(transfer.files))
    out.push({ relativePath: file.name, data: new Uint8Array(await file.arrayBuffer()) });
  return out;
}

async function collect(
  sandboxId: string,
  dir: string,
  snapshotId: string | null,
  rel: string,
  out: TarEntry[],
): Promise<void> {
  const entries = await api().readDir(
    snapshotId ? { sandboxId, path: dir, snapshotId } : { sandboxId, path: dir },
  );
  for (const e of entries) {
    const name = `${rel}/${e.name}`;
    if (e.kind === 'dir') {
      out.push({ name, kind: 'dir', mode: e.mode, mtimeMs: e.mtimeMs });
      await collect(sandboxId, e.path, snapshotId, name, out);
    } else if (e.kind === 'file') {
      const file = await api().readFile(
        snapshotId ? { sandboxId, path: e.path, snapshotId } : { sandboxId, path: e.path },
      );
      out.push({
        name,
        kind: 'file',
        mode: e.mode,
        mtimeMs: e.mtimeMs,
        data: base64ToBytes(file.base64),
      });
    }
  }
}

/** Exports a file (as is) or a folder (as a .tar) to the host. */
export async function exportPath(
  sandboxId: string,
  path: string,
  kind: 'file' | 'dir',
  snapshotId: string | null,
): Promise<boolean> {
  let bytes: Uint8Array;
  let name = path === '/' ? 'root' : baseName(path);
  if (kind === 'dir') {
    const entries: TarEntry[] = [{ name, kind: 'dir', mode: 0o755, mtimeMs: Date.now() }];
    await collect(sandboxId, path, snapshotId, name, entries);
    bytes = writeTar(entries);
    name = `${name}.tar`;
  } else {
    const file = await api().readFile(
      snapshotId ? { sandboxId, path, snapshotId } : { sandboxId, path },
    );
    bytes = base64ToBytes(file.base64);
  }
  return saveToHost(name, bytes);
}

/** Hands bytes to the host: Electron's save dialog, or a download in web mode. */
export function saveToHost(name: string, bytes: Uint8Array): Promise<boolean> {
  const bridge = electronBridge();
  if (bridge) return bridge.saveFile({ defaultName: name, base64: bytesToBase64(bytes) });
  const url = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>]));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return Promise.resolve(true);
}
