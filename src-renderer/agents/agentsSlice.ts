/**
 * Connected clients for the Agents view: the list the engine reports (the
 * `clients` event, or `listClients`), whether the view is open, and what a
 * person can do to an agent: pause, resume, stop, fork its sandbox.
 */
import type { StateCreator } from 'zustand';
import type { ClientInfo } from '../../src-worker/contract/api.js';
import { api } from '../store/apiHandle.js';
import type { AppState } from '../store/index.js';
import { describeError } from '../store/notifySlice.js';

export interface AgentsSlice {
  clients: ClientInfo[];
  agentsOpen: boolean;
  setClients(clients: ClientInfo[]): void;
  setAgentsOpen(open: boolean): void;
  loadClients(): Promise<void>;
  pauseAgent(clientId: string): Promise<void>;
  resumeAgent(clientId: string): Promise<void>;
  stopAgent(clientId: string): Promise<void>;
  /** Forks a sandbox from its latest step and shows the fork. */
  forkAgentSandbox(sandboxId: string): Promise<void>;
}

export const createAgentsSlice: StateCreator<AppState, [], [], AgentsSlice> = (set, get) => {
  /** Runs an action against the engine, turning a failure into a toast. */
  const act = async (action: () => Promise<unknown>): Promise<void> => {
    try {
      await action();
    } catch (err) {
      get().notify('error', describeError(err));
    }
  };
  return {
    clients: [],
    agentsOpen: false,
    setClients: (clients) => set({ clients }),
    setAgentsOpen: (agentsOpen) => {
      set({ agentsOpen });
      if (agentsOpen) void get().loadClients();
    },
    loadClients: () => act(async () => set({ clients: await api().listClients({}) })),
    pauseAgent: (clientId) => act(() => api().pauseClient({ clientId })),
    resumeAgent: (clientId) => act(() => api().resumeClient({ clientId })),
    stopAgent: (clientId) => act(() => api().disconnectClient({ clientId })),
    forkAgentSandbox: (sandboxId) =>
      act(async () => {
        const { headStepId } = await api().getTimeline({ sandboxId });
        if (headStepId === null) {
          get().notify('info', 'This sandbox has no step yet to fork from.');
          return;
        }
        const source = get().sandboxes.find((s) => s.id === sandboxId);
        const info = await api().forkSandbox({
          sandboxId,
          stepId: headStepId,
          name: `${source?.name ?? sandboxId} (fork)`,
        });
        if (!get().sandboxes.some((s) => s.id === info.id))
          set({ sandboxes: [...get().sandboxes, info] });
        await get().selectSandbox(info.id);
        get().setAgentsOpen(false);
      }),
  };
};

/** The agents among the clients, most recent first. */
export function agentsOf(clients: readonly ClientInfo[]): ClientInfo[] {
  return clients.filter((c) => c.role === 'agent').sort((a, b) => b.since - a.since);
}

/** "just now", "5 s ago", "3 min ago", "2 h ago". */
export function connectedFor(since: number, now: number): string {
  const s = Math.max(0, Math.round((now - since) / 1000));
  if (s < 2) return 'just now';
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  return `${Math.floor(s / 3600)} h ago`;
}
