import { beforeEach, describe, expect, it } from 'vitest';
import type { SandglassApi, Step } from '../../src-worker/contract/api.js';
import { setApi } from './apiHandle.js';
import { useApp } from './index.js';

function step(id: string, parentId: string | null, sandboxId = 'sb1'): Step {
  return {
    id,
    parentId,
    sandboxId,
    branchId: 'b1',
    kind: 'command',
    sessionId: 't1',
    sessionKind: 'terminal',
    command: `cmd ${id}`,
    status: 0,
    startedAt: 0,
    durationMs: 1,
    snapshotId: `snap-${id}`,
    snapshotReleased: false,
    changes: { added: 0, modified: 0, deleted: 0, paths: [], truncated: false },
    network: [],
    recordingBytes: 0,
  };
}

/** An API whose methods answer from `answers`, failing for any other method. */
function fakeApi(answers: Record<string, (params: never) => unknown>): SandglassApi {
  return new Proxy({} as SandglassApi, {
    get: (_t, method: string) => (params: never) => {
      const answer = answers[method];
      return answer
        ? Promise.resolve(answer(params))
        : Promise.reject(new Error(`${method} not available`));
    },
  });
}

describe('timeline slice', () => {
  beforeEach(() => {
    useApp.setState({
      currentId: 'sb1',
      steps: {},
      heads: {},
      branches: {},
      replay: {},
      selectedStepId: null,
      compareStepId: null,
      diff: null,
      browse: null,
      toasts: [],
    });
  });

  it('lists pages of steps and keeps working when the engine has no timeline info', async () => {
    setApi(
      fakeApi({
        listSteps: (p: { offset: number }) =>
          p.offset === 0
            ? { steps: [step('a', null)], total: 2, nextOffset: 1 }
            : { steps: [step('b', 'a')], total: 2, nextOffset: null },
        readDir: () => [],
      }),
    );
    await useApp.getState().loadSteps('sb1');
    const s = useApp.getState();
    expect(s.steps.sb1?.map((x) => x.id)).toEqual(['a', 'b']);
    expect(s.heads.sb1).toBe('b');
    expect(s.replay.sb1).toBe(false);
    expect(s.branches.sb1).toEqual([]);
  });

  it('adds a step once, moves the head, and replaces it when updated', () => {
    const app = useApp.getState();
    app.addStep(step('a', null));
    app.addStep(step('a', null));
    app.addStep(step('b', 'a'));
    expect(useApp.getState().steps.sb1?.map((x) => x.id)).toEqual(['a', 'b']);
    expect(useApp.getState().heads.sb1).toBe('b');
    app.updateStep({ ...step('a', null), snapshotReleased: true });
    expect(useApp.getState().steps.sb1?.[0]?.snapshotReleased).toBe(true);
  });

  it('selecting browses the snapshot; a second pick is the comparison; none is live', () => {
    setApi(fakeApi({ readDir: () => [] }));
    const app = useApp.getState();
    app.addStep(step('a', null));
    app.addStep(step('b', 'a'));
    app.selectStep('a');
    expect(useApp.getState().browse).toEqual({ stepId: 'a', snapshotId: 'snap-a' });
    app.toggleCompareStep('b');
    expect(useApp.getState().compareStepId).toBe('b');
    app.toggleCompareStep('b');
    expect(useApp.getState().compareStepId).toBeNull();
    app.selectStep(null);
    expect(useApp.getState().browse).toBeNull();
  });

  it('asks before restoring: the diff from the head to the step, with the restore to confirm', () => {
    const app = useApp.getState();
    app.addStep(step('a', null));
    app.addStep(step('b', 'a'));
    app.askRestore('a');
    expect(useApp.getState().diff).toMatchObject({
      kind: 'pair',
      from: 'b',
      to: 'a',
      restoreStepId: 'a',
    });
  });
});
