/**
 * Imports of dropped host files: uploaded in batches through `importFiles`,
 * with progress (files and bytes of the totals) as the engine reports it in
 * importProgress events, so every window showing the sandbox sees it; a
 * running import can be cancelled.
 */
import type { StateCreator } from 'zustand';
import type { ApiEvent } from '../../src-worker/contract/api.js';
import { api } from './apiHandle.js';
import { bytesToBase64 } from './filesSlice.js';
import type { AppState } from './index.js';
import { describeError } from './notifySlice.js';

export type ImportProgress = Extract<ApiEvent, { type: 'importProgress' }>;

/** A batch stays under both bounds (one file larger than BATCH_BYTES goes alone). */
const BATCH_BYTES = 4 * 1024 * 1024;
const BATCH_FILES = 256;

export interface ImportsSlice {
  /** Imports in progress, by importId. */
  imports: Record<string, ImportProgress>;
  setImportProgress(event: ImportProgress): void;
  /** Uploads files (paths relative to `dir`) into the current sandbox. */
  importFiles(dir: string, files: { relativePath: string; data: Uint8Array }[]): Promise<void>;
  cancelImport(importId: string): void;
}

/** Batches of consecutive files within the bounds. */
export function batches<T extends { data: Uint8Array }>(files: readonly T[]): T[][] {
  const out: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const f of files) {
    if (
      current.length > 0 &&
      (bytes + f.data.length > BATCH_BYTES || current.length >= BATCH_FILES)
    ) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(f);
    bytes += f.data.length;
  }
  if (current.length > 0 || out.length === 0) out.push(current);
  return out;
}

let nextImport = 1;

export const createImportsSlice: StateCreator<AppState, [], [], ImportsSlice> = (set, get) => ({
  imports: {},

  setImportProgress: (event) =>
    set((s) => {
      const imports = { ...s.imports };
      if (event.state === 'running') imports[event.importId] = event;
      else delete imports[event.importId];
      return { imports };
    }),

  importFiles: async (dir, files) => {
    const sandboxId = get().currentId;
    if (!sandboxId) return;
    const importId = `drop-${Date.now().toString(36)}-${nextImport++}`;
    const totalFiles = files.length;
    const totalBytes = files.reduce((n, f) => n + f.data.length, 0);
    // Shown at once; the engine's events take over from the first batch.
    get().setImportProgress({
      type: 'importProgress',
      sandboxId,
      importId,
      dir,
      files: 0,
      bytes: 0,
      totalFiles,
      totalBytes,
      state: 'running',
    });
    const parts = batches(files);
    let done = { files: 0, bytes: 0 };
    try {
      for (let i = 0; i < parts.length; i++) {
        done = await api().importFiles({
          sandboxId,
          importId,
          dir,
          files: (parts[i] ?? []).map((f) => ({
            path: f.relativePath,
            base64: bytesToBase64(f.data),
          })),
          totalFiles,
          totalBytes,
          last: i === parts.length - 1,
        });
      }
      get().notify('info', `Imported ${done.files} file${done.files === 1 ? '' : 's'} into ${dir}`);
    } catch (err) {
      const cancelled = (err as { code?: string }).code === 'ECANCELED';
      get().notify(
        cancelled ? 'info' : 'error',
        cancelled ? `Import into ${dir} cancelled` : `Import failed: ${describeError(err)}`,
      );
    } finally {
      get().setImportProgress({
        type: 'importProgress',
        sandboxId,
        importId,
        dir,
        ...done,
        totalFiles,
        totalBytes,
        state: 'done',
      });
    }
  },

  cancelImport: (importId) => {
    const running = get().imports[importId];
    if (!running) return;
    void api()
      .cancelImport({ sandboxId: running.sandboxId, importId })
      .catch((err: unknown) => get().notify('error', `Cancel failed: ${describeError(err)}`));
  },
});
