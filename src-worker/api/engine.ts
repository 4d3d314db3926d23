/**
 * The engine: the API contract implemented once over the kernel. It composes
 * the registry of sandboxes, their steps, terminals and the event bus, and
 * gives every front end the same entry points: `call` for a method (with the
 * calling client), `connect` for a client of the bus, and `spawn` for the
 * CLI's streamed programs (recorded as steps like every other command).
 * Transports validate wire messages first (dispatch.ts); this module loads
 * no schema code, so the CLI starts without it. The timeline file format
 * (schemas, compression) loads on the first save, journal or load.
 */
import { NET_REASON_VAR } from '../net/agentReason.js';
import type {
  ApiEvent,
  ApiMethod,
  ApiParams,
  ApiResult,
  ClientRole,
  RunResult,
  SandboxInfo,
  SandboxSettings,
  SandboxStats,
  StepKind,
  TimelineFileSummary,
} from '../contract/api.js';
import { API_VERSION, KEPT_OUTPUT_DIR, LIMITS } from '../contract/constants.js';
import type { Sandbox, SpawnOptions } from '../sandbox/sandbox.js';
import { diffPage, fileDiff } from '../timeline/changes.js';
import { TimelineError } from '../timeline/model.js';
import { snapshotStoreOf } from '../timeline/store.js';
import { ChangeFeed } from './changeFeed.js';
import { ClientRegistry, type ClientMeta } from './clients.js';
import { asEngineError, EngineError } from './errors.js';
import { EventBus, type BusClient } from './eventBus.js';
import type { SandboxFiles } from './files.js';
import { OutputPreview } from './outputPreview.js';
import { normalizePath } from './paths.js';
import { SandboxRegistry, type SandboxEntry } from './registry.js';
import { DEFAULT_SETTINGS } from './settings.js';
import { WorkerPool } from '../proc/node/workerPool.js';
import { warmCode } from '../sandbox/codeWarmUp.js';
import { Terminals } from './terminals.js';
import { Uploads } from './uploads.js';
import type { ImportContents } from '../vfs/node/index.js';
import type * as TimelineFormatModule from '../timeline/format/index.js';

export { DEFAULT_SETTINGS } from './settings.js';
export type { ClientMeta } from './clients.js';

export interface EngineOptions {
  /** Directory with the programs (default: the Sandbox's default, resources/wasm). */
  programsDir?: string;
  /** Name reported by `hello`. */
  kernelName?: string;
  /** This engine replaces one that stopped unexpectedly (`hello` says so to reconnecting clients). */
  restarted?: boolean;
}

/** A program the CLI starts: streamed like `Sandbox.spawn`, recorded as a step when it ends. */
export interface EngineSpawnOptions extends Omit<SpawnOptions, 'stdin'> {
  readonly stdin?: 'pipe';
  /** The command line the step shows (default: argv joined). */
  readonly command?: string;
}

export interface EngineProcess {
  readonly pid: number;
  readonly stdin?: { write(data: string | Uint8Array): Promise<boolean>; close(): void };
  kill(sig?: number): void;
  /** Resolves when the program ended and its step is recorded (status as a shell reports it). */
  wait(): Promise<{ status: number; signal?: number; stepId: string }>;
}

/** What an in-process caller adds to a call (transports that can cancel, e.g. MCP). */
export interface CallOptions {
  /** Aborting cancels the call where the method allows it (`run` kills its command). */
  readonly signal?: AbortSignal;
}

type Handler<M extends ApiMethod> = (
  params: ApiParams<M>,
  client: BusClient | undefined,
  options: CallOptions,
) => Promise<ApiResult<M>>;
type Handlers = { [M in ApiMethod]: Handler<M> };

function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

export class SandglassEngine {
  readonly bus = new EventBus();
  private readonly uploads = new Uploads({
    check: (sandboxId) => void this.writable(sandboxId, 'importFiles'),
    writeFile: (sandboxId, path, data, mode) =>
      this.registry.get(sandboxId).files.writeFile(path, data, mode),
    mkdirp: (sandboxId, path) => this.registry.get(sandboxId).files.mkdir(path, true),
    record: (sandboxId, command, startedAt) =>
      this.recordFileStep(this.registry.get(sandboxId), 'import', command, startedAt),
    publish: (sandboxId, event) => this.bus.publish(sandboxId, event),
  });
  /** Who is connected, for the Agents view; pauses and stops agents. */
  private readonly clients = new ClientRegistry((clients) =>
    this.bus.broadcast({ type: 'clients', clients }, 'person'),
  );
  private readonly registry: SandboxRegistry;
  private readonly terminals: Terminals;
  private readonly feeds = new Map<string, ChangeFeed>();
  private readonly kernelName: string;
  /** Names this engine run: a client reconnecting sees whether it is talking to a new engine. */
  private readonly instance = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  private readonly restarted: boolean;
  private nextId = 1;
  private disposed = false;

