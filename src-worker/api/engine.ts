/**
 * The engine side of the API contract: a registry of sandboxes, their steps
 * (a tree from the start) and terminals, over any BackendSandbox. Transports
 * (WebSocket server, Electron MessagePort) call `dispatch` and forward events.
 */
import type {
  ApiError,
  ApiEvent,
  ApiMethod,
  ApiParams,
  ApiResult,
  FileEntry,
  FsChange,
  SandboxInfo,
  SandboxSettings,
  SandboxStats,
  ServerMessage,
  Step,
} from '../contract/api.js';
import { TextDecoder } from 'node:util';
import { API_VERSION } from '../contract/api.js';
import { apiError, parseClientMessage } from '../contract/validate.js';
import {
  BackendError,
  type BackendFactory,
  type BackendSandbox,
  type BackendStat,
  type BackendTerminal,
} from './backend.js';
import { baseName, joinPath, normalizePath } from './paths.js';
import { PromptMarkParser } from './promptMarks.js';

export const DEFAULT_SETTINGS: SandboxSettings = {
  limits: {
    totalBytes: 256 * 1024 * 1024,
    fileBytes: 64 * 1024 * 1024,
    nodeCount: 100_000,
    processCount: 64,
    outputBytes: 16 * 1024 * 1024,
  },
  env: {},
  timeoutMs: 60_000,
};

/** Change batches are flushed at most this often, so a `cp -r` is a few events, not thousands. */
const CHANGE_FLUSH_MS = 30;
const STATS_FLUSH_MS = 250;

interface SandboxRecord {
  info: SandboxInfo;
  backend: BackendSandbox;
  steps: Step[];
  head: string | null;
  running: Map<string, string>;
  pendingChanges: FsChange[];
  changeTimer: ReturnType<typeof setTimeout> | null;
  statsTimer: ReturnType<typeof setTimeout> | null;
  unsubscribe: () => void;
  /** Serialises snapshot-taking so steps keep their order. */
  queue: Promise<unknown>;
}

interface TerminalRecord {
  id: string;
  sandboxId: string;
  terminal: BackendTerminal;
  decoder: TextDecoder;
  marks: PromptMarkParser;
}

type Handlers = { [M in ApiMethod]: (params: ApiParams<M>) => Promise<ApiResult<M>> };

function toApiError(err: unknown): ApiError {
  if (err instanceof BackendError) return { name: err.name, message: err.message, code: err.code };
  if (err instanceof Error) {
    const code = (err as Error & { code?: unknown }).code;
    return { name: err.name, message: err.message, code: typeof code === 'string' ? code : 'EIO' };
  }
  return apiError('EIO', String(err));
}

function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

function entryOf(path: string, stat: BackendStat): FileEntry {
  const entry: FileEntry = {
    name: path === '/' ? '/' : baseName(path),
    path,
    kind: stat.kind,
    mode: stat.mode & 0o7777,
    size: stat.size,
    mtimeMs: stat.mtimeMs,
  };
  if (stat.target !== undefined) entry.target = stat.target;
  return entry;
}

export class SandglassEngine {
  private readonly sandboxes = new Map<string, SandboxRecord>();
  private readonly terminals = new Map<string, TerminalRecord>();
  private readonly listeners = new Set<(event: ApiEvent) => void>();
  private nextId = 1;
  private disposed = false;

  constructor(
    private readonly factory: BackendFactory,
    private readonly kernelName: string,
  ) {}

