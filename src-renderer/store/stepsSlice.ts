/** Steps of each sandbox (a tree by parentId), the selection and restore. */
import type { StateCreator } from 'zustand';
import type { Step } from '../../src-worker/contract/api.js';
import { api } from './apiHandle.js';
import type { AppState } from './index.js';
import { describeError } from './notifySlice.js';

export interface StepsSlice {
  steps: Record<string, Step[]>;
  heads: Record<string, string | null>;
  selectedStepId: string | null;
  loadSteps(sandboxId: string): Promise<void>;
  addStep(step: Step): void;
  setHead(sandboxId: string, stepId: string): void;
  selectStep(stepId: string | null): void;
  restoreStep(stepId: string): Promise<void>;
}

export const createStepsSlice: StateCreator<AppState, [], [], StepsSlice> = (set, get) => ({
  steps: {},
  heads: {},
  selectedStepId: null,

  loadSteps: async (sandboxId) => {
    try {
      // Pages are bounded in size by the engine; read them all.
      const list: Step[] = [];
      let offset: number | null = 0;
      while (offset !== null) {
        const page = await api().listSteps({ sandboxId, offset });
        list.push(...page.steps);
        offset = page.nextOffset;
      }
      const known = get().steps[sandboxId] ?? [];
      // Steps that arrived as events while listing are kept.
      const merged = [...list, ...known.filter((s) => !list.some((l) => l.id === s.id))];
      const last = merged[merged.length - 1];
      set({
        steps: { ...get().steps, [sandboxId]: merged },
        heads: { ...get().heads, [sandboxId]: get().heads[sandboxId] ?? last?.id ?? null },
      });
    } catch (err) {
      get().notify('error', describeError(err));
    }
  },

  addStep: (step) => {
    const list = get().steps[step.sandboxId] ?? [];
    if (list.some((s) => s.id === step.id)) return;
    set({
      steps: { ...get().steps, [step.sandboxId]: [...list, step] },
      heads: { ...get().heads, [step.sandboxId]: step.id },
    });
  },

  setHead: (sandboxId, stepId) => set({ heads: { ...get().heads, [sandboxId]: stepId } }),

  selectStep: (selectedStepId) => set({ selectedStepId }),

  restoreStep: async (stepId) => {
    const sandboxId = get().currentId;
    if (!sandboxId) return;
    try {
      await api().restoreStep({ sandboxId, stepId });
      get().setHead(sandboxId, stepId);
      if (get().browse) get().setBrowse(null);
      else get().resetTree();
      get().notify('info', 'Sandbox restored to the selected step');
    } catch (err) {
      get().notify('error', describeError(err));
    }
  },
});