  constructor(options: EngineOptions = {}) {
    const newId = (prefix: string): string => `${prefix}${this.nextId++}`;
    this.kernelName = options.kernelName ?? 'kernel';
    this.restarted = options.restarted ?? false;
    this.registry = new SandboxRegistry({
      ...(options.programsDir !== undefined ? { programsDir: options.programsDir } : {}),
      newId,
      timelineEvents: (sandboxId) => ({
        step: (step) => this.bus.publish(sandboxId, { type: 'step', step }),
        stepUpdated: (step) => this.bus.publish(sandboxId, { type: 'stepUpdated', step }),
        branch: (branch) => this.bus.publish(sandboxId, { type: 'branch', branch: { ...branch } }),
        head: (stepId, branchId) =>
          this.bus.publish(sandboxId, { type: 'head', sandboxId, stepId, branchId }),
      }),
      network: {
        bus: this.bus,
        remember: (sandboxId, list, entry) => this.rememberHost(sandboxId, list, entry),
        audited: (record) => this.bus.publish(record.sandboxId, { type: 'network', record }),
        commandOf: (sandboxId) =>
          this.registry.has(sandboxId) ? this.stats(this.registry.get(sandboxId)).running : null,
      },
    });
    this.terminals = new Terminals(
      {
        data: (entry, terminalId, data) =>
          this.bus.publish(entry.id, { type: 'terminalData', terminalId, data }),
        exit: (entry, terminalId, status) =>
          this.bus.publish(entry.id, { type: 'terminalExit', terminalId, status }),
        running: (entry) => this.feeds.get(entry.id)?.scheduleStats(),
        cwd: (entry, terminalId, cwd) =>
          this.bus.publish(entry.id, { type: 'terminalCwd', terminalId, cwd }),
      },
      newId,
    );
  }

  /**
   * A client of the engine (one per transport connection): it receives the
   * events of the sandboxes it subscribes to and is listed in `listClients`.
   * `meta` names it and its transport, and gives the engine a way to close
   * the connection when a person stops it. Call `close()` when it goes.
   */
  connect(role: ClientRole, send: (event: ApiEvent) => void, meta: ClientMeta = {}): BusClient {
    const bus = this.bus.connect(role, send);
    this.clients.add(bus, meta);
    return {
      ...bus,
      close: () => {
        bus.close();
        this.clients.remove(bus.id);
      },
    };
  }

  /** Runs one method for a client (undefined for in-process callers without events). */
  call<M extends ApiMethod>(
    method: M,
    params: ApiParams<M>,
    client?: BusClient,
    options: CallOptions = {},
  ): Promise<ApiResult<M>> {
    if (this.disposed) return Promise.reject(new EngineError('ESHUTDOWN', 'engine is shut down'));
    const handler = this.handlers[method] as Handler<M>;
    if (!client) return handler(params, client, options);
    // A paused client's call waits here until a person resumes it.
    return this.clients.admit(client.id).then(() => handler(params, client, options));
  }

