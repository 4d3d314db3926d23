/**
 * The timeline of each sandbox as the view needs it: steps (oldest first),
 * branches, the head, whether the sandbox replays a loaded file; the step
 * selection (a second step picked with Ctrl/Cmd-click for diffs), the open
 * diff or branch comparison, live following; and the actions that go to the
 * engine: restore, fork, rename a branch, save and load timeline files.
 */
import type { StateCreator } from 'zustand';
import type { Branch, Step } from '../../src-worker/contract/api.js';
import { api } from './apiHandle.js';
import type { AppState } from './index.js';
import { describeError } from './notifySlice.js';

/** What a diff dialog shows: one step's own changes, or `from` → `to` (null: the live tree). */
export type DiffRequest = (
  { kind: 'step'; stepId: string } | { kind: 'pair'; from: string; to: string | null }
) & {
  title: string;
  /** Shown before restoring this step: the dialog offers to go on with the restore. */
  restoreStepId?: string;
};

export interface TimelineSlice {
  steps: Record<string, Step[]>;
  branches: Record<string, Branch[]>;
  heads: Record<string, string | null>;
  /** Sandboxes opened from a timeline file: read-only until a step is forked. */
  replay: Record<string, boolean>;
  selectedStepId: string | null;
  /** The other end of a comparison, picked with Ctrl/Cmd-click. */
  compareStepId: string | null;
  diff: DiffRequest | null;
  comparison: { left: string; right: string } | null;
  /** The graph keeps the head in view while this is on. */
  follow: boolean;
  loadSteps(sandboxId: string): Promise<void>;
  addStep(step: Step): void;
  updateStep(step: Step): void;
  upsertBranch(branch: Branch): void;
  setHead(sandboxId: string, stepId: string | null): void;
  selectStep(stepId: string | null): void;
  /** Ctrl/Cmd-click: marks (or unmarks) the second step of a comparison. */
  toggleCompareStep(stepId: string): void;
  openDiff(request: DiffRequest | null): void;
  openComparison(pair: { left: string; right: string } | null): void;
  setFollow(follow: boolean): void;
  /** Shows what restoring a step will change, with a confirm that restores. */
  askRestore(stepId: string): void;
  restoreStep(stepId: string): Promise<void>;
  forkSandbox(stepId: string): Promise<void>;
  renameBranch(branchId: string, name: string): Promise<void>;
}

