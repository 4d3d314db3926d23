/** Terminal tabs (per sandbox). Terminal bytes never pass through the store. */
import type { StateCreator } from 'zustand';
import type { AppState } from './index.js';

export interface TerminalTab {
  key: string;
  sandboxId: string;
  title: string;
}

export interface TerminalsSlice {
  terminals: TerminalTab[];
  activeTerminal: Record<string, string>;
  addTerminal(sandboxId: string): string;
  activateTerminal(sandboxId: string, key: string): void;
  removeTerminal(key: string): void;
  closeSandboxTerminals(sandboxId: string): void;
}

let nextTerminal = 1;

export const createTerminalsSlice: StateCreator<AppState, [], [], TerminalsSlice> = (set, get) => ({
  terminals: [],
  activeTerminal: {},
  addTerminal: (sandboxId) => {
    const n = nextTerminal++;
    const key = `t${n}`;
    const count = get().terminals.filter((t) => t.sandboxId === sandboxId).length + 1;
    set({
      terminals: [...get().terminals, { key, sandboxId, title: `bash ${count}` }],
      activeTerminal: { ...get().activeTerminal, [sandboxId]: key },
    });
    return key;
  },
  activateTerminal: (sandboxId, key) =>
    set({ activeTerminal: { ...get().activeTerminal, [sandboxId]: key } }),
  removeTerminal: (key) => {
    const tab = get().terminals.find((t) => t.key === key);
    const rest = get().terminals.filter((t) => t.key !== key);
    const active = { ...get().activeTerminal };
    if (tab && active[tab.sandboxId] === key) {
      const next = rest.filter((t) => t.sandboxId === tab.sandboxId).pop();
      if (next) active[tab.sandboxId] = next.key;
      else delete active[tab.sandboxId];
    }
    set({ terminals: rest, activeTerminal: active });
  },
  closeSandboxTerminals: (sandboxId) =>
    set({ terminals: get().terminals.filter((t) => t.sandboxId !== sandboxId) }),
});
