/**
 * Who is connected: every client of the engine with its name, transport and
 * since when, for the Agents view. A person can pause an agent (its next call
 * waits at the door until resumed), resume it, or stop it (its running
 * commands are killed, its waiting calls fail, its transport is closed).
 * Changes are reported through `onChange`, coalesced, so a busy agent does not
 * flood the workbench with client lists.
 */
import type { ClientInfo, ClientRole } from '../contract/api.js';
import { EngineError } from './errors.js';
import type { BusClient } from './eventBus.js';

/** What a transport says about its client when it connects. */
export interface ClientMeta {
  /** What the client calls itself until it says otherwise (`hello`); default: the transport. */
  readonly name?: string;
  /** `ipc`, `websocket`, `jsonrpc-stdio`, `jsonrpc-websocket`, `mcp-stdio`, `mcp-http`... */
  readonly transport?: string;
  /** Closes the transport's connection: called when a person stops the client. */
  readonly disconnect?: () => void;
}

interface Waiter {
  resolve(): void;
  reject(err: Error): void;
}

interface ClientState {
  readonly bus: BusClient;
  name: string;
  readonly transport: string;
  readonly since: number;
  readonly disconnect: (() => void) | undefined;
  paused: boolean;
  calls: number;
  /** Commands running for it, each with the controller that kills it. */
  readonly running: Map<object, { command: string; abort: AbortController }>;
  /** Calls waiting for it to be resumed. */
  readonly waiting: Set<Waiter>;
}

/** How long change reports are coalesced. */
const REPORT_DELAY_MS = 50;

export class ClientRegistry {
  private readonly clients = new Map<string, ClientState>();
  private reportTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly onChange: (clients: ClientInfo[]) => void,
    private readonly now: () => number = Date.now,
  ) {}

  add(bus: BusClient, meta: ClientMeta = {}): void {
    const transport = meta.transport ?? 'in-process';
    this.clients.set(bus.id, {
      bus,
      name: meta.name ?? transport,
      transport,
      since: this.now(),
      disconnect: meta.disconnect,
      paused: false,
      calls: 0,
      running: new Map(),
      waiting: new Set(),
    });
    this.changed();
  }

  /** The client left: calls still waiting for a resume fail. */
  remove(clientId: string): void {
    const state = this.clients.get(clientId);
    if (!state) return;
    this.clients.delete(clientId);
    const gone = new EngineError('ECONNRESET', 'the client disconnected');
    for (const waiter of state.waiting) waiter.reject(gone);
    state.waiting.clear();
    for (const run of state.running.values()) run.abort.abort();
    this.changed();
  }

  rename(clientId: string, name: string): void {
    const state = this.clients.get(clientId);
    if (!state) return;
    state.name = name;
    this.changed();
  }

  list(): ClientInfo[] {
    return [...this.clients.values()].map((c) => ({
      id: c.bus.id,
      role: c.bus.role,
      name: c.name,
      transport: c.transport,
      since: c.since,
      sandboxes: c.bus.subscriptions(),
      paused: c.paused,
      calls: c.calls,
      running: [...c.running.values()].at(-1)?.command ?? null,
    }));
  }

  /** Lets a call through, waiting while its client is paused; counts it. */
  async admit(clientId: string): Promise<void> {
    const state = this.clients.get(clientId);
    if (!state) return;
    if (state.paused)
      await new Promise<void>((resolve, reject) => state.waiting.add({ resolve, reject }));
    state.calls++;
    this.changed();
  }

  pause(clientId: string): void {
    const state = this.target(clientId);
    state.paused = true;
    this.changed();
  }

  resume(clientId: string): void {
    const state = this.target(clientId);
    state.paused = false;
    for (const waiter of state.waiting) waiter.resolve();
    state.waiting.clear();
    this.changed();
  }

  /** Stops a client: kills what it runs, fails its waiting calls, closes its transport. */
  disconnect(clientId: string): void {
    const state = this.target(clientId);
    const stopped = new EngineError('ECONNRESET', 'the client was stopped by a person');
    for (const waiter of state.waiting) waiter.reject(stopped);
    state.waiting.clear();
    for (const run of state.running.values()) run.abort.abort();
    state.bus.close();
    this.remove(clientId);
    state.disconnect?.();
  }

  /** Records a command a client runs; abort of the signal kills it. Call `done` when it ends. */
  track(clientId: string, command: string): { signal: AbortSignal; done(): void } {
    const abort = new AbortController();
    const state = this.clients.get(clientId);
    if (!state) return { signal: abort.signal, done: () => undefined };
    const key = {};
    state.running.set(key, { command, abort });
    this.changed();
    return {
      signal: abort.signal,
      done: () => {
        state.running.delete(key);
        this.changed();
      },
    };
  }

  /** Role of a connected client, or undefined. */
  roleOf(clientId: string): ClientRole | undefined {
    return this.clients.get(clientId)?.bus.role;
  }

  /** Schedules one report of the client list (many changes in a burst give one report). */
  changed(): void {
    if (this.reportTimer) return;
    this.reportTimer = setTimeout(() => {
      this.reportTimer = undefined;
      this.onChange(this.list());
    }, REPORT_DELAY_MS);
    this.reportTimer.unref?.();
  }

  dispose(): void {
    if (this.reportTimer) clearTimeout(this.reportTimer);
    this.reportTimer = undefined;
    for (const id of [...this.clients.keys()]) this.remove(id);
    if (this.reportTimer) clearTimeout(this.reportTimer);
  }

  private target(clientId: string): ClientState {
    const state = this.clients.get(clientId);
    if (!state) throw new EngineError('ENOENT', `no client ${JSON.stringify(clientId)}`);
    if (state.bus.role !== 'agent')
      throw new EngineError('EPERM', `client ${clientId} is a person, not an agent`);
    return state;
  }
}