  private readonly handlers: Handlers = {
    hello: async ({ apiVersion, client: who }, client) => {
      if (apiVersion !== API_VERSION)
        throw new EngineError(
          'EVERSION',
          `client speaks API v${apiVersion}, engine speaks v${API_VERSION}`,
        );
      if (client && who) this.clients.rename(client.id, clientName(who));
      return {
        apiVersion: API_VERSION,
        kernel: this.kernelName,
        instance: this.instance,
        restarted: this.restarted,
        ...(client ? { clientId: client.id } : {}),
      };
    },
    listSandboxes: async () => this.registry.list(),
    createSandbox: async ({ name, settings }, client) => {
      const wanted = settings ?? DEFAULT_SETTINGS;
      checkNetworkChange(client, undefined, wanted);
      const info = await this.createSandbox(name, wanted);
      client?.subscribe(info.id);
      return info;
    },
    renameSandbox: async ({ sandboxId, name }) => {
      const info = this.registry.rename(sandboxId, name);
      this.announce();
      return info;
    },
    destroySandbox: async ({ sandboxId }) => {
      await this.destroySandbox(sandboxId);
      return null;
    },
    updateSettings: async ({ sandboxId, settings }, client) => {
      const current = this.registry.get(sandboxId).info.settings;
      // Left out, the network settings stay as they are.
      const next =
        settings.network === undefined ? { ...settings, network: current.network } : settings;
      checkNetworkChange(client, current, next);
      const info = this.registry.configure(sandboxId, next);
      this.announce();
      return info;
    },
    subscribe: async ({ sandboxId }, client) => {
      this.registry.get(sandboxId);
      needClient(client, 'subscribe').subscribe(sandboxId);
      return null;
    },
    unsubscribe: async ({ sandboxId }, client) => {
      needClient(client, 'unsubscribe').unsubscribe(sandboxId);
      return null;
    },
    stats: async ({ sandboxId }) => this.stats(this.registry.get(sandboxId)),
    readDir: async ({ sandboxId, path, snapshotId }) =>
      this.files(sandboxId, snapshotId).readDir(path, snapshotId),
    stat: async ({ sandboxId, path, snapshotId }) =>
      this.files(sandboxId, snapshotId).stat(path, snapshotId),
    readFile: async ({ sandboxId, path, snapshotId }) => {
      const bytes = await this.files(sandboxId, snapshotId).readFile(path, snapshotId);
      return { base64: toBase64(bytes), size: bytes.length };
    },
    writeFile: async ({ sandboxId, path, base64, mode }) => {
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64))
        throw new EngineError('EINVAL', 'writeFile: base64 is not valid base64');
      const bytes = new Uint8Array(Buffer.from(base64, 'base64'));
      await this.fileStep(sandboxId, 'write', `write ${path}`, (f) =>
        f.writeFile(path, bytes, mode),
      );
      return null;
    },
    importFiles: async (batch) => this.uploads.write(batch),
    cancelImport: async ({ sandboxId, importId }) => {
      this.uploads.cancel(sandboxId, importId);
      return null;
    },
    mkdir: async ({ sandboxId, path, recursive }) => {
      await this.fileStep(sandboxId, 'mkdir', `mkdir ${recursive ? '-p ' : ''}${path}`, (f) =>
        f.mkdir(path, recursive),
      );
      return null;
    },
    remove: async ({ sandboxId, path, recursive }) => {
      await this.fileStep(sandboxId, 'remove', `remove ${recursive ? '-r ' : ''}${path}`, (f) =>
        f.remove(path, recursive),
      );
      return null;
    },
    rename: async ({ sandboxId, from, to }) => {
      await this.fileStep(sandboxId, 'rename', `rename ${from} ${to}`, (f) => f.rename(from, to));
      return null;
    },
    run: async (
      { sandboxId, command, stdin, cwd, env, timeoutMs, networkReason, keepOutputOver },
      client,
      { signal },
    ) => {
      const entry = this.writable(sandboxId, 'run');
      const tracked = client ? this.clients.track(client.id, command) : undefined;
      // The agent's reason rides in the command's environment, where the
      // kernel reads it for each request the command's processes make.
      const vars = networkReason !== undefined ? { ...env, [NET_REASON_VAR]: networkReason } : env;
      try {
        return await this.run(entry, command, {
          ...(stdin !== undefined ? { stdin } : {}),
          ...(cwd !== undefined ? { cwd } : {}),
          ...(vars !== undefined ? { env: vars } : {}),
          ...(timeoutMs !== undefined ? { timeoutMs } : {}),
          ...(keepOutputOver !== undefined ? { keepOutputOver } : {}),
          ...anySignal(tracked?.signal, signal),
        });
      } finally {
        tracked?.done();
      }
    },
    listSteps: async ({ sandboxId, offset, limit, branchId }) =>
      timeline(() => this.registry.get(sandboxId).steps.page(offset, limit, branchId)),
    getStep: async ({ sandboxId, stepId }) =>
      timeline(() => this.registry.get(sandboxId).steps.get(stepId)),
    getTimeline: async ({ sandboxId }) => {
      const entry = this.registry.get(sandboxId);
      return entry.steps.info(entry.replay);
    },
    listBranches: async ({ sandboxId }) => this.registry.get(sandboxId).steps.branches(),
    renameBranch: async ({ sandboxId, branchId, name }) =>
      timeline(() => this.registry.get(sandboxId).steps.renameBranch(branchId, name)),
    restoreStep: async ({ sandboxId, stepId }) => {
      const entry = this.registry.get(sandboxId);
      // Restoring a step of a replayed timeline continues live from it.
      const step = await timelineAsync(() => entry.steps.restore(stepId));
      entry.replay = false;
      this.bus.publish(sandboxId, { type: 'restored', sandboxId, stepId, restoreStepId: step.id });
      return step;
    },
    forkSandbox: async ({ sandboxId, stepId, name }, client) => {
      const entry = this.registry.get(sandboxId);
      const snapshot = timeline(() => entry.steps.snapshotOf(stepId));
      const source = entry.steps.get(stepId);
      const made = await entry.sandbox.fork(snapshot).catch((err: unknown) => {
        throw asEngineError(err);
      });
      const origin = { sandboxId, sandboxName: entry.info.name, stepId };
      const forked = await this.registry.create(
        name ?? `${entry.info.name} @ ${stepId}`,
        entry.info.settings,
        made,
        origin,
      );
      try {
        const sessions = this.terminals.handOver(
          forked,
          entry.steps.sessionsOf(stepId),
          source.sessionId,
        );
        await made.restoreSessionStates(sessions);
        // Its history starts at the forked step: a root step holding the
        // same snapshot (the fork's origin, shared copy-on-write) and states.
        await forked.steps.record({
          kind: 'fork',
          sessionId: 'timeline',
          sessionKind: 'fork',
          command: `forked from ${sandboxId}/${stepId}`,
          status: 0,
          startedAt: Date.now(),
          durationMs: 0,
          origin,
          sessions,
        });
      } catch (err) {
        await this.registry.destroy(forked.id);
        throw asEngineError(err);
      }
      this.attachFeed(forked);
      this.announce();
      client?.subscribe(forked.id);
      return forked.info;
    },
    diffSteps: async ({ sandboxId, from, to, offset, limit }) => {
      const steps = this.registry.get(sandboxId).steps;
      return timeline(() => diffPage(steps.diff(from, to), offset, limit));
    },
    stepChanges: async ({ sandboxId, stepId, offset, limit }) => {
      const steps = this.registry.get(sandboxId).steps;
      return timeline(() => diffPage(steps.stepChanges(stepId), offset, limit));
    },
    diffFile: async ({ sandboxId, from, to, path }) => {
      const steps = this.registry.get(sandboxId).steps;
      const at = normalizePath(path);
      return timeline(() => fileDiff(at, steps.fileAt(from, at), steps.fileAt(to, at)));
    },
    getRecording: async ({ sandboxId, stepId }) =>
      timeline(() => this.registry.get(sandboxId).steps.recordingOf(stepId)),
    saveTimeline: async ({ sandboxId }) => {
      const { bytes, summary } = await this.saveTimeline(sandboxId);
      if (bytes.length > LIMITS.timelineFileBytes)
        throw new EngineError(
          'E2BIG',
          `the timeline file is ${bytes.length} bytes, more than the ${LIMITS.timelineFileBytes} a reply carries; save it to a host file with the CLI`,
        );
      return { base64: toBase64(bytes), summary };
    },
    loadTimeline: async ({ name, base64 }, client) => {
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64))
        throw new EngineError('EINVAL', 'loadTimeline: base64 is not valid base64');
      if (base64.length > (LIMITS.timelineFileBytes / 3) * 4 + 4)
        throw new EngineError(
          'E2BIG',
          `a timeline file has at most ${LIMITS.timelineFileBytes} bytes`,
        );
      const loaded = await this.loadTimeline(
        name,
        new Uint8Array(Buffer.from(base64, 'base64')),
        client,
      );
      client?.subscribe(loaded.sandbox.id);
      return loaded;
    },
    openTerminal: async ({ sandboxId, cols, rows, cwd }) => {
      const entry = this.writable(sandboxId, 'openTerminal');
      const terminalId = await this.terminals.open(entry, {
        cols,
        rows,
        ...(cwd !== undefined ? { cwd: normalizePath(cwd) } : {}),
      });
      return { terminalId };
    },
    terminalWrite: async ({ terminalId, data }) => {
      this.terminals.write(terminalId, data);
      return null;
    },
    terminalResize: async ({ terminalId, cols, rows }) => {
      this.terminals.resize(terminalId, cols, rows);
      return null;
    },
    closeTerminal: async ({ terminalId }) => {
      this.terminals.close(terminalId);
      return null;
    },
    answer: async ({ requestId, answer }, client) => {
      this.bus.answer(needClient(client, 'answer').id, requestId, answer);
      return null;
    },
    listClients: async () => this.clients.list(),
    pauseClient: async ({ clientId }, client) => {
      needPerson(client, 'pauseClient');
      this.clients.pause(clientId);
      return null;
    },
    resumeClient: async ({ clientId }, client) => {
      needPerson(client, 'resumeClient');
      this.clients.resume(clientId);
      return null;
    },
    disconnectClient: async ({ clientId }, client) => {
      needPerson(client, 'disconnectClient');
      this.clients.disconnect(clientId);
      return null;
    },
    networkAudit: async ({ sandboxId, stepId }) =>
      this.registry.get(sandboxId).network.list(stepId),
  };

  /** The files of a sandbox, refusing a released step's snapshot with the reason. */
  private files(sandboxId: string, snapshotId: string | undefined): SandboxFiles {
    const entry = this.registry.get(sandboxId);
    if (snapshotId !== undefined) timeline(() => entry.steps.checkSnapshotId(snapshotId));
    return entry.files;
  }

  /** A sandbox that may change (not a replayed timeline). */
  private writable(sandboxId: string, what: string): SandboxEntry {
    const entry = this.registry.get(sandboxId);
    if (entry.replay)
      throw new EngineError(
        'EROFS',
        `${what}: this sandbox replays a saved timeline; restore or fork a step to continue live`,
      );
    return entry;
  }

  /** A file operation through the API, recorded as one step when it succeeds. */
  private async fileStep(
    sandboxId: string,
    kind: StepKind,
    command: string,
    op: (files: SandboxFiles) => Promise<void>,
  ): Promise<void> {
    const entry = this.writable(sandboxId, kind);
    const startedAt = Date.now();
    await op(entry.files);
    await this.recordFileStep(entry, kind, command, startedAt);
  }

  /** Records a file operation (API write, upload) that succeeded as one step. */
  private async recordFileStep(
    entry: SandboxEntry,
    kind: StepKind,
    command: string,
    startedAt: number,
  ): Promise<void> {
    await entry.steps.record({
      kind,
      sessionId: 'files',
      sessionKind: 'file',
      command,
      status: 0,
      startedAt,
      durationMs: Date.now() - startedAt,
    });
  }

  /** A sandbox's timeline as a timeline file (zip bytes). In-process callers write it where they like. */
  async saveTimeline(
    sandboxId: string,
  ): Promise<{ bytes: Uint8Array; summary: TimelineFileSummary }> {
    const entry = this.registry.get(sandboxId);
    const { encodeTimelineAsync } = await timelineFormat();
    return timelineAsync(() => encodeTimelineAsync(timelineSource(entry)));
  }

  /**
   * Journals a sandbox's new steps through `append` as they happen
   * (in-process callers); resolves to the stop once the journal has its
   * header and origin.
   */
  async journalTimeline(
    sandboxId: string,
    append: (bytes: Uint8Array) => void,
  ): Promise<() => void> {
    // Once the format is loaded, the journal starts within this call (no await before it).
    const { journalTimeline } = loadedFormat ?? (await timelineFormat());
    const entry = this.registry.get(sandboxId);
    return timeline(() => journalTimeline({ ...timelineSource(entry), append }));
  }

  /**
   * Loads the timeline file format ahead of use: journals started after
   * this begin within the `journalTimeline` call, before any later step.
   */
  async loadTimelineFormat(): Promise<void> {
    await timelineFormat();
  }

  /** Validates a timeline file and opens it as a new replay sandbox (read-only until a restore). */
  async loadTimeline(
    name: string,
    bytes: Uint8Array,
    client?: BusClient,
  ): Promise<{ sandbox: SandboxInfo; summary: TimelineFileSummary }> {
    const { buildOrigin, decodeTimeline, loadSteps } = await timelineFormat();
    const data = timeline(() => decodeTimeline(bytes));
    const { settings } = data.manifest.sandbox;
    // A file's network settings are a new sandbox's: an agent may not widen them.
    checkNetworkChange(client, undefined, settings);
    const made = await this.registry.make(settings);
    try {
      timeline(() => buildOrigin(made.vfs, data));
    } catch (err) {
      await made.destroy();
      throw err;
    }
    const entry = await this.registry.create(name, settings, made);
    try {
      timeline(() => loadSteps(entry.steps, made.vfs, data));
    } catch (err) {
      await this.registry.destroy(entry.id);
      throw err;
    }
    entry.replay = true;
    this.attachFeed(entry);
    this.announce();
    return {
      sandbox: entry.info,
      summary: {
        formatVersion: data.manifest.version,
        steps: data.manifest.steps.length,
        branches: data.manifest.branches.length,
        blobs: data.blobs.size,
        contentBytes: data.contentBytes,
        fileBytes: data.fileBytes,
      },
    };
  }

  /** A person answered "always": the host joins the sandbox's allowed or blocked list. */
  private rememberHost(
    sandboxId: string,
    list: 'allowedHosts' | 'blockedHosts',
    host: string,
  ): void {
    if (!this.registry.has(sandboxId)) return;
    const settings = this.registry.get(sandboxId).info.settings;
    const net = settings.network ?? { allowedHosts: [], blockedHosts: [] };
    const other = list === 'allowedHosts' ? 'blockedHosts' : 'allowedHosts';
    const next = {
      ...net,
      [list]: net[list].includes(host) ? net[list] : [...net[list], host],
      // The opposite answer given before no longer stands.
      [other]: net[other].filter((e) => e !== host),
    };
    this.registry.configure(sandboxId, { ...settings, network: next });
    this.announce();
  }

  private announce(): void {
    this.bus.broadcast({ type: 'sandboxes', sandboxes: this.registry.list() });
  }

  async createSandbox(name: string, settings: SandboxSettings): Promise<SandboxInfo> {
    // A spare takes this sandbox's settings (limits, network, env) when adopted.
    const entry = await this.registry.create(name, settings, await this.takeSpare());
    this.attachFeed(entry);
    this.announce();
    return entry.info;
  }

  private attachFeed(entry: SandboxEntry): void {
    const feed = new ChangeFeed(
      {
        changes: (changes) =>
          this.bus.publish(entry.id, { type: 'fsChange', sandboxId: entry.id, changes }),
        stats: (stats) => this.bus.publish(entry.id, { type: 'stats', sandboxId: entry.id, stats }),
      },
      () => this.stats(entry),
    );
    const unsubscribe = entry.sandbox.onChange((e) => feed.take(e));
    this.feeds.set(entry.id, feed);
    entry.detach = () => {
      unsubscribe();
      feed.dispose();
      this.feeds.delete(entry.id);
    };
  }

  private async destroySandbox(sandboxId: string): Promise<void> {
    this.registry.get(sandboxId);
    this.terminals.closeSandbox(sandboxId);
    this.uploads.dropSandbox(sandboxId);
    this.bus.dropSandbox(sandboxId);
    await this.registry.destroy(sandboxId);
    this.announce();
  }

  /**
   * Imports a host directory into a sandbox (see vfs/node/hostImport.ts):
   * for in-process front ends only (the CLI, MCP's allowed imports), never
   * the wire. Into a sandbox with no steps yet (as both import, right after
   * creating it), the import becomes part of its starting state (the
   * timeline's origin), so no step has to list every imported file;
   * later, it is recorded as an import step of its own.
   */
  async importHostDir(
    sandboxId: string,
    hostPath: string,
    path: string,
    opts: { readOnly?: boolean; contents?: ImportContents } = {},
  ): Promise<void> {
    const entry = this.writable(sandboxId, 'importHostDir');
    const startedAt = Date.now();
    const at = normalizePath(path);
    await entry.sandbox.importHostDir(hostPath, at, opts);
    if (await entry.steps.rebaseOrigin()) return;
    await this.recordFileStep(entry, 'import', `import ${hostPath} to ${at}`, startedAt);
  }

  /** Copies a sandbox file or directory out to a new or empty host path: in-process front ends only. */
  async exportTree(sandboxId: string, path: string, hostPath: string): Promise<void> {
    await this.registry.get(sandboxId).sandbox.exportTree(normalizePath(path), hostPath);
  }

  private stats(entry: SandboxEntry): SandboxStats {
    const stats = entry.sandbox.stats();
    const terminal = [...entry.running.values()];
    return { ...stats, running: terminal[terminal.length - 1] ?? stats.running };
  }

  private async run(
    entry: SandboxEntry,
    command: string,
    opts: {
      stdin?: string;
      cwd?: string;
      env?: Record<string, string>;
      timeoutMs?: number;
      keepOutputOver?: number;
      signal?: AbortSignal;
    },
  ): Promise<RunResult> {
    const { stdin, cwd } = opts;
    const sessionId = `run${this.nextId++}`;
    const startedAt = Date.now();
    const feed = this.feeds.get(entry.id);
    feed?.scheduleStats();
    try {
      const result = await entry.sandbox.run(command, {
        env: { ...entry.info.settings.env, ...opts.env },
        timeoutMs: opts.timeoutMs ?? entry.info.settings.timeoutMs,
        ...(opts.signal ? { signal: opts.signal } : {}),
        ...(stdin !== undefined ? { stdin } : {}),
        ...(cwd !== undefined ? { cwd: normalizePath(cwd) } : {}),
      });
      // Kept before the step is recorded, so the files are in the run's own step.
      const kept =
        opts.keepOutputOver !== undefined
          ? await keepOutput(entry.files, sessionId, result, opts.keepOutputOver)
          : {};
      const step = await entry.steps.record({
        sessionId,
        sessionKind: 'api',
        command,
        status: result.status,
        startedAt,
        durationMs: Date.now() - startedAt,
        stdout: OutputPreview.of(result.stdout),
        stderr: OutputPreview.of(result.stderr),
      });
      return { ...result, stepId: step.id, ...kept };
    } catch (err) {
      throw asEngineError(err);
    } finally {
      feed?.scheduleStats();
    }
  }

  /**
   * Starts a program with streamed stdio (the CLI's `exec` and `run`); when it
   * ends, it is recorded as a step with previews of its output.
   */
  async spawn(
    sandboxId: string,
    path: string,
    argv: readonly string[],
    opts: EngineSpawnOptions = {},
  ): Promise<EngineProcess> {
    const entry = this.registry.get(sandboxId);
    const stdout = new OutputPreview();
    const stderr = new OutputPreview();
    const startedAt = Date.now();
    const proc = await entry.sandbox.spawn(path, argv, {
      ...opts,
      stdout: (d) => {
        stdout.push(d);
        opts.stdout?.(d);
      },
      stderr: (d) => {
        stderr.push(d);
        opts.stderr?.(d);
      },
    });
    const sessionId = `cli${this.nextId++}`;
    return {
      pid: proc.pid,
      ...(proc.stdin ? { stdin: proc.stdin } : {}),
      kill: (sig) => proc.kill(sig),
      wait: async () => {
        const { status, signal } = await proc.wait();
        const durationMs = Date.now() - startedAt;
        const step = await entry.steps.record({
          sessionId,
          sessionKind: 'cli',
          command: opts.command ?? argv.join(' '),
          status,
          startedAt,
          durationMs,
          stdout,
          stderr,
        });
        return { status, ...(signal !== undefined ? { signal } : {}), stepId: step.id };
      },
    };
  }

  /**
   * Gets the first terminal's costs out of its way (web and desktop
   * front ends call this once they listen): compiles the shell and boots
   * the process workers with a throwaway sandbox of the default settings
   * (never registered or announced) that runs one command, then keeps a
   * spare sandbox made, which the next createSandbox adopts (and a new
   * spare is made a little later). The throwaway sandbox then runs the
   * code warm-up (sandbox/codeWarmUp.ts), so the first real command runs
   * optimised code. The engine keeps its hold on the worker pool, so the
   * booted workers stay warm.
   */
  async warmUp(): Promise<void> {
    if (this.disposed || this.pool) return;
    this.pool = WorkerPool.acquireShared();
    const sb = await this.registry.make(DEFAULT_SETTINGS);
    try {
      await sb.run('true');
      this.makeSpare();
      if (!this.disposed) await warmCode(sb);
    } finally {
      await sb.destroy();
    }
  }

  /** The engine's own hold on the shared worker pool (warmUp). */
  private pool: WorkerPool | undefined;
  /** A sandbox made ahead for the next createSandbox (warmUp). */
  private spare: Promise<Sandbox | undefined> | undefined;

  private makeSpare(): void {
    if (this.disposed) return;
    this.spare = this.registry.make(DEFAULT_SETTINGS).catch(() => undefined);
  }

  /** The spare sandbox, if one is ready or coming; a new one is made a second later. */
  private async takeSpare(): Promise<Sandbox | undefined> {
    const spare = this.spare;
    if (!spare) return undefined;
    this.spare = undefined;
    // Later, so making it does not compete with what the new sandbox starts.
    setTimeout(() => this.makeSpare(), 1000).unref();
    return spare;
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.pool?.unref();
    const spare = this.spare;
    this.spare = undefined;
    await (await spare)?.destroy();
    this.terminals.closeAll();
    this.clients.dispose();
    this.bus.dispose();
    await this.registry.destroyAll();
  }
}

