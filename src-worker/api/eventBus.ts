/**
 * The event bus between the engine and its clients. A client (one transport
 * connection, or an in-process caller) has a role, `person` (the workbench)
 * or `agent`, and subscribes to the sandboxes it shows: sandbox events go only
 * to subscribers, the sandbox list to everyone. The engine can also put a
 * request (a question) to the clients allowed to answer it and await the
 * answer, a cancellation (the caller's signal: process killed; sandbox
 * destroyed; every answering client gone) or its policy's timeout. An agent
 * never answers a request raised by its own command.
 */
import type {
  ApiEvent,
  ClientRole,
  EngineRequest,
  NetworkApproval,
  RequestAnswer,
  RequestOutcome,
} from '../contract/api.js';
import { EngineError } from './errors.js';

export interface BusClient {
  readonly id: string;
  readonly role: ClientRole;
  subscribe(sandboxId: string): void;
  unsubscribe(sandboxId: string): void;
  isSubscribed(sandboxId: string): boolean;
  /** The sandboxes it is subscribed to. */
  subscriptions(): string[];
  /** Leaves the bus: its subscriptions end and requests it could answer lose it. */
  close(): void;
}

/** What the engine asks, and the policy that decides who answers and how long it waits. */
export interface AskOptions {
  sandboxId: string;
  kind: EngineRequest['kind'];
  title: string;
  detail: string;
  /** Roles allowed to answer (a network approval: people only). */
  answerers: readonly ClientRole[];
  /** The client whose command raised it; an agent origin never answers it. */
  originClientId?: string;
  /** Gives up after this long (the policy's timeout); none waits until answered or cancelled. */
  timeoutMs?: number;
  /** Aborted when whatever waits for the answer is gone (its process was killed). */
  signal?: AbortSignal;
  /** What a network approval is about (shown by the approval dialog). */
  network?: NetworkApproval;
}

export type AskResult =
  | { outcome: 'answered'; answer: RequestAnswer; clientId: string }
  | { outcome: 'cancelled'; reason: string }
  | { outcome: 'timedOut'; reason: string };

interface ClientRecord {
  readonly id: string;
  readonly role: ClientRole;
  readonly send: (event: ApiEvent) => void;
  readonly sandboxes: Set<string>;
  open: boolean;
}

interface OpenRequest {
  readonly request: EngineRequest;
  /** Clients it was addressed to and that are still there. */
  readonly answerers: Set<ClientRecord>;
  settle(result: AskResult): void;
}

export class EventBus {
  private readonly clients = new Map<string, ClientRecord>();
  private readonly requests = new Map<string, OpenRequest>();
  private nextClient = 1;
  private nextRequest = 1;

  constructor(private readonly now: () => number = Date.now) {}

  connect(role: ClientRole, send: (event: ApiEvent) => void): BusClient {
    const record: ClientRecord = {
      id: `client${this.nextClient++}`,
      role,
      send,
      sandboxes: new Set(),
      open: true,
    };
    this.clients.set(record.id, record);
    return {
      id: record.id,
      role,
      subscribe: (sandboxId) => {
        if (record.open) record.sandboxes.add(sandboxId);
      },
      unsubscribe: (sandboxId) => {
        record.sandboxes.delete(sandboxId);
        this.loseAnswerer(record, (r) => r.request.sandboxId === sandboxId);
      },
      isSubscribed: (sandboxId) => record.sandboxes.has(sandboxId),
      subscriptions: () => [...record.sandboxes],
      close: () => {
        if (!record.open) return;
        record.open = false;
        this.clients.delete(record.id);
        record.sandboxes.clear();
        this.loseAnswerer(record, () => true);
      },
    };
  }

  /** To every client (the sandbox list), or to every client of one role. */
  broadcast(event: ApiEvent, role?: ClientRole): void {
    for (const client of this.clients.values())
      if (role === undefined || client.role === role) deliver(client, event);
  }

  /** To the clients subscribed to a sandbox. */
  publish(sandboxId: string, event: ApiEvent): void {
    for (const client of this.clients.values())
      if (client.sandboxes.has(sandboxId)) deliver(client, event);
  }

