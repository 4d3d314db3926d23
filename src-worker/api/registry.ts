/**
 * The engine's sandboxes: each registry entry holds a kernel `Sandbox`
 * directly, with what the API keeps beside it (its info and settings).
 */
import type { SandboxInfo, SandboxSettings, Step } from '../contract/api.js';
import { Sandbox } from '../sandbox/sandbox.js';
import { asEngineError, EngineError } from './errors.js';
import { SandboxFiles } from './files.js';
import { EventBus } from './eventBus.js';
import { SandboxNetworkAccess, type NetworkHooks } from './network.js';
import { limitsOf } from './settings.js';
import { StepLog } from './steps.js';

export interface SandboxEntry {
  readonly id: string;
  info: SandboxInfo;
  readonly sandbox: Sandbox;
  readonly files: SandboxFiles;
  readonly steps: StepLog;
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
  /** A step was recorded. */
  onStep: (step: Step) => void;
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

  async create(name: string, settings: SandboxSettings): Promise<SandboxEntry> {
    const trimmed = checkName(name);
    const { limits, vfsLimits } = limitsOf(settings);
    const id = this.options.newId('sb');
    const network = new SandboxNetworkAccess(id, this.options.network ?? ALONE);
    let sandbox: Sandbox;
    try {
      sandbox = await Sandbox.create({
        limits,
        vfsLimits,
        env: settings.env,
        network: network.options(settings),
        ...(this.options.programsDir !== undefined
          ? { programsDir: this.options.programsDir }
          : {}),
      });
    } catch (err) {
      throw asEngineError(err);
    }
    const entry: SandboxEntry = {
      id,
      info: { id, name: trimmed, createdAt: Date.now(), settings },
      sandbox,
      files: new SandboxFiles(sandbox),
      steps: new StepLog(
        id,
        () => String(sandbox.snapshot()),
        () => this.options.newId('st'),
        (step) => {
          network.attachToStep(step.id);
          if (this.entries.get(id) === entry) this.options.onStep(step);
        },
      ),
      network,
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
    await entry.sandbox.destroy();
  }

  async destroyAll(): Promise<void> {
    const all = [...this.entries.values()];
    this.entries.clear();
    for (const e of all) e.detach();
    await Promise.all(all.map((e) => e.sandbox.destroy().catch(() => undefined)));
  }
}

function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw new EngineError('EINVAL', 'sandbox name must not be empty');
  return trimmed;
}