/**
 * Writes each stream longer than `over` bytes to KEPT_OUTPUT_DIR (no step of
 * its own: the caller's run step takes the files in). Returns the paths.
 */
async function keepOutput(
  files: SandboxFiles,
  name: string,
  result: { stdout: string; stderr: string },
  over: number,
): Promise<{ stdoutPath?: string; stderrPath?: string }> {
  const kept: { stdoutPath?: string; stderrPath?: string } = {};
  for (const stream of ['stdout', 'stderr'] as const) {
    const bytes = new TextEncoder().encode(result[stream]);
    if (bytes.length <= over) continue;
    const path = `${KEPT_OUTPUT_DIR}/${name}.${stream}`;
    await files.mkdir(KEPT_OUTPUT_DIR, true);
    await files.writeFile(path, bytes, 0o600);
    kept[stream === 'stdout' ? 'stdoutPath' : 'stderrPath'] = path;
  }
  return kept;
}

type TimelineFormat = typeof TimelineFormatModule;
let loadedFormat: TimelineFormat | undefined;

/** The timeline file format, loaded on first use (see the module's comment). */
async function timelineFormat(): Promise<TimelineFormat> {
  return (loadedFormat ??= await import('../timeline/format/index.js'));
}

/** What saving or journaling a sandbox's timeline reads. */
function timelineSource(entry: SandboxEntry) {
  return {
    name: entry.info.name,
    settings: entry.info.settings,
    timeline: entry.steps,
    store: snapshotStoreOf(entry.sandbox.vfs),
  };
}