  /** A sandbox is gone: its requests are cancelled and nobody stays subscribed to it. */
  dropSandbox(sandboxId: string): void {
    for (const open of [...this.requests.values()])
      if (open.request.sandboxId === sandboxId) open.settle(cancelled('the sandbox was destroyed'));
    for (const client of this.clients.values()) client.sandboxes.delete(sandboxId);
  }

  /** Puts a question to the clients allowed to answer it; resolves with how it ended. */
  ask(options: AskOptions): Promise<AskResult> {
    if (options.signal?.aborted) return Promise.resolve(cancelled('the requester is gone'));
    const answerers = new Set(
      [...this.clients.values()].filter(
        (c) =>
          c.sandboxes.has(options.sandboxId) &&
          options.answerers.includes(c.role) &&
          !(c.role === 'agent' && c.id === options.originClientId),
      ),
    );
    if (answerers.size === 0) return Promise.resolve(cancelled('no client can answer'));
    const raisedAt = this.now();
    const timeout = options.timeoutMs;
    const request: EngineRequest = {
      id: `req${this.nextRequest++}`,
      sandboxId: options.sandboxId,
      kind: options.kind,
      title: options.title,
      detail: options.detail,
      raisedAt,
      expiresAt: timeout !== undefined ? raisedAt + timeout : null,
      ...(options.network ? { network: options.network } : {}),
    };
    return new Promise<AskResult>((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const onAbort = (): void => settle(cancelled('the requester is gone'));
      const settle = (result: AskResult): void => {
        if (!this.requests.delete(request.id)) return;
        if (timer) clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        const reason =
          result.outcome === 'answered' ? `answered by ${result.clientId}` : result.reason;
        const closed: ApiEvent = {
          type: 'requestClosed',
          requestId: request.id,
          outcome: result.outcome satisfies RequestOutcome,
          reason,
        };
        for (const client of answerers) deliver(client, closed);
        resolve(result);
      };
      this.requests.set(request.id, { request, answerers, settle });
      options.signal?.addEventListener('abort', onAbort, { once: true });
      if (timeout !== undefined) {
        timer = setTimeout(
          () => settle({ outcome: 'timedOut', reason: `no answer within ${timeout} ms` }),
          timeout,
        );
        timer.unref?.();
      }
      for (const client of answerers) deliver(client, { type: 'request', request });
    });
  }

  /** A client's answer; only a client the request was addressed to may give it. */
  answer(clientId: string, requestId: string, answer: RequestAnswer): void {
    const open = this.requests.get(requestId);
    if (!open) throw new EngineError('ENOENT', `no open request ${JSON.stringify(requestId)}`);
    const client = [...open.answerers].find((c) => c.id === clientId);
    if (!client)
      throw new EngineError('EPERM', `request ${requestId} is not addressed to this client`);
    open.settle({ outcome: 'answered', answer, clientId });
  }

  /** The questions still open about one sandbox (what an agent's waiting call reports). */
  pendingFor(sandboxId: string): EngineRequest[] {
    return [...this.requests.values()]
      .filter((open) => open.request.sandboxId === sandboxId)
      .map((open) => open.request);
  }

  /** Requests still waiting (for tests and diagnostics). */
  get openRequests(): number {
    return this.requests.size;
  }

  /** Ends everything: open requests are cancelled, clients dropped. */
  dispose(): void {
    for (const open of [...this.requests.values()]) open.settle(cancelled('the engine shut down'));
    this.clients.clear();
  }

  private loseAnswerer(client: ClientRecord, which: (r: OpenRequest) => boolean): void {
    for (const open of [...this.requests.values()]) {
      if (!which(open) || !open.answerers.delete(client)) continue;
      if (open.answerers.size === 0)
        open.settle(cancelled('every client that could answer is gone'));
    }
  }
}

function cancelled(reason: string): AskResult {
  return { outcome: 'cancelled', reason };
}

function deliver(client: ClientRecord, event: ApiEvent): void {
  if (!client.open) return;
  try {
    client.send(event);
  } catch {
    // A failing transport must not stop delivery to the others.
  }
}