export const createTimelineSlice: StateCreator<AppState, [], [], TimelineSlice> = (set, get) => ({
  steps: {},
  branches: {},
  heads: {},
  replay: {},
  selectedStepId: null,
  compareStepId: null,
  diff: null,
  comparison: null,
  follow: true,

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
      const ids = new Set(list.map((s) => s.id));
      // Steps that arrived as events while listing are kept.
      const merged = [...list, ...(get().steps[sandboxId] ?? []).filter((s) => !ids.has(s.id))];
      set({ steps: { ...get().steps, [sandboxId]: merged } });
      // The graph works without these (an engine may not keep branches): each is optional.
      const [info, branches] = await Promise.allSettled([
        api().getTimeline({ sandboxId }),
        api().listBranches({ sandboxId }),
      ]);
      set({
        heads: {
          ...get().heads,
          [sandboxId]:
            info.status === 'fulfilled'
              ? info.value.headStepId
              : (merged[merged.length - 1]?.id ?? null),
        },
        replay: {
          ...get().replay,
          [sandboxId]: info.status === 'fulfilled' ? info.value.replay : false,
        },
        branches: {
          ...get().branches,
          [sandboxId]: branches.status === 'fulfilled' ? branches.value : [],
        },
      });
    } catch (err) {
      // Without its timeline the sandbox is still usable live.
      if (get().replay[sandboxId] === undefined)
        set({ replay: { ...get().replay, [sandboxId]: false } });
      get().notify('error', describeError(err));
    }
  },

  addStep: (step) => {
    const list = get().steps[step.sandboxId] ?? [];
    // An event for a step the list already has (listed meanwhile, or restored): replace it.
    const i = list.findIndex((s) => s.id === step.id);
    if (i >= 0) return get().updateStep(step);
    set({
      steps: { ...get().steps, [step.sandboxId]: [...list, step] },
      heads: { ...get().heads, [step.sandboxId]: step.id },
    });
  },

  updateStep: (step) => {
    const list = get().steps[step.sandboxId] ?? [];
    const i = list.findIndex((s) => s.id === step.id);
    const next = list.slice();
    if (i >= 0) next[i] = step;
    else next.push(step);
    set({ steps: { ...get().steps, [step.sandboxId]: next } });
  },

  upsertBranch: (branch) => {
    const list = get().branches[branch.sandboxId] ?? [];
    const i = list.findIndex((b) => b.id === branch.id);
    const next = i < 0 ? [...list, branch] : list.map((b) => (b.id === branch.id ? branch : b));
    set({ branches: { ...get().branches, [branch.sandboxId]: next } });
  },

  setHead: (sandboxId, stepId) => set({ heads: { ...get().heads, [sandboxId]: stepId } }),

  selectStep: (selectedStepId) => {
    set({ selectedStepId, compareStepId: null });
    // A selected step shows its snapshot (read-only); no selection is the live sandbox.
    const sandboxId = get().currentId;
    const step = selectedStepId
      ? get().steps[sandboxId ?? '']?.find((s) => s.id === selectedStepId)
      : undefined;
    const browse = get().browse;
    if (step && !step.snapshotReleased) {
      if (browse?.stepId !== step.id)
        get().setBrowse({ stepId: step.id, snapshotId: step.snapshotId });
    } else if (browse) get().setBrowse(null);
  },

  toggleCompareStep: (stepId) => {
    const { selectedStepId, compareStepId } = get();
    if (!selectedStepId || selectedStepId === stepId) return set({ selectedStepId: stepId });
    set({ compareStepId: compareStepId === stepId ? null : stepId });
  },

  openDiff: (diff) => set({ diff }),
  openComparison: (comparison) => set({ comparison }),
  setFollow: (follow) => set({ follow }),

  askRestore: (stepId) => {
    const sandboxId = get().currentId;
    if (!sandboxId) return;
    const head = get().heads[sandboxId] ?? null;
    const step = get().steps[sandboxId]?.find((s) => s.id === stepId);
    if (!head || head === stepId) return void get().restoreStep(stepId);
    set({
      diff: {
        kind: 'pair',
        from: head,
        to: stepId,
        title: `Restoring “${step?.command ?? stepId}” changes these files`,
        restoreStepId: stepId,
      },
    });
  },

  restoreStep: async (stepId) => {
    const sandboxId = get().currentId;
    if (!sandboxId) return;
    try {
      const restore = await api().restoreStep({ sandboxId, stepId });
      get().addStep(restore);
      get().setHead(sandboxId, restore.id);
      set({ follow: true });
      // Back to the live sandbox, now at the restored state.
      if (get().browse) get().selectStep(null);
      else get().resetTree();
      get().notify('info', 'Sandbox restored; new steps start a branch from there');
    } catch (err) {
      get().notify('error', describeError(err));
    }
  },

  forkSandbox: async (stepId) => {
    const sandboxId = get().currentId;
    if (!sandboxId) return;
    try {
      const info = await api().forkSandbox({ sandboxId, stepId });
      if (!get().sandboxes.some((s) => s.id === info.id))
        set({ sandboxes: [...get().sandboxes, info] });
      await get().selectSandbox(info.id);
      get().notify('info', `Forked into ${info.name}`);
    } catch (err) {
      get().notify('error', describeError(err));
    }
  },

  renameBranch: async (branchId, name) => {
    const sandboxId = get().currentId;
    if (!sandboxId) return;
    try {
      get().upsertBranch(await api().renameBranch({ sandboxId, branchId, name }));
    } catch (err) {
      get().notify('error', describeError(err));
    }
  },
});