/** Only people (and in-process callers) pause, resume and stop clients. */
function needPerson(client: BusClient | undefined, method: string): void {
  if (client && client.role !== 'person')
    throw new EngineError('EPERM', `${method}: only a person may do this`);
}

function clientName(who: { name: string; version?: string | undefined }): string {
  return who.version !== undefined ? `${who.name} ${who.version}` : who.name;
}

/** `{ signal }` aborted when any of the given signals is (none given: nothing). */
function anySignal(...given: (AbortSignal | undefined)[]): { signal?: AbortSignal } {
  const signals = given.filter((s): s is AbortSignal => s !== undefined);
  if (signals.length === 0) return {};
  return { signal: signals.length === 1 ? (signals[0] as AbortSignal) : AbortSignal.any(signals) };
}

/** A timeline error as the engine's (its code kept), anything else as asEngineError does. */
function engineErrorOf(err: unknown): EngineError {
  return err instanceof TimelineError ? new EngineError(err.code, err.message) : asEngineError(err);
}

/** Runs a timeline call with its errors as engine errors. */
function timeline<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw engineErrorOf(err);
  }
}

function timelineAsync<T>(fn: () => Promise<T>): Promise<T> {
  return fn().catch((err: unknown) => {
    throw engineErrorOf(err);
  });
}

/**
 * Agents may tighten a sandbox's network (block hosts) but never widen it:
 * an allowed host is a person's decision, as every approval is.
 */
function checkNetworkChange(
  client: BusClient | undefined,
  current: SandboxSettings | undefined,
  next: SandboxSettings,
): void {
  if (client?.role !== 'agent') return;
  const before = new Set(current?.network?.allowedHosts ?? []);
  const added = (next.network?.allowedHosts ?? []).filter((h) => !before.has(h));
  const unblocked = (current?.network?.blockedHosts ?? []).filter(
    (h) => !(next.network?.blockedHosts ?? []).includes(h),
  );
  if (added.length > 0 || unblocked.length > 0)
    throw new EngineError(
      'EPERM',
      `only a person may allow network hosts (${[...added, ...unblocked].join(', ')})`,
    );
}

function needClient(client: BusClient | undefined, method: string): BusClient {
  if (!client) throw new EngineError('EINVAL', `${method} needs a connected client`);
  return client;
}
