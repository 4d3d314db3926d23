/** Sandboxes: the list, the current one, live stats, and lifecycle actions. */
import type { StateCreator } from 'zustand';
import type { SandboxInfo, SandboxSettings, SandboxStats } from '../../src-worker/contract/api.js';
import { api } from './apiHandle.js';
import type { AppState } from './index.js';
import { describeError } from './notifySlice.js';

/** The sandbox user's home (HOME in every session). */
export const HOME = '/home/user';

export interface SandboxSlice {
  sandboxes: SandboxInfo[];
  currentId: string | null;
  stats: Record<string, SandboxStats>;
  setSandboxes(list: SandboxInfo[]): void;
  setStats(sandboxId: string, stats: SandboxStats): void;
  selectSandbox(id: string): Promise<void>;
  createSandbox(name: string): Promise<void>;
  renameSandbox(id: string, name: string): Promise<void>;
  destroySandbox(id: string): Promise<void>;
  updateSettings(id: string, settings: SandboxSettings): Promise<boolean>;
}

export const createSandboxSlice: StateCreator<AppState, [], [], SandboxSlice> = (set, get) => ({
  sandboxes: [],
  currentId: null,
  stats: {},

  setSandboxes: (sandboxes) => {
    set({ sandboxes });
    const current = get().currentId;
    if (current && !sandboxes.some((s) => s.id === current)) {
      const next = sandboxes[0];
      set({ currentId: null });
      if (next) void get().selectSandbox(next.id);
    }
  },

  setStats: (sandboxId, stats) => set({ stats: { ...get().stats, [sandboxId]: stats } }),

  selectSandbox: async (id) => {
    if (get().currentId === id) return;
    set({
      currentId: id,
      browse: null,
      selectedPath: null,
      selectedStepId: null,
      compareStepId: null,
      diff: null,
      comparison: null,
      follow: true,
      // The live tree opens at the shell's home, where commands start.
      expanded: { '/': true, '/home': true, [HOME]: true },
    });
    // The terminal opens once it is known whether the sandbox replays a recording:
    // asked first, so it does not wait behind the tree's listings and the steps.
    if (get().replay[id] === undefined)
      void api()
        .getTimeline({ sandboxId: id })
        .then((info) => {
          if (get().replay[id] === undefined)
            set({ replay: { ...get().replay, [id]: info.replay } });
        })
        .catch(() => undefined);
    get().resetTree();
    try {
      // Events of a sandbox come once the workbench shows it (and keep coming: its
      // terminals, tabs and steps stay open while others are shown).
      await api().subscribe({ sandboxId: id });
    } catch (err) {
      get().notify('error', describeError(err));
    }
    await get().loadSteps(id);
    try {
      get().setStats(id, await api().stats({ sandboxId: id }));
    } catch {
      // Stats come again with the next change event.
    }
  },

  createSandbox: async (name) => {
    try {
      const info = await api().createSandbox({ name });
      if (!get().sandboxes.some((s) => s.id === info.id))
        set({ sandboxes: [...get().sandboxes, info] });
      await get().selectSandbox(info.id);
    } catch (err) {
      get().notify('error', describeError(err));
    }
  },

  renameSandbox: async (id, name) => {
    try {
      await api().renameSandbox({ sandboxId: id, name });
    } catch (err) {
      get().notify('error', describeError(err));
    }
  },

  destroySandbox: async (id) => {
    try {
      await api().destroySandbox({ sandboxId: id });
      get().closeSandboxTabs(id);
      get().closeSandboxTerminals(id);
    } catch (err) {
      get().notify('error', describeError(err));
    }
  },

  updateSettings: async (id, settings) => {
    try {
      await api().updateSettings({ sandboxId: id, settings });
      return true;
    } catch (err) {
      get().notify('error', describeError(err));
      return false;
    }
  },
});
