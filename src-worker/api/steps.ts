/**
 * The steps of one sandbox: each finished command with the snapshot taken
 * after it, forming a tree (parentId is the step it continued from). Output is
 * kept as a bounded preview and lists come in pages of bounded size. The
 * timeline (issue #18) replaces this with branches, save and replay.
 */
import type { SessionKind, Step } from '../contract/api.js';
import { LIMITS } from '../contract/constants.js';
import { EngineError } from './errors.js';
import type { OutputPreview } from './outputPreview.js';

/** What a finished command tells the log. */
export interface FinishedStep {
  sessionId: string;
  sessionKind: SessionKind;
  command: string;
  status: number | null;
  startedAt: number;
  durationMs: number;
  stdout?: OutputPreview;
  stderr?: OutputPreview;
}

export interface StepPage {
  steps: Step[];
  total: number;
  nextOffset: number | null;
}

export class StepLog {
  private readonly steps: Step[] = [];
  private readonly byId = new Map<string, Step>();
  /** The step the next one continues from (moves on restore). */
  head: string | null = null;
  /** Serialises snapshot-taking so steps keep their order. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly sandboxId: string,
    private readonly takeSnapshot: () => string,
    private readonly newId: () => string,
    private readonly onStep: (step: Step) => void,
  ) {}

  /** Records a finished command as a step, with a snapshot taken now. */
  record(done: FinishedStep): Promise<Step> {
    const next = this.queue.then(() => {
      const step: Step = {
        id: this.newId(),
        parentId: this.head,
        sandboxId: this.sandboxId,
        branchId: 'main',
        kind: 'command',
        sessionId: done.sessionId,
        sessionKind: done.sessionKind,
        command: cut(done.command, LIMITS.commandChars),
        status: done.status,
        startedAt: done.startedAt,
        durationMs: done.durationMs,
        snapshotId: this.takeSnapshot(),
        snapshotReleased: false,
        changes: { added: 0, modified: 0, deleted: 0, paths: [], truncated: false },
        network: [],
        recordingBytes: 0,
      };
      if (done.stdout) {
        step.stdout = done.stdout.text();
        step.stdoutBytes = done.stdout.total;
      }
      if (done.stderr) {
        step.stderr = done.stderr.text();
        step.stderrBytes = done.stderr.total;
      }
      this.head = step.id;
      this.steps.push(step);
      this.byId.set(step.id, step);
      this.onStep(step);
      return step;
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  get(stepId: string): Step {
    const step = this.byId.get(stepId);
    if (!step)
      throw new EngineError(
        'ENOENT',
        `no step ${JSON.stringify(stepId)} in sandbox ${this.sandboxId}`,
      );
    return step;
  }

  get size(): number {
    return this.steps.length;
  }

  /**
   * Steps from `offset`, at most `limit` (capped at LIMITS.stepsPageMax), and
   * fewer when their serialised size would pass LIMITS.stepsPageChars: the
   * reply stays small whatever the steps hold. A page always holds at least one.
   */
  page(offset = 0, limit: number = LIMITS.stepsPageDefault): StepPage {
    const count = Math.min(Math.max(1, limit), LIMITS.stepsPageMax);
    const steps: Step[] = [];
    let chars = 0;
    let i = offset;
    for (; i < this.steps.length && steps.length < count; i++) {
      const step = this.steps[i] as Step;
      chars += approximateChars(step);
      if (steps.length > 0 && chars > LIMITS.stepsPageChars) break;
      steps.push(step);
    }
    return { steps, total: this.steps.length, nextOffset: i < this.steps.length ? i : null };
  }
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/** Upper bound of a step's JSON length (escapes can double a character, \u form sixfold). */
function approximateChars(step: Step): number {
  const strings = step.command.length + (step.stdout?.length ?? 0) + (step.stderr?.length ?? 0);
  return 512 + strings * 6;
}
