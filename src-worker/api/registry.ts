/**
 * The engine's sandboxes: each registry entry holds a kernel `Sandbox`
 * directly, with what the API keeps beside it (its info and settings).
 */
import type { ForkOrigin, SandboxInfo, SandboxSettings } from '../contract/api.js';
import { Sandbox } from '../sandbox/sandbox.js';
import { snapshotStoreOf } from '../timeline/store.js';
import { Timeline, type TimelineEvents } from '../timeline/model.js';
import { asEngineError, EngineError } from './errors.js';
import { SandboxFiles } from './files.js';
import { EventBus } from './eventBus.js';
import { SandboxNetworkAccess, type NetworkHooks } from './network.js';
import { limitsOf } from './settings.js';

export interface SandboxEntry {
  readonly id: string;
  info: SandboxInfo;
  readonly sandbox: Sandbox;
  readonly files: SandboxFiles;
  /** The sandbox's timeline (its steps, branches and snapshots). */
  readonly steps: Timeline;
  /** Replays a loaded timeline file: read-only until a step is restored ("continue from here"). */
  replay: boolean;
  /** Ids the next terminals opened take (a fork's, whose shell states wait under them). */
  readonly terminalIds: string[];
  /** Command lines running in terminals, by terminal id (API runs are the sandbox's own). */
  readonly running: Map<string, string>;
  /** Its policy, approvals and audit. */
  readonly network: SandboxNetworkAccess;
  /** Undoes what the engine attached (event feeds). */
  detach: () => void;
}

export interface RegistryOptions {
  /** Directory with the programs (default: the Sandbox's own default). */
  programsDir?: string;
  /** Makes ids; the engine shares one counter across kinds of id. */
  newId: (prefix: string) => string;
  /** Timeline events of a sandbox (steps, branches, head). */
  timelineEvents: (sandboxId: string) => Partial<TimelineEvents>;
  /**
   * Approvals, remembered answers and the audit of every sandbox's network.
   * Default: nobody to ask, so only listed hosts are reachable.
   */
  network?: NetworkHooks;
}

const ALONE: NetworkHooks = {
  bus: new EventBus(),
  remember: () => undefined,
  audited: () => undefined,
};

export class SandboxRegistry {
  private readonly entries = new Map<string, SandboxEntry>();

  constructor(private readonly options: RegistryOptions) {}

  /** A kernel sandbox with these settings, not yet registered (see `create`'s `made`). */
  make(settings: SandboxSettings, network?: SandboxNetworkAccess): Promise<Sandbox> {
    const { limits, vfsLimits } = limitsOf(settings);
    return Sandbox.create({
      limits,
      vfsLimits,
      env: settings.env,
      ...(network ? { network: network.options(settings) } : {}),
      ...(this.options.programsDir !== undefined ? { programsDir: this.options.programsDir } : {}),
    });
  }

  /** A new sandbox, or one made elsewhere (a fork, a loaded timeline) adopted with these settings. */
  async create(
    name: string,
    settings: SandboxSettings,
    made?: Sandbox,
    origin?: ForkOrigin,
  ): Promise<SandboxEntry> {
    const trimmed = checkName(name);
    const { limits, vfsLimits } = limitsOf(settings);
    const id = this.options.newId('sb');
    const network = new SandboxNetworkAccess(id, this.options.network ?? ALONE);
    let sandbox: Sandbox;
    try {
      if (made) {
        sandbox = made;
        // Its own policy, approvals and audit (a fork does not share its parent's).
        sandbox.setNetwork(network.options(settings));
        sandbox.setLimits(limits);
        sandbox.vfs.setLimits(vfsLimits);
        sandbox.setEnv(settings.env);
      } else {
        sandbox = await this.make(settings, network);
      }
    } catch (err) {
      await made?.destroy();
      throw asEngineError(err);
    }
    const kernel = sandbox;
    const events = this.options.timelineEvents(id);
    // Events of a sandbox being destroyed are dropped.
    const live =
      <A extends unknown[]>(fn: (...a: A) => void) =>
      (...a: A) => {
        if (this.entries.get(id) === entry) fn(...a);
      };
    const entry: SandboxEntry = {
      id,
      info: { id, name: trimmed, createdAt: Date.now(), settings, ...(origin ? { origin } : {}) },
      sandbox: kernel,
      files: new SandboxFiles(kernel),
      steps: new Timeline({
        sandboxId: id,
        store: snapshotStoreOf(kernel.vfs),
        sessions: kernel,
        newStepId: () => this.options.newId('st'),
        newBranchId: () => this.options.newId('br'),
        budgetBytes: () => budgetOf(kernel, entry.info.settings),
        // The network requests of its command so far belong to a new step.
        networkOf: (stepId) => network.attachToStep(stepId),
        events: {
          step: (step) => {
            network.attachToStep(step.id);
            live((st: typeof step) => events.step?.(st))(step);
          },
          stepUpdated: live((step) => {
            if (step.snapshotReleased) entry.files.forget(step.snapshotId);
            events.stepUpdated?.(step);
          }),
          branch: live((branch) => events.branch?.(branch)),
          head: live((stepId, branchId) => events.head?.(stepId, branchId)),
        },
      }),
      replay: false,
      network,
      terminalIds: [],
      running: new Map(),
      detach: () => undefined,
    };
    this.entries.set(id, entry);
    return entry;
  }

  get(id: string): SandboxEntry {
    const entry = this.entries.get(id);
    if (!entry) throw new EngineError('ENOENT', `no sandbox ${JSON.stringify(id)}`);
    return entry;
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  list(): SandboxInfo[] {
    return [...this.entries.values()].map((e) => e.info);
  }

  rename(id: string, name: string): SandboxInfo {
    const entry = this.get(id);
    entry.info = { ...entry.info, name: checkName(name) };
    return entry.info;
  }

  /** New limits apply to processes, runs and writes started from now on. */
  configure(id: string, settings: SandboxSettings): SandboxInfo {
    const entry = this.get(id);
    const { limits, vfsLimits } = limitsOf(settings);
    try {
      // First: a bad host entry refuses the whole change.
      entry.sandbox.setNetwork({ policy: entry.network.policy(settings) });
      entry.sandbox.setLimits(limits);
      entry.sandbox.vfs.setLimits(vfsLimits);
      entry.sandbox.setEnv(settings.env);
    } catch (err) {
      throw asEngineError(err);
    }
    entry.info = { ...entry.info, settings };
    return entry.info;
  }

  /** Removes the entry and destroys its sandbox (every process ends). */
  async destroy(id: string): Promise<void> {
    const entry = this.get(id);
    this.entries.delete(id);
    entry.detach();
    entry.steps.dispose();
    await entry.sandbox.destroy();
  }

  async destroyAll(): Promise<void> {
    const all = [...this.entries.values()];
    this.entries.clear();
    for (const e of all) {
      e.detach();
      e.steps.dispose();
    }
    await Promise.all(all.map((e) => e.sandbox.destroy().catch(() => undefined)));
  }
}

/**
 * What a sandbox's retained snapshots may hold: its memory limit (#20 item
 * 3), or its file system's byte limit when it has none.
 */
function budgetOf(sandbox: Sandbox, settings: SandboxSettings): number {
  const memory = settings.limits.memoryBytes ?? 0;
  return memory > 0 ? memory : sandbox.vfs.limits.maxBytes;
}

function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw new EngineError('EINVAL', 'sandbox name must not be empty');
  return trimmed;
}
