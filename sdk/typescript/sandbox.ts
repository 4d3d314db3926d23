/**
 * A sandbox, as an agent's program drives it: run commands in its persistent
 * shell session, read and write its files, snapshot, restore and fork it.
 * `Sandbox.create()` with no connection starts an engine in this process and
 * owns it; give `connect` (or a shared `connection`) to use `sandglass rpc`
 * or a running app instead.
 */
import type {
  DiffEntry,
  FileEntry,
  RunResult,
  SandboxInfo,
  SandboxLimits,
  SandboxSettings,
} from '../../src-worker/contract/api.js';
import { DEFAULT_SETTINGS } from '../../src-worker/api/settings.js';
import { currentStep } from '../../src-worker/rpc/aliases.js';
import { Connection, type ConnectOptions } from './connection.js';
import { SandglassError } from './errors.js';

export interface CreateOptions {
  name?: string;
  /** Limits, environment and per-command time limit; what is left out keeps the defaults. */
  settings?: {
    limits?: Partial<SandboxLimits>;
    env?: Record<string, string>;
    timeoutMs?: number;
  };
  /** An open connection to share (it stays open when the sandbox closes). */
  connection?: Connection;
  /** How to connect when no connection is given (default: an engine in this process). */
  connect?: ConnectOptions;
}

export interface RunOptions {
  cwd?: string;
  /** Variables for this command only. */
  env?: Record<string, string>;
  stdin?: string;
  /** Wall-time limit for this command in ms (default: the sandbox's). */
  timeoutMs?: number;
  /** Why the command needs the network, shown to the person approving its requests. */
  networkReason?: string;
}

function settingsOf(s: CreateOptions['settings'] = {}): SandboxSettings {
  return {
    limits: { ...DEFAULT_SETTINGS.limits, ...s.limits },
    env: { ...DEFAULT_SETTINGS.env, ...s.env },
    timeoutMs: s.timeoutMs ?? DEFAULT_SETTINGS.timeoutMs,
  };
}

const toBase64 = (data: string | Uint8Array): string =>
  (typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data)).toString('base64');

export class Sandbox {
  private closed = false;

  private constructor(
    readonly connection: Connection,
    readonly info: SandboxInfo,
    /** Whether closing this sandbox closes the connection (it opened it). */
    private readonly ownsConnection: boolean,
  ) {}

  get id(): string {
    return this.info.id;
  }

  get name(): string {
    return this.info.name;
  }

  static async create(options: CreateOptions = {}): Promise<Sandbox> {
    const owns = options.connection === undefined;
    const connection = options.connection ?? (await Connection.open(options.connect));
    try {
      const info = await connection.call('createSandbox', {
        name: options.name ?? 'sdk',
        settings: settingsOf(options.settings),
      });
      return new Sandbox(connection, info, owns);
    } catch (err) {
      if (owns) await connection.close();
      throw err;
    }
  }

  /** A Sandbox object for an existing sandbox on a connection (it is not destroyed on close unless asked). */
  static async attach(connection: Connection, sandboxId: string): Promise<Sandbox> {
    const info = (await connection.listSandboxes()).find((s) => s.id === sandboxId);
    if (!info) throw new SandglassError('ENOENT', `no sandbox ${JSON.stringify(sandboxId)}`);
    await connection.call('subscribe', { sandboxId });
    return new Sandbox(connection, info, false);
  }

  /** Runs a command line in the sandbox's shell session (cd, variables and functions persist). */
  run(command: string, options: RunOptions = {}): Promise<RunResult> {
    return this.connection.call('run', { sandboxId: this.id, command, ...options });
  }

  async readFile(path: string): Promise<Uint8Array> {
    const { base64 } = await this.connection.call('readFile', { sandboxId: this.id, path });
    return new Uint8Array(Buffer.from(base64, 'base64'));
  }

  async readTextFile(path: string): Promise<string> {
    return Buffer.from(await this.readFile(path)).toString('utf8');
  }

  async writeFile(path: string, data: string | Uint8Array, options: { mode?: number } = {}) {
    await this.connection.call('writeFile', {
      sandboxId: this.id,
      path,
      base64: toBase64(data),
      ...options,
    });
  }

  readDir(path: string): Promise<FileEntry[]> {
    return this.connection.call('readDir', { sandboxId: this.id, path });
  }

  stat(path: string): Promise<FileEntry> {
    return this.connection.call('stat', { sandboxId: this.id, path });
  }

  async exists(path: string): Promise<boolean> {
    try {
      await this.stat(path);
      return true;
    } catch (err) {
      if (err instanceof SandglassError && err.code === 'ENOENT') return false;
      throw err;
    }
  }

  async mkdir(path: string, options: { recursive?: boolean } = {}): Promise<void> {
    await this.connection.call('mkdir', { sandboxId: this.id, path, ...options });
  }

  async remove(path: string, options: { recursive?: boolean } = {}): Promise<void> {
    await this.connection.call('remove', {
      sandboxId: this.id,
      path,
      recursive: options.recursive ?? false,
    });
  }

  async rename(from: string, to: string): Promise<void> {
    await this.connection.call('rename', { sandboxId: this.id, from, to });
  }

  /**
   * Names the current state (files and shell session) so it can be restored:
   * the id of the sandbox's latest step.
   */
  snapshot(): Promise<string> {
    return currentStep((method, params) => this.connection.call(method, params), this.id);
  }

  /** Puts the sandbox back as it was at a snapshot; recorded as a step, so nothing is lost. */
  async restore(snapshotId: string): Promise<void> {
    await this.connection.call('restoreStep', { sandboxId: this.id, stepId: snapshotId });
  }

  /**
   * The files added, modified and deleted from one snapshot to another (to
   * the live sandbox when `to` is left out), every page of them.
   */
  async diff(from: string, to?: string): Promise<DiffEntry[]> {
    const entries: DiffEntry[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const page: { entries: DiffEntry[]; nextOffset: number | null } = await this.connection.call(
        'diffSteps',
        {
          sandboxId: this.id,
          from,
          ...(to !== undefined ? { to } : {}),
          offset,
        },
      );
      entries.push(...page.entries);
      offset = page.nextOffset;
    }
    return entries;
  }

  /** An independent copy of this sandbox's current state, on the same connection. */
  async fork(options: { name?: string } = {}): Promise<Sandbox> {
    const stepId = await this.snapshot();
    const info = await this.connection.call('forkSandbox', {
      sandboxId: this.id,
      stepId,
      ...options,
    });
    return new Sandbox(this.connection, info, false);
  }

  /** Destroys the sandbox (and closes the connection when this sandbox opened it). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.connection.call('destroySandbox', { sandboxId: this.id });
    } catch (err) {
      // Already gone (destroyed elsewhere, or the connection ended): closing is done.
      if (!(err instanceof SandglassError) || !['ENOENT', 'ECONNRESET'].includes(err.code))
        throw err;
    } finally {
      if (this.ownsConnection) await this.connection.close();
    }
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}
