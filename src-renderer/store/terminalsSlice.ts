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
  /** The engine's terminal id of each tab, once its shell runs. */
  engineTerminal: Record<string, string>;
  /** Each engine terminal's shell cwd, as the engine last reported it. */
  terminalCwd: Record<string, string>;
  addTerminal(sandboxId: string): string;
  bindTerminal(key: string, terminalId: string): void;
  setTerminalCwd(terminalId: string, cwd: string): void;
  activateTerminal(sandboxId: string, key: string): void;
  removeTerminal(key: string): void;
  closeSandboxTerminals(sandboxId: string): void;
}

let nextTerminal = 1;

export const createTerminalsSlice: StateCreator<AppState, [], [], TerminalsSlice> = (set, get) => ({
  terminals: [],
  activeTerminal: {},
  engineTerminal: {},
  terminalCwd: {},
  bindTerminal: (key, terminalId) =>
    set({ engineTerminal: { ...get().engineTerminal, [key]: terminalId } }),
  setTerminalCwd: (terminalId, cwd) =>
    set({ terminalCwd: { ...get().terminalCwd, [terminalId]: cwd } }),
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
    const engineTerminal = { ...get().engineTerminal };
    const terminalCwd = { ...get().terminalCwd };
    const id = engineTerminal[key];
    delete engineTerminal[key];
    if (id !== undefined) delete terminalCwd[id];
    set({ terminals: rest, activeTerminal: active, engineTerminal, terminalCwd });
  },
  closeSandboxTerminals: (sandboxId) =>
    set({ terminals: get().terminals.filter((t) => t.sandboxId !== sandboxId) }),
});
