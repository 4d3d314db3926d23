/**
 * One request's life inside the gateway: its limits, its pausable deadline,
 * its cancellation, the bytes it moved, the audit record of each hop, and the
 * mapping of whatever went wrong to a NetError.
 */
import type { AuditRecord } from './audit.js';
import { PausableTimer } from '../base/pausableTimer.js';
import { NetError, oneLine } from './denial.js';
import { HttpParseError } from './http1/responseParser.js';
import type { GatewayLimits } from './limits.js';

/** One request from start to the end of its body: limits, clock, cancellation. */
export class Exchange {
  readonly ctl = new AbortController();
  readonly deadline: PausableTimer;
  approvalWaitMs = 0;
  sent = 0;
  received = 0;
  private unlink: () => void = () => {};

  constructor(
    readonly limits: GatewayLimits,
    readonly budget: { used: number; max: number },
    readonly url: string,
    signal?: AbortSignal,
  ) {
    this.deadline = new PausableTimer(limits.totalTimeoutMs, () =>
      this.ctl.abort(
        new NetError('timeout', `operation timed out after ${limits.totalTimeoutMs} ms`, {
          url,
          rule: 'totalTimeoutMs',
        }),
      ),
    );
    const outer = signal;
    if (outer) {
      const cancel = (): void =>
        this.ctl.abort(new NetError('cancelled', 'request cancelled', { url }));
      if (outer.aborted) cancel();
      outer.addEventListener('abort', cancel, { once: true });
      this.unlink = () => outer.removeEventListener('abort', cancel);
    }
  }

  get signal(): AbortSignal {
    return this.ctl.signal;
  }

  /** Throws the abort reason if the exchange was cancelled or timed out. */
  check(): void {
    if (this.ctl.signal.aborted) throw this.ctl.signal.reason as Error;
  }

  count(direction: 'sent' | 'received', n: number): void {
    const max = direction === 'sent' ? this.limits.maxRequestBytes : this.limits.maxResponseBytes;
    const total = this[direction] + n;
    if (total > max) {
      throw new NetError(
        'byte-limit',
        `${direction === 'sent' ? 'request' : 'response'} body exceeds the limit of ${max} bytes`,
        { url: this.url, rule: direction === 'sent' ? 'maxRequestBytes' : 'maxResponseBytes' },
      );
    }
    if (this.budget.used + n > this.budget.max) {
      throw new NetError(
        'byte-limit',
        `the sandbox's network budget of ${this.budget.max} bytes is used up`,
        {
          url: this.url,
          rule: 'maxSandboxBytes',
        },
      );
    }
    this[direction] = total;
    this.budget.used += n;
  }

  dispose(): void {
    this.deadline.cancel();
    this.unlink();
  }
}

/** The audit record of one hop, finished exactly once. */
export class HopAudit {
  private readonly started = Date.now();
  private readonly sentBefore: number;
  private readonly receivedBefore: number;
  private readonly waitBefore: number;
  private done = false;
  readonly record: AuditRecord;

  constructor(
    private readonly ex: Exchange,
    private readonly emit: ((r: AuditRecord) => void) | undefined,
    base: Pick<AuditRecord, 'sandboxId' | 'pid' | 'argv' | 'stepId' | 'hop' | 'url' | 'method'>,
  ) {
    this.sentBefore = ex.sent;
    this.receivedBefore = ex.received;
    this.waitBefore = ex.approvalWaitMs;
    this.record = {
      ...base,
      time: new Date(this.started).toISOString(),
      decision: 'deny',
      decidedBy: 'policy',
      rule: null,
      reason: null,
      message: null,
      addresses: [],
      status: null,
      bytesSent: 0,
      bytesReceived: 0,
      durationMs: 0,
      approvalWaitMs: 0,
    };
  }

  finish(error: NetError | null): void {
    if (this.done) return;
    this.done = true;
    const r = this.record;
    if (error) {
      r.reason = error.reason;
      r.message = error.message;
      if (error.denied) {
        r.decision = 'deny';
        r.decidedBy = error.decidedBy;
        r.rule = error.rule;
      }
    }
    r.bytesSent = this.ex.sent - this.sentBefore;
    r.bytesReceived = this.ex.received - this.receivedBefore;
    r.approvalWaitMs = this.ex.approvalWaitMs - this.waitBefore;
    r.durationMs = Date.now() - this.started - r.approvalWaitMs;
    try {
      this.emit?.(r);
    } catch {
      // An audit sink that throws must not break the request it records.
    }
  }
}

/** Settles like `p`, or rejects with the signal's reason as soon as it aborts. */
export function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

const TLS_CODES = /^(CERT_|ERR_TLS_|ERR_SSL_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_(GET|VERIFY))/;
const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNRESET',
  'EADDRNOTAVAIL',
]);

/** Any failure as a NetError with a reason the syscalls can map to an errno. */
export function toNetError(
  err: unknown,
  ex: Exchange,
  url: string,
  limits: GatewayLimits,
  /** The head had arrived: a close now cut the body short. */
  inBody = false,
): NetError {
  if (err instanceof NetError) return err;
  if (ex.signal.aborted && ex.signal.reason instanceof NetError) return ex.signal.reason;
  for (
    let e = err as (Error & { code?: string; cause?: unknown }) | undefined;
    e;
    e = e.cause as typeof e
  ) {
    if (e instanceof NetError) return e;
    if (e instanceof HttpParseError) return new NetError(e.reason, e.message, { url });
    const code = typeof e.code === 'string' ? e.code : '';
    // undici's, or ours (net/node/http1Connection.ts) and the system's.
    if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT') {
      return new NetError('timeout', `connection timed out after ${limits.connectTimeoutMs} ms`, {
        url,
        rule: 'connectTimeoutMs',
      });
    }
    if (TLS_CODES.test(code)) {
      return new NetError('tls-failed', `TLS: ${oneLine(e.message)}`, { url });
    }
    if (code === 'UND_ERR_SOCKET' && e.message === 'other side closed') {
      // undici's words for the close our own parser tells apart (curl's 52 and 18).
      return inBody
        ? new NetError('partial-body', 'transfer closed with outstanding read data remaining', {
            url,
          })
        : new NetError('empty-reply', 'Empty reply from server', { url });
    }
    if (CONNECT_CODES.has(code)) {
      return new NetError('connect-failed', `could not connect: ${code}`, { url });
    }
  }
  const message = oneLine(err instanceof Error ? err.message : String(err));
  return new NetError('transfer-failed', message, { url });
}
