/**
 * Editor tabs as state. Contents live in Monaco models (editor/documents.ts);
 * here is only what the UI shows: which tabs, what kind, dirty, conflicts.
 */
import type { StateCreator } from 'zustand';
import type { AppState } from './index.js';

export type TabKind = 'loading' | 'text' | 'binary' | 'large' | 'error';

export interface EditorTab {
  key: string;
  sandboxId: string;
  path: string;
  snapshotId: string | null;
  kind: TabKind;
  dirty: boolean;
  /** The file changed underneath while the tab had unsaved edits. */
  conflict: boolean;
  readOnly: boolean;
  size: number;
  message: string | null;
}

export function tabKey(sandboxId: string, path: string, snapshotId: string | null): string {
  return `${sandboxId}:${snapshotId ?? 'live'}:${path}`;
}

export interface EditorSlice {
  tabs: EditorTab[];
  activeTab: string | null;
  upsertTab(tab: EditorTab): void;
  patchTab(key: string, patch: Partial<EditorTab>): void;
  activateTab(key: string | null): void;
  removeTab(key: string): void;
  closeSandboxTabs(sandboxId: string): void;
}

export const createEditorSlice: StateCreator<AppState, [], [], EditorSlice> = (set, get) => ({
  tabs: [],
  activeTab: null,
  upsertTab: (tab) => {
    const exists = get().tabs.some((t) => t.key === tab.key);
    set({
      tabs: exists ? get().tabs.map((t) => (t.key === tab.key ? tab : t)) : [...get().tabs, tab],
      activeTab: tab.key,
    });
  },
  patchTab: (key, patch) =>
    set({ tabs: get().tabs.map((t) => (t.key === key ? { ...t, ...patch } : t)) }),
  activateTab: (activeTab) => set({ activeTab }),
  removeTab: (key) => {
    const tabs = get().tabs;
    const index = tabs.findIndex((t) => t.key === key);
    const rest = tabs.filter((t) => t.key !== key);
    const active =
      get().activeTab === key
        ? (rest[Math.min(index, rest.length - 1)]?.key ?? null)
        : get().activeTab;
    set({ tabs: rest, activeTab: active });
  },
  closeSandboxTabs: (sandboxId) =>
    set({ tabs: get().tabs.filter((t) => t.sandboxId !== sandboxId) }),
});
