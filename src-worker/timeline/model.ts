/**
 * The timeline of one sandbox: every step with the whole-sandbox snapshot
 * after it (VFS snapshot + shell session states + terminal recording), in a
 * graph of branches. Restoring never destroys: the sandbox goes back to a
 * step, a restore step records it, and what follows grows from there (a new
 * branch when the step was not a branch tip). Retained snapshots are charged
 * by distinct bytes against a budget; past it, the oldest snapshots off the
 * head's path go first (then the oldest on it, never the head's), and their
 * steps stay listed, marked `snapshotReleased`.
 */
import type {
  Branch,
  ForkOrigin,
  NetworkRecord,
  RecordingFrame,
  SessionKind,
  Step,
  StepKind,
  StepRecording,
  TimelineInfo,
} from '../contract/api.js';
import { LIMITS } from '../contract/constants.js';
import type { SnapshotId } from '../vfs/index.js';
import { NO_CHANGES, pathChanges, summarize, type PathChange } from './changes.js';
import type { SessionStateSource, SnapshotStore } from './host.js';
import { BlockLedger, type Owned } from './ledger.js';

/** A step-level error with an errno-style code (the engine passes it on as is). */
export class TimelineError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'TimelineError';
  }
}

/** Terminal output of a step as recorded. */
export interface Recording {
  frames: RecordingFrame[];
  truncated: boolean;
  screen: string;
}

/** What a finished unit of work tells the timeline. */
export interface FinishedStep {
  kind?: StepKind;
  sessionId: string;
  sessionKind: SessionKind;
  command: string;
  status: number | null;
  startedAt: number;
  durationMs: number;
  stdout?: { text(): string; total: number };
  stderr?: { text(): string; total: number };
  recording?: RecordingFrame[];
  recordingTruncated?: boolean;
  screen?: string;
  /** For a restore step: the step restored. */
  restoredFrom?: string;
  /** For the root step of a forked sandbox: where it was forked from. */
  origin?: ForkOrigin;
  /** Session states to keep (default: the sandbox's live sessions'). */
  sessions?: ReadonlyMap<string, Uint8Array>;
}

/** Notifications the engine turns into events. */
export interface TimelineEvents {
  step(step: Step): void;
  stepUpdated(step: Step): void;
  branch(branch: Branch): void;
  head(stepId: string | null, branchId: string): void;
}

export interface TimelineOptions {
  sandboxId: string;
  store: SnapshotStore;
  sessions: SessionStateSource;
  newStepId: () => string;
  newBranchId: () => string;
  /** Bytes retained snapshots may hold (read at each step: settings can change). */
  budgetBytes: () => number;
  /** Network requests (and decisions) of the command a new step records, claimed for it. */
  networkOf?: (stepId: string) => NetworkRecord[];
  events?: Partial<TimelineEvents>;
}

interface StepRecord {
  readonly step: Step;
  snapshot: SnapshotId | null;
  sessions: ReadonlyMap<string, Uint8Array>;
  recording: Recording | null;
  readonly children: string[];
  /** Blocks this step is charged for in the ledger. */
  readonly owned: Owned;
  /** Serialised length of `step` (pages stay under a size). */
  chars: number;
}

interface BranchRecord {
  readonly branch: Branch;
  readonly stepIds: string[];
}

