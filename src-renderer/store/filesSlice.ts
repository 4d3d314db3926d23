/**
 * The file tree: directory listings of the viewed state (live or a step's
 * snapshot), expansion, selection, and file operations. Live updates come from
 * fsChange events: only already-loaded parent directories are re-read.
 */
import type { StateCreator } from 'zustand';
import type { FileEntry, FsChange } from '../../src-worker/contract/api.js';
import { api } from './apiHandle.js';
import type { AppState } from './index.js';
import { describeError } from './notifySlice.js';
import { isInside, joinPath, parentOf } from './paths.js';

export interface BrowseTarget {
  stepId: string;
  snapshotId: string;
}

export interface FilesSlice {
  dirs: Record<string, FileEntry[]>;
  expanded: Record<string, boolean>;
  selectedPath: string | null;
  browse: BrowseTarget | null;
  /** Bumped on every reload so views can re-derive rows. */
  treeVersion: number;
  resetTree(): void;
  loadDir(path: string): Promise<void>;
  toggleDir(path: string): void;
  selectPath(path: string | null): void;
  applyChanges(sandboxId: string, changes: FsChange[]): void;
  setBrowse(target: BrowseTarget | null): void;
  createFile(dir: string, name: string): Promise<boolean>;
  createDir(dir: string, name: string): Promise<boolean>;
  renamePath(from: string, to: string): Promise<boolean>;
  removePath(path: string): Promise<boolean>;
}

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK)
    binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(binary);
}

export function base64ToBytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export const createFilesSlice: StateCreator<AppState, [], [], FilesSlice> = (set, get) => {
  const sandboxId = (): string => {
    const id = get().currentId;
    if (!id) throw new Error('no sandbox selected');
    return id;
  };
  const guard = async (action: () => Promise<unknown>): Promise<boolean> => {
    try {
      await action();
      return true;
    } catch (err) {
      get().notify('error', describeError(err));
      return false;
    }
  };

  return {
    dirs: {},
    expanded: { '/': true },
    selectedPath: null,
    browse: null,
    treeVersion: 0,

    resetTree: () => {
      set({ dirs: {}, treeVersion: get().treeVersion + 1 });
      for (const [path, open] of Object.entries(get().expanded)) if (open) void get().loadDir(path);
    },

    loadDir: async (path) => {
      const id = get().currentId;
      if (!id) return;
      const browse = get().browse;
      try {
        const params = browse
          ? { sandboxId: id, path, snapshotId: browse.snapshotId }
          : { sandboxId: id, path };
        const entries = await api().readDir(params);
        // Drop answers for a view the user has left meanwhile.
        if (get().currentId !== id || get().browse !== browse) return;
        entries.sort((a, b) =>
          (a.kind === 'dir') !== (b.kind === 'dir')
            ? a.kind === 'dir'
              ? -1
              : 1
            : a.name.localeCompare(b.name),
        );
        set({ dirs: { ...get().dirs, [path]: entries }, treeVersion: get().treeVersion + 1 });
      } catch {
        // The directory vanished: forget it and collapse it.
        const dirs = { ...get().dirs };
        delete dirs[path];
        const expanded = { ...get().expanded };
        if (path !== '/') delete expanded[path];
        set({ dirs, expanded, treeVersion: get().treeVersion + 1 });
      }
    },

    toggleDir: (path) => {
      const open = !get().expanded[path];
      set({ expanded: { ...get().expanded, [path]: open } });
      if (open && !get().dirs[path]) void get().loadDir(path);
    },

    selectPath: (selectedPath) => set({ selectedPath }),

    applyChanges: (changedSandbox, changes) => {
      if (changedSandbox !== get().currentId || get().browse) return;
      // A change at `/` (restore) means the whole tree may differ.
      if (changes.some((c) => c.path === '/')) return get().resetTree();
      const reload = new Set<string>();
      const dirs = { ...get().dirs };
      let dropped = false;
      for (const change of changes) {
        if (change.kind === 'deleted') {
          for (const key of Object.keys(dirs)) {
            if (isInside(key, change.path) && key !== '/') {
              delete dirs[key];
              dropped = true;
            }
          }
        }
        const parent = parentOf(change.path);
        if (parent in dirs || parent === '/') reload.add(parent);
        if (change.kind !== 'deleted' && change.path in dirs) reload.add(change.path);
      }
      if (dropped) set({ dirs });
      for (const path of reload) if (path in get().dirs || path === '/') void get().loadDir(path);
    },

    setBrowse: (browse) => {
      set({ browse });
      get().resetTree();
    },

    createFile: (dir, name) =>
      guard(() =>
        api().writeFile({ sandboxId: sandboxId(), path: joinPath(dir, name), base64: '' }),
      ),
    createDir: (dir, name) =>
      guard(() => api().mkdir({ sandboxId: sandboxId(), path: joinPath(dir, name) })),
    renamePath: (from, to) => guard(() => api().rename({ sandboxId: sandboxId(), from, to })),
    removePath: (path) =>
      guard(() => api().remove({ sandboxId: sandboxId(), path, recursive: true })),
  };
};
