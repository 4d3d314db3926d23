/** Pane sizes (remembered in localStorage) and the UI overlays' open state. */
import type { StateCreator } from 'zustand';
import type { AppState } from './index.js';

export interface PaneSizes {
  /** Width of the file tree in px. */
  left: number;
  /** Width of the steps panel in px. */
  right: number;
  /** Share of the center column taken by the editor (0..1). */
  editorFraction: number;
}

export const DEFAULT_PANES: PaneSizes = { left: 280, right: 320, editorFraction: 0.55 };
const STORAGE_KEY = 'sandglass.layout.v1';

export function loadPanes(storage: Pick<Storage, 'getItem'> | null): PaneSizes {
  try {
    const raw = storage?.getItem(STORAGE_KEY);
    if (!raw) return DEFAULT_PANES;
    const parsed = JSON.parse(raw) as Partial<PaneSizes>;
    const num = (v: unknown, min: number, max: number, d: number) =>
      typeof v === 'number' && Number.isFinite(v) ? Math.min(max, Math.max(min, v)) : d;
    return {
      left: num(parsed.left, 140, 900, DEFAULT_PANES.left),
      right: num(parsed.right, 180, 900, DEFAULT_PANES.right),
      editorFraction: num(parsed.editorFraction, 0.1, 0.9, DEFAULT_PANES.editorFraction),
    };
  } catch {
    return DEFAULT_PANES;
  }
}

export function savePanes(storage: Pick<Storage, 'setItem'> | null, panes: PaneSizes): void {
  try {
    storage?.setItem(STORAGE_KEY, JSON.stringify(panes));
  } catch {
    // Storage full or disabled: sizes just aren't remembered.
  }
}

/** A modal text input (Electron has no window.prompt). */
export interface TextDialog {
  /** Distinguishes successive questions (the form remounts per question). */
  id: number;
  title: string;
  value: string;
  resolve(value: string | null): void;
}

export interface LayoutSlice {
  panes: PaneSizes;
  textDialog: TextDialog | null;
  /** Asks the user for a line of text; resolves to null when cancelled. */
  askText(title: string, value?: string): Promise<string | null>;
  helpOpen: boolean;
  settingsOpen: boolean;
  setPanes(update: Partial<PaneSizes>): void;
  setHelpOpen(open: boolean): void;
  setSettingsOpen(open: boolean): void;
}

let nextDialog = 1;
const storage = typeof localStorage === 'undefined' ? null : localStorage;

export const createLayoutSlice: StateCreator<AppState, [], [], LayoutSlice> = (set, get) => ({
  panes: loadPanes(storage),
  textDialog: null,
  askText: (title, value = '') =>
    new Promise((resolve) => {
      get().textDialog?.resolve(null);
      set({
        textDialog: {
          id: nextDialog++,
          title,
          value,
          resolve: (answer) => {
            set({ textDialog: null });
            resolve(answer);
          },
        },
      });
    }),
  helpOpen: false,
  settingsOpen: false,
  setPanes: (update) => {
    const panes = { ...get().panes, ...update };
    set({ panes });
    savePanes(storage, panes);
  },
  setHelpOpen: (helpOpen) => set({ helpOpen }),
  setSettingsOpen: (settingsOpen) => set({ settingsOpen }),
});