/** A step ready to be added (recorded live, or loaded from a file). */
export interface StepInput {
  step: Omit<Step, 'id' | 'parentId' | 'branchId' | 'sandboxId' | 'snapshotReleased'>;
  /** null: a step loaded without its tree (released before the save). */
  snapshot: SnapshotId | null;
  sessions: ReadonlyMap<string, Uint8Array>;
  recording: Recording | null;
  /** Path changes against the parent (for the ledger and the summary). */
  changes: readonly PathChange[];
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

export class Timeline {
  private readonly records = new Map<string, StepRecord>();
  private readonly order: string[] = [];
  private readonly branchList: BranchRecord[] = [];
  private readonly branchById = new Map<string, BranchRecord>();
  /** Step ids whose snapshot is still held, oldest first. */
  private readonly retained: string[] = [];
  private readonly ledger = new BlockLedger();
  /** Snapshot ids of released steps, to name the step when one is asked for. */
  private readonly releasedSnapshots = new Map<string, string>();
  /** Branches of a file being loaded, by the file's ids. */
  private readonly loaded = new Map<string, BranchRecord>();
  /** What the origin snapshot (before any step) is charged. */
  private originBytes: number;
  private originId: SnapshotId;
  private headId: string | null = null;
  private readonly stepListeners = new Set<(step: Step) => void>();
  private readonly originListeners = new Set<() => void>();
  /** Set while loading a file: snapshots are released only once it is built. */
  deferBudget = false;
  private branchId: string;
  private queue: Promise<unknown> = Promise.resolve();
  private disposed = false;

  constructor(private readonly options: TimelineOptions) {
    this.originId = options.store.take();
    this.originBytes = options.store.liveBytes();
    this.branchId = this.newBranch('main', null).branch.id;
  }

  /** The sandbox's state before its first step (what step changes start from). */
  get origin(): SnapshotId {
    return this.originId;
  }