  onEvent(listener: (event: ApiEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: ApiEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A failing transport must not stop delivery to the others.
      }
    }
  }

  private id(prefix: string): string {
    return `${prefix}${this.nextId++}`;
  }

  private sandbox(id: string): SandboxRecord {
    const record = this.sandboxes.get(id);
    if (!record) throw new BackendError('ENOENT', `no sandbox ${JSON.stringify(id)}`);
    return record;
  }

  private terminal(id: string): TerminalRecord {
    const record = this.terminals.get(id);
    if (!record) throw new BackendError('ENOENT', `no terminal ${JSON.stringify(id)}`);
    return record;
  }

  private list(): SandboxInfo[] {
    return [...this.sandboxes.values()].map((r) => r.info);
  }

  /** Validates and runs one raw client message; never throws. */
  async dispatch(raw: unknown): Promise<ServerMessage | null> {
    const parsed = parseClientMessage(raw);
    if (!parsed.ok)
      return parsed.id === null
        ? { type: 'response', id: -1, ok: false, error: parsed.error }
        : { type: 'response', id: parsed.id, ok: false, error: parsed.error };
    const { id, method, params } = parsed.message;
    try {
      const result = await this.call(method, params as ApiParams<typeof method>);
      return { type: 'response', id, ok: true, result };
    } catch (err) {
      return { type: 'response', id, ok: false, error: toApiError(err) };
    }
  }

  /** Typed entry point (tests and in-process callers). */
  call<M extends ApiMethod>(method: M, params: ApiParams<M>): Promise<ApiResult<M>> {
    if (this.disposed) return Promise.reject(new BackendError('ESHUTDOWN', 'engine is shut down'));
    const handler = this.handlers[method] as (p: ApiParams<M>) => Promise<ApiResult<M>>;
    return handler(params);
  }

  private readonly handlers: Handlers = {
    hello: async ({ apiVersion }) => {
      if (apiVersion !== API_VERSION)
        throw new BackendError(
          'EVERSION',
          `client speaks API v${apiVersion}, engine speaks v${API_VERSION}`,
        );
      return { apiVersion: API_VERSION, kernel: this.kernelName };
    },
    listSandboxes: async () => this.list(),
    createSandbox: async ({ name, settings }) =>
      this.createSandbox(name, settings ?? DEFAULT_SETTINGS),
    renameSandbox: async ({ sandboxId, name }) => {
      const record = this.sandbox(sandboxId);
      const trimmed = name.trim();
      if (trimmed === '') throw new BackendError('EINVAL', 'sandbox name must not be empty');
      record.info = { ...record.info, name: trimmed };
      this.emit({ type: 'sandboxes', sandboxes: this.list() });
      return record.info;
    },
    destroySandbox: async ({ sandboxId }) => {
      const record = this.sandbox(sandboxId);
      for (const t of [...this.terminals.values()])
        if (t.sandboxId === sandboxId) this.closeTerminal(t.id);
      this.sandboxes.delete(sandboxId);
      record.unsubscribe();
      if (record.changeTimer) clearTimeout(record.changeTimer);
      if (record.statsTimer) clearTimeout(record.statsTimer);
      await record.backend.dispose();
      this.emit({ type: 'sandboxes', sandboxes: this.list() });
      return null;
    },
    updateSettings: async ({ sandboxId, settings }) => {
      const record = this.sandbox(sandboxId);
      await record.backend.configure(settings);
      record.info = { ...record.info, settings };
      this.emit({ type: 'sandboxes', sandboxes: this.list() });
      return record.info;
    },
    stats: async ({ sandboxId }) => this.stats(this.sandbox(sandboxId)),
    readDir: async ({ sandboxId, path, snapshotId }) => {
      const dir = normalizePath(path);
      const entries = await this.sandbox(sandboxId).backend.readDir(dir, snapshotId);
      return entries.map((e) => entryOf(joinPath(dir, e.name), e.stat));
    },
    stat: async ({ sandboxId, path, snapshotId }) => {
      const p = normalizePath(path);
      return entryOf(p, await this.sandbox(sandboxId).backend.stat(p, snapshotId));
    },
    readFile: async ({ sandboxId, path, snapshotId }) => {
      const bytes = await this.sandbox(sandboxId).backend.readFile(normalizePath(path), snapshotId);
      return { base64: toBase64(bytes), size: bytes.length };
    },
    writeFile: async ({ sandboxId, path, base64 }) => {
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64))
        throw new BackendError('EINVAL', 'writeFile: base64 is not valid base64');
      await this.sandbox(sandboxId).backend.writeFile(
        normalizePath(path),
        new Uint8Array(Buffer.from(base64, 'base64')),
      );
      return null;
    },
    mkdir: async ({ sandboxId, path }) => {
      await this.sandbox(sandboxId).backend.mkdir(normalizePath(path));
      return null;
    },
    remove: async ({ sandboxId, path, recursive }) => {
      await this.sandbox(sandboxId).backend.remove(normalizePath(path), recursive);
      return null;
    },
    rename: async ({ sandboxId, from, to }) => {
      await this.sandbox(sandboxId).backend.rename(normalizePath(from), normalizePath(to));
      return null;
    },
    run: async ({ sandboxId, command, stdin, cwd }) =>
      this.run(this.sandbox(sandboxId), command, stdin, cwd),
    listSteps: async ({ sandboxId }) => [...this.sandbox(sandboxId).steps],
    restoreStep: async ({ sandboxId, stepId }) => {
      const record = this.sandbox(sandboxId);
      const step = record.steps.find((s) => s.id === stepId);
      if (!step)
        throw new BackendError(
          'ENOENT',
          `no step ${JSON.stringify(stepId)} in sandbox ${sandboxId}`,
        );
      await record.backend.restore(step.snapshotId);
      // The next step branches from the restored one.
      record.head = step.id;
      this.emit({ type: 'restored', sandboxId, stepId });
      return null;
    },
    openTerminal: async ({ sandboxId, cols, rows }) =>
      this.openTerminal(this.sandbox(sandboxId), cols, rows),
    terminalWrite: async ({ terminalId, data }) => {
      this.terminal(terminalId).terminal.write(data);
      return null;
    },
    terminalResize: async ({ terminalId, cols, rows }) => {
      this.terminal(terminalId).terminal.resize(clampSize(cols, 2, 1000), clampSize(rows, 1, 500));
      return null;
    },
    closeTerminal: async ({ terminalId }) => {
      this.terminal(terminalId);
      this.closeTerminal(terminalId);
      return null;
    },
  };

  async createSandbox(name: string, settings: SandboxSettings): Promise<SandboxInfo> {
    const trimmed = name.trim();
    if (trimmed === '') throw new BackendError('EINVAL', 'sandbox name must not be empty');
    const backend = await this.factory(settings);
    await backend.configure(settings);
    const info: SandboxInfo = { id: this.id('sb'), name: trimmed, createdAt: Date.now(), settings };
    const record: SandboxRecord = {
      info,
      backend,
      steps: [],
      head: null,
      running: new Map(),
      pendingChanges: [],
      changeTimer: null,
      statsTimer: null,
      unsubscribe: () => undefined,
      queue: Promise.resolve(),
    };
    record.unsubscribe = backend.onChange((change) => this.queueChange(record, change));
    this.sandboxes.set(info.id, record);
    this.emit({ type: 'sandboxes', sandboxes: this.list() });
    return info;
  }

  private queueChange(record: SandboxRecord, change: FsChange): void {
    if (change.path === '') {
      this.scheduleStats(record);
      return;
    }
    record.pendingChanges.push(change);
    if (record.changeTimer) return;
    record.changeTimer = setTimeout(() => {
      record.changeTimer = null;
      const changes = record.pendingChanges;
      record.pendingChanges = [];
      if (this.sandboxes.get(record.info.id) !== record) return;
      this.emit({ type: 'fsChange', sandboxId: record.info.id, changes });
      this.scheduleStats(record);
    }, CHANGE_FLUSH_MS);
  }

  private scheduleStats(record: SandboxRecord): void {
    if (record.statsTimer) return;
    record.statsTimer = setTimeout(() => {
      record.statsTimer = null;
      if (this.sandboxes.get(record.info.id) !== record) return;
      this.stats(record).then(
        (stats) => this.emit({ type: 'stats', sandboxId: record.info.id, stats }),
        () => undefined,
      );
    }, STATS_FLUSH_MS);
  }

  private async stats(record: SandboxRecord): Promise<SandboxStats> {
    const s = await record.backend.stats();
    const running = [...record.running.values()];
    return { ...s, running: running.length > 0 ? (running[running.length - 1] ?? null) : null };
  }

  /** Records a finished command as a step, with a snapshot taken after it. */
  private recordStep(
    record: SandboxRecord,
    partial: Omit<Step, 'id' | 'parentId' | 'sandboxId' | 'snapshotId'>,
  ): Promise<Step> {
    const next = record.queue.then(async () => {
      const snapshotId = await record.backend.snapshot();
      const step: Step = {
        ...partial,
        id: this.id('st'),
        parentId: record.head,
        sandboxId: record.info.id,
        snapshotId,
      };
      record.head = step.id;
      record.steps.push(step);
      if (this.sandboxes.get(record.info.id) === record) this.emit({ type: 'step', step });
      return step;
    });
    record.queue = next.catch(() => undefined);
    return next;
  }

  private async run(
    record: SandboxRecord,
    command: string,
    stdin: string | undefined,
    cwd: string | undefined,
  ) {
    const sessionId = this.id('run');
    const startedAt = Date.now();
    record.running.set(sessionId, command);
    this.scheduleStats(record);
    try {
      const options: {
        stdin?: string;
        cwd?: string;
        env: Record<string, string>;
        timeoutMs: number;
      } = {
        env: record.info.settings.env,
        timeoutMs: record.info.settings.timeoutMs,
      };
      if (stdin !== undefined) options.stdin = stdin;
      if (cwd !== undefined) options.cwd = normalizePath(cwd);
      const result = await record.backend.run(command, options);
      const durationMs = Date.now() - startedAt;
      const step = await this.recordStep(record, {
        sessionId,
        sessionKind: 'api',
        command,
        status: result.status,
        startedAt,
        durationMs,
        stdout: result.stdout,
        stderr: result.stderr,
      });
      return { ...result, durationMs, stepId: step.id };
    } finally {
      record.running.delete(sessionId);
      this.scheduleStats(record);
    }
  }

  private async openTerminal(record: SandboxRecord, cols: number, rows: number) {
    const terminal = await record.backend.openTerminal({
      cols: clampSize(cols, 2, 1000),
      rows: clampSize(rows, 1, 500),
    });
    const id = this.id('term');
    const entry: TerminalRecord = {
      id,
      sandboxId: record.info.id,
      terminal,
      decoder: new TextDecoder('utf-8'),
      marks: new PromptMarkParser(),
    };
    this.terminals.set(id, entry);
    terminal.onData((chunk) => {
      if (!this.terminals.has(id)) return;
      const data =
        typeof chunk === 'string' ? chunk : entry.decoder.decode(chunk, { stream: true });
      if (data.length === 0) return;
      this.emit({ type: 'terminalData', terminalId: id, data });
      this.trackMarks(record, entry, data);
    });
    terminal.onExit((status) => {
      if (!this.terminals.delete(id)) return;
      record.running.delete(id);
      this.emit({ type: 'terminalExit', terminalId: id, status });
    });
    return { terminalId: id };
  }

  private trackMarks(record: SandboxRecord, entry: TerminalRecord, data: string): void {
    for (const done of entry.marks.feed(data)) {
      void this.recordStep(record, {
        sessionId: entry.id,
        sessionKind: 'terminal',
        command: done.command,
        status: done.status,
        startedAt: done.startedAt,
        durationMs: done.durationMs,
      }).catch(() => undefined);
    }
    // Between C and D the terminal's command is what the status bar shows as running.
    const running = entry.marks.running;
    if (running !== null) record.running.set(entry.id, running);
    else record.running.delete(entry.id);
    this.scheduleStats(record);
  }

  private closeTerminal(id: string): void {
    const entry = this.terminals.get(id);
    if (!entry) return;
    this.terminals.delete(id);
    this.sandboxes.get(entry.sandboxId)?.running.delete(id);
    try {
      entry.terminal.close();
    } catch {
      // Closing an already-dead terminal is fine.
    }
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    for (const id of [...this.terminals.keys()]) this.closeTerminal(id);
    for (const record of this.sandboxes.values()) {
      record.unsubscribe();
      if (record.changeTimer) clearTimeout(record.changeTimer);
      if (record.statsTimer) clearTimeout(record.statsTimer);
      await record.backend.dispose().catch(() => undefined);
    }
    this.sandboxes.clear();
    this.listeners.clear();
  }
}

function clampSize(n: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Math.floor(n)));
}