  /**
   * Makes the live tree the origin, before any step is recorded: what a new
   * sandbox was given (a host import) is where its history starts, not the
   * first command's changes. Diffing thousands of imported files against an
   * empty origin was most of a `sandglass run --import`'s cost. In order
   * with `record`; resolves false (and changes nothing) once a step exists.
   */
  rebaseOrigin(): Promise<boolean> {
    const next = this.queue.then(() => {
      if (this.disposed || this.order.length > 0) return false;
      const { store } = this.options;
      const previous = this.originId;
      this.originId = store.take();
      this.originBytes = store.liveBytes();
      store.drop(previous);
      for (const listener of this.originListeners) listener();
      return true;
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Calls `listener` after each `rebaseOrigin`; returns the unsubscribe. */
  onOrigin(listener: () => void): () => void {
    this.originListeners.add(listener);
    return () => this.originListeners.delete(listener);
  }

  get sandboxId(): string {
    return this.options.sandboxId;
  }

  get head(): string | null {
    return this.headId;
  }

  get size(): number {
    return this.order.length;
  }

  /** Bytes of distinct content the origin and retained snapshots hold. */
  get retainedBytes(): number {
    return this.originBytes + this.ledger.bytes;
  }

  private emit<K extends keyof TimelineEvents>(
    kind: K,
    ...args: Parameters<TimelineEvents[K]>
  ): void {
    const fn = this.options.events?.[kind] as
      ((...a: Parameters<TimelineEvents[K]>) => void) | undefined;
    fn?.(...args);
  }

  private newBranch(name: string, forkedFrom: string | null): BranchRecord {
    const record: BranchRecord = {
      branch: {
        id: this.options.newBranchId(),
        sandboxId: this.options.sandboxId,
        name,
        forkedFrom,
        headStepId: null,
        stepCount: 0,
        createdAt: Date.now(),
      },
      stepIds: [],
    };
    this.branchList.push(record);
    this.branchById.set(record.branch.id, record);
    return record;
  }

  private defaultBranchName(): string {
    const taken = new Set(this.branchList.map((b) => b.branch.name));
    let n = this.branchList.length + 1;
    while (taken.has(`branch-${n}`)) n++;
    return `branch-${n}`;
  }

  private rec(stepId: string): StepRecord {
    const r = this.records.get(stepId);
    if (!r)
      throw new TimelineError(
        'ENOENT',
        `no step ${JSON.stringify(stepId)} in sandbox ${this.options.sandboxId}`,
      );
    return r;
  }

  get(stepId: string): Step {
    return this.rec(stepId).step;
  }

  has(stepId: string): boolean {
    return this.records.has(stepId);
  }

  /** Snapshot of a step; a clear error when it was released. */
  snapshotOf(stepId: string): SnapshotId {
    const r = this.rec(stepId);
    if (r.snapshot === null)
      throw new TimelineError(
        'ESNAPRELEASED',
        `step ${stepId}'s snapshot was released to keep the sandbox within its memory budget; ` +
          'its record stays, but it cannot be restored, forked, browsed or diffed',
      );
    return r.snapshot;
  }

  /** Refuses a snapshot id of a released step, with the reason. */
  checkSnapshotId(snapshotId: string): void {
    const stepId = this.releasedSnapshots.get(snapshotId);
    if (stepId !== undefined) this.snapshotOf(stepId);
  }

  /** The snapshot a step's changes are measured from (its parent's, or the origin). */
  private parentSnapshot(parentId: string | null): SnapshotId {
    return parentId === null ? this.origin : this.snapshotOf(parentId);
  }

  sessionsOf(stepId: string): ReadonlyMap<string, Uint8Array> {
    return this.rec(stepId).sessions;
  }

  recordingOf(stepId: string): StepRecording {
    const r = this.rec(stepId);
    return {
      stepId,
      frames: r.recording?.frames ?? [],
      truncated: r.recording?.truncated ?? false,
      screen: r.recording?.screen ?? '',
    };
  }

  parentOf(stepId: string): string | null {
    return this.rec(stepId).step.parentId;
  }

  childrenOf(stepId: string): readonly string[] {
    return this.rec(stepId).children;
  }

  /** Calls `listener` with each new step, right after its snapshot is taken; returns the unsubscribe. */
  onStep(listener: (step: Step) => void): () => void {
    this.stepListeners.add(listener);
    return () => this.stepListeners.delete(listener);
  }

  /** Every step with what its snapshot holds, oldest first (what a save writes). */
  saved(): Array<{
    step: Step;
    snapshot: SnapshotId | null;
    sessions: ReadonlyMap<string, Uint8Array>;
    recording: Recording | null;
  }> {
    return this.order.map((id) => {
      const r = this.rec(id);
      return { step: r.step, snapshot: r.snapshot, sessions: r.sessions, recording: r.recording };
    });
  }

  /** The branch the next step goes on (unless the head is not its tip). */
  get currentBranch(): string {
    return this.branchId;
  }

  /** Every step, oldest first. */
  steps(): Step[] {
    return this.order.map((id) => this.rec(id).step);
  }

  /**
   * Records a finished unit of work with a snapshot taken now. Calls are
   * serialised so steps keep their order.
   */
  record(done: FinishedStep): Promise<Step> {
    const next = this.queue.then(() => this.addNow(done));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private addNow(done: FinishedStep): Step {
    if (this.disposed) throw new TimelineError('ESHUTDOWN', 'the timeline is closed');
    const { store } = this.options;
    const from = this.parentSnapshot(this.headId);
    const snapshot = store.take();
    let changes: PathChange[];
    try {
      changes = pathChanges(store.diff(from, snapshot));
    } catch (err) {
      store.drop(snapshot);
      throw err;
    }
    const step: StepInput['step'] = {
      kind: done.kind ?? 'command',
      sessionId: done.sessionId,
      sessionKind: done.sessionKind,
      command: cut(done.command, LIMITS.commandChars),
      status: done.status,
      startedAt: done.startedAt,
      durationMs: done.durationMs,
      snapshotId: String(snapshot),
      changes: NO_CHANGES,
      network: [],
      recordingBytes: 0,
    };
    if (done.restoredFrom !== undefined) step.restoredFrom = done.restoredFrom;
    if (done.origin !== undefined) step.origin = { ...done.origin };
    if (done.stdout) {
      step.stdout = done.stdout.text();
      step.stdoutBytes = done.stdout.total;
    }
    if (done.stderr) {
      step.stderr = done.stderr.text();
      step.stderrBytes = done.stderr.total;
    }
    const recording =
      done.recording !== undefined || done.screen !== undefined
        ? {
            frames: done.recording ?? [],
            truncated: done.recordingTruncated ?? false,
            screen: done.screen ?? '',
          }
        : null;
    return this.append({
      step,
      snapshot,
      sessions: new Map(done.sessions ?? this.options.sessions.sessionStates()),
      recording,
      changes,
    });
  }

  /**
   * Adds a step after the head, on the current branch when the head is its
   * tip, else on a new branch growing from the head.
   */
  private append(input: StepInput): Step {
    const parentId = this.headId;
    let branch = this.branchById.get(this.branchId) as BranchRecord;
    if (branch.branch.headStepId !== parentId)
      branch = this.newBranch(this.defaultBranchName(), parentId);
    const id = this.options.newStepId();
    const step: Step = {
      ...input.step,
      id,
      parentId,
      sandboxId: this.options.sandboxId,
      branchId: branch.branch.id,
      snapshotReleased: input.snapshot === null,
      changes: summarize(input.changes),
    };
    const owned: Owned = new Map();
    const record: StepRecord = {
      step,
      snapshot: input.snapshot,
      sessions: input.sessions,
      recording: input.recording,
      children: [],
      owned,
      chars: 0,
    };
    this.charge(record, input.changes);
    step.recordingBytes = recordingBytes(input.recording);
    for (const rec of this.options.networkOf?.(id) ?? []) this.pushNetwork(step, rec);
    record.chars = JSON.stringify(step).length;
    this.records.set(id, record);
    this.order.push(id);
    if (input.snapshot !== null) this.retained.push(id);
    if (parentId !== null) this.rec(parentId).children.push(id);
    branch.stepIds.push(id);
    branch.branch.headStepId = id;
    branch.branch.stepCount++;
    this.headId = id;
    this.branchId = branch.branch.id;
    this.emit('step', step);
    for (const listener of this.stepListeners) listener(step);
    this.emit('branch', branch.branch);
    this.emit('head', id, branch.branch.id);
    this.enforceBudget();
    return step;
  }

  /**
   * Adds a step of a loaded file after `parentId`, on the branch the file
   * calls `branchKey` (made on first use, named `branchName`; the first one
   * takes over the empty initial branch).
   */
  loadStep(input: StepInput, parentId: string | null, branchKey: string, branchName: string): Step {
    let branch = this.loaded.get(branchKey);
    if (!branch) {
      const first = this.branchList[0];
      branch =
        this.loaded.size === 0 && first && first.stepIds.length === 0
          ? first
          : this.newBranch(branchName, parentId);
      branch.branch.name = branchName;
      branch.branch.forkedFrom = parentId;
      this.loaded.set(branchKey, branch);
    }
    this.headId = parentId;
    this.branchId = branch.branch.id;
    // Grow this branch even when the parent is not its tip (a file may list branches so).
    branch.branch.headStepId = parentId;
    return this.append(input);
  }

  /** Puts the head where a loaded file had it. */
  loadHead(stepId: string | null, branchKey: string): void {
    const branch = this.loaded.get(branchKey);
    this.headId = stepId;
    if (branch) this.branchId = branch.branch.id;
    this.emit('head', stepId, this.branchId);
  }

  /** Blocks a new step introduced: file chunks its parent did not have, its session states, its recording. */
  private charge(record: StepRecord, changes: readonly PathChange[]): void {
    for (const c of changes) {
      const after = c.after?.contents;
      if (!after) continue;
      const before = new Set<object>();
      c.before?.contents?.forEachBlock((b) => before.add(b));
      after.forEachBlock((block, bytes) => {
        if (!before.has(block)) this.ledger.charge(record.owned, block, bytes);
      });
    }
    for (const blob of record.sessions.values())
      this.ledger.charge(record.owned, blob, blob.byteLength);
    if (record.recording)
      this.ledger.charge(record.owned, record.recording, recordingBytes(record.recording));
  }

  /**
   * Moves the head to `stepId` (files and shell sessions back as they were
   * after it) and records a restore step. The sandbox must be idle.
   */
  async restore(stepId: string): Promise<Step> {
    const next = this.queue.then(async () => {
      const target = this.rec(stepId);
      const snapshot = this.snapshotOf(stepId);
      this.options.store.restore(snapshot);
      await this.options.sessions.restoreSessionStates(target.sessions);
      this.headId = stepId;
      this.branchId = target.step.branchId;
      this.emit('head', stepId, this.branchId);
      const startedAt = Date.now();
      return this.addNow({
        kind: 'restore',
        sessionId: 'timeline',
        sessionKind: 'restore',
        command: `restore ${stepId}`,
        status: 0,
        startedAt,
        durationMs: 0,
        restoredFrom: stepId,
      });
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Diff of two steps' snapshots (`to` undefined: the live tree), as path changes. */
  diff(fromStepId: string, toStepId?: string): PathChange[] {
    const from = this.snapshotOf(fromStepId);
    const to = toStepId === undefined ? undefined : this.snapshotOf(toStepId);
    return pathChanges(this.options.store.diff(from, to));
  }

  /** What a step changed against its parent (or the origin). */
  stepChanges(stepId: string): PathChange[] {
    const r = this.rec(stepId);
    const from = this.parentSnapshot(r.step.parentId);
    return pathChanges(this.options.store.diff(from, this.snapshotOf(stepId)));
  }

  /** A regular file's bytes after a step (undefined: the live tree); null when absent or not a file. */
  fileAt(stepId: string | undefined, path: string): Uint8Array | null {
    const at = stepId === undefined ? undefined : this.snapshotOf(stepId);
    return this.options.store.readFile(at, path);
  }

  /** A network request (or hop) and its decision, raised by a step after it was recorded. */
  addNetworkRecord(stepId: string, rec: NetworkRecord): void {
    const r = this.records.get(stepId);
    if (!r || !this.pushNetwork(r.step, rec)) return;
    r.chars = JSON.stringify(r.step).length;
    this.emit('stepUpdated', r.step);
  }

  /** Adds a record to a step's list, bounded; false when the list is full. */
  private pushNetwork(step: Step, rec: NetworkRecord): boolean {
    if (step.network.length >= LIMITS.stepNetworkRecords) return false;
    step.network.push({ ...rec, url: cut(rec.url, 2048) });
    return true;
  }

  /**
   * Steps from `offset` (of one branch when given), at most `limit` (capped
   * at LIMITS.stepsPageMax), and fewer when their JSON would pass
   * LIMITS.stepsPageChars. A page always holds at least one step.
   */
  page(
    offset = 0,
    limit: number = LIMITS.stepsPageDefault,
    branchId?: string,
  ): { steps: Step[]; total: number; nextOffset: number | null } {
    let ids: readonly string[] = this.order;
    if (branchId !== undefined) {
      const b = this.branchById.get(branchId);
      if (!b) throw new TimelineError('ENOENT', `no branch ${JSON.stringify(branchId)}`);
      ids = b.stepIds;
    }
    const count = Math.min(Math.max(1, limit), LIMITS.stepsPageMax);
    const steps: Step[] = [];
    let chars = 0;
    let i = offset;
    for (; i < ids.length && steps.length < count; i++) {
      const r = this.rec(ids[i] as string);
      chars += r.chars;
      if (steps.length > 0 && chars > LIMITS.stepsPageChars) break;
      steps.push(r.step);
    }
    return { steps, total: ids.length, nextOffset: i < ids.length ? i : null };
  }

  branches(): Branch[] {
    return this.branchList.map((b) => b.branch);
  }

  branch(branchId: string): Branch {
    const b = this.branchById.get(branchId);
    if (!b) throw new TimelineError('ENOENT', `no branch ${JSON.stringify(branchId)}`);
    return b.branch;
  }

  renameBranch(branchId: string, name: string): Branch {
    const b = this.branch(branchId);
    const trimmed = name.trim();
    if (trimmed === '') throw new TimelineError('EINVAL', 'a branch name must not be empty');
    if (trimmed.length > 100)
      throw new TimelineError('EINVAL', 'a branch name has at most 100 characters');
    if (this.branchList.some((o) => o.branch.id !== branchId && o.branch.name === trimmed))
      throw new TimelineError('EEXIST', `a branch is already named ${JSON.stringify(trimmed)}`);
    b.name = trimmed;
    this.emit('branch', b);
    return b;
  }

  info(replay: boolean): TimelineInfo {
    return {
      sandboxId: this.options.sandboxId,
      headStepId: this.headId,
      branchId: this.branchId,
      stepCount: this.order.length,
      branchCount: this.branchList.length,
      replay,
      retainedBytes: this.retainedBytes,
      budgetBytes: this.options.budgetBytes(),
    };
  }

  /** The head's path back to the first step. */
  private headPath(): Set<string> {
    const path = new Set<string>();
    for (let id = this.headId; id !== null; id = this.rec(id).step.parentId) path.add(id);
    return path;
  }

  /** Releases the oldest snapshots (off the head's path first) until within budget. */
  enforceBudget(): void {
    const budget = this.options.budgetBytes();
    if (this.deferBudget || !(budget > 0) || this.retainedBytes <= budget) return;
    const onPath = this.headPath();
    for (const pass of [false, true]) {
      for (let i = 0; i < this.retained.length && this.retainedBytes > budget;) {
        const id = this.retained[i] as string;
        if (id === this.headId || onPath.has(id) !== pass) {
          i++;
          continue;
        }
        this.release(id);
      }
    }
  }

  /** Drops a step's snapshot; the blocks its children still hold pass to them. */
  release(stepId: string): void {
    const r = this.rec(stepId);
    if (r.snapshot === null) return;
    for (const childId of r.children) this.passOn(r, childId);
    this.ledger.discharge(r.owned);
    this.options.store.drop(r.snapshot);
    r.snapshot = null;
    this.releasedSnapshots.set(r.step.snapshotId, stepId);
    r.sessions = new Map();
    r.recording = null;
    r.step.snapshotReleased = true;
    r.step.recordingBytes = 0;
    r.chars = JSON.stringify(r.step).length;
    const at = this.retained.indexOf(stepId);
    if (at >= 0) this.retained.splice(at, 1);
    this.emit('stepUpdated', r.step);
  }

  /**
   * Charges `child` (or, if its snapshot is gone, its retained descendants)
   * with the blocks of `parent` that live on in it.
   */
  private passOn(parent: StepRecord, childId: string): void {
    const child = this.rec(childId);
    if (child.snapshot === null) {
      for (const grandchild of child.children) this.passOn(parent, grandchild);
      return;
    }
    const dropped = new Set<object>();
    if (parent.snapshot !== null) {
      for (const c of this.options.store.diff(parent.snapshot, child.snapshot)) {
        const kept = new Set<object>();
        c.after?.contents?.forEachBlock((b) => kept.add(b));
        c.before?.contents?.forEachBlock((b) => {
          if (!kept.has(b)) dropped.add(b);
        });
      }
    }
    for (const [block, bytes] of parent.owned)
      if (!dropped.has(block)) this.ledger.charge(child.owned, block, bytes);
  }

  /** Releases every snapshot (the sandbox is going away). */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const r of this.records.values()) {
      if (r.snapshot !== null) this.options.store.drop(r.snapshot);
      r.snapshot = null;
      this.ledger.discharge(r.owned);
    }
    this.options.store.drop(this.originId);
  }
}

function recordingBytes(recording: Recording | null): number {
  if (!recording) return 0;
  let n = recording.screen.length;
  for (const f of recording.frames) n += f.data.length + 16;
  return n;
}
