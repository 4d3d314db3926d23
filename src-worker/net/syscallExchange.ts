/**
 * One exchange as a process sees it through the net syscalls: the gateway
 * request started by `net_request`, the request body fed by
 * `net_body_write`, the head awaited by `net_response` and the body pulled
 * by `net_body_read`. Nothing here blocks: each call answers now or says
 * "not yet" (null), and `changed` fires when trying again may succeed, so
 * the kernel's blocking (with EINTR on a caught signal) stays the kernel's.
 */
import { Errno, KernelError } from '../base/errno.js';
import { Notifier } from '../base/notifier.js';
import { NetError } from './denial.js';
import type { NetResponse, NetworkGateway, RequestContext } from './gateway.js';
import { encodeNetError, encodeNetHead, NET_FLAGS, netErrno, type NetWireRequest } from './wire.js';

/** Request body bytes queued ahead of the gateway before a writer blocks. */
export const BODY_HIGH_WATER = 1024 * 1024;
/** Response body bytes read ahead of the program (one net_body_read's worth). */
export const BODY_READ_AHEAD = 1024 * 1024;

export interface ExchangeStart {
  readonly gateway: NetworkGateway;
  readonly request: NetWireRequest;
  readonly context: RequestContext;
  /** The process started (true) or stopped (false) waiting for a person. */
  readonly onApprovalWait?: (waiting: boolean) => void;
}

/** What `net_response` answers: the head, or the error record with its errno. */
export type HeadResult =
  | { readonly ok: true; readonly bytes: Uint8Array }
  | { readonly ok: false; readonly errno: Errno; readonly bytes: Uint8Array };

export class SyscallExchange {
  /** Fires whenever a blocked call may now succeed. */
  readonly changed = new Notifier();
  private readonly ctl = new AbortController();
  private response: NetResponse | null = null;
  private error: NetError | null = null;
  private closed = false;
  // Request body, when streamed.
  private readonly queue: Uint8Array[] = [];
  private queued = 0;
  private bodyEnded: boolean;
  private bodyWake: (() => void) | null = null;
  // Response body read ahead of the program, up to BODY_READ_AHEAD bytes, so
  // one net_body_read can fill its whole buffer; past that the socket's own
  // back-pressure applies while the program does not read.
  private readonly chunks: Uint8Array[] = [];
  private chunkAt = 0;
  private held = 0;
  private bodyDone = false;
  private pulling = false;
  private approving = false;

  constructor(start: ExchangeStart) {
    const r = start.request;
    const streamed = (r.flags & NET_FLAGS.streamedBody) !== 0;
    this.bodyEnded = !streamed;
    const body = streamed ? this.requestBody() : r.body.length > 0 ? r.body : null;
    start.gateway
      .request({
        url: r.url,
        method: r.method,
        headers: r.headers,
        body,
        followRedirects: (r.flags & NET_FLAGS.followRedirects) !== 0,
        ...(r.maxRedirects ? { maxRedirects: r.maxRedirects } : {}),
        ...(r.timeoutMs ? { timeoutMs: r.timeoutMs } : {}),
        ...(r.connectTimeoutMs ? { connectTimeoutMs: r.connectTimeoutMs } : {}),
        ...(r.maxResponseBytes ? { maxResponseBytes: r.maxResponseBytes } : {}),
        context: start.context,
        signal: this.ctl.signal,
        onApprovalWait: (waiting: boolean) => {
          this.approving = waiting;
          start.onApprovalWait?.(waiting);
        },
      })
      .then(
        (res) => {
          if (this.closed) res.close();
          else this.response = res;
          this.changed.notify();
        },
        (err: unknown) => this.fail(err),
      );
  }

  /** The gateway's error for this exchange, if it failed or was denied. */
  get failure(): NetError | null {
    return this.error;
  }

  /** True while a person is being asked about this exchange. */
  get awaitingApproval(): boolean {
    return this.approving;
  }

  /** Accept request body bytes: how many, or null when the queue is full (block). */
  writeBody(data: Uint8Array): number | null {
    this.throwIfFailed();
    if (this.bodyEnded) throw new KernelError(Errno.EINVAL, 'request body already ended');
    if (data.length === 0) {
      this.bodyEnded = true;
      this.wakeBody();
      return 0;
    }
    // After the head arrived nobody may pull any more: the rest is dropped.
    if (this.response) return data.length;
    if (this.queued >= BODY_HIGH_WATER) return null;
    this.queue.push(data.slice());
    this.queued += data.length;
    this.wakeBody();
    return data.length;
  }

  /** The response head or the error record; null while neither has arrived. */
  head(): HeadResult | null {
    if (this.error) {
      return { ok: false, errno: netErrno(this.error.reason), bytes: encodeNetError(this.error) };
    }
    const res = this.response;
    if (!res) return null;
    return {
      ok: true,
      bytes: encodeNetHead({
        status: res.status,
        redirects: res.redirects,
        statusText: res.statusText,
        url: res.url,
        address: res.addresses[0] ?? '',
        headers: res.headers,
      }),
    };
  }

  /**
   * Copy response body bytes into `dst`: the count, 0 at the end, or null
   * when nothing is buffered yet (block). Throws the errno of a failure.
   */
  readBody(dst: Uint8Array): number | null {
    let n = 0;
    while (n < dst.length && this.chunks.length > 0) {
      const c = this.chunks[0] as Uint8Array;
      const take = Math.min(dst.length - n, c.length - this.chunkAt);
      dst.set(c.subarray(this.chunkAt, this.chunkAt + take), n);
      n += take;
      this.chunkAt += take;
      this.held -= take;
      if (this.chunkAt >= c.length) {
        this.chunks.shift();
        this.chunkAt = 0;
      }
    }
    const res = this.response;
    if (res && !this.pulling && !this.bodyDone && !this.error) this.pull(res);
    if (n > 0 || dst.length === 0) return n;
    this.throwIfFailed();
    if (this.bodyDone) return 0;
    return null;
  }

  /** End the exchange: a pending request is cancelled, an unread body dropped. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.bodyEnded = true;
    this.wakeBody();
    if (this.response) this.response.close();
    else this.ctl.abort(new NetError('cancelled', 'request cancelled'));
    this.chunks.length = 0;
    this.held = 0;
    this.changed.notify();
  }

  /** Read ahead until BODY_READ_AHEAD bytes are held or the body ends. */
  private pull(res: NetResponse): void {
    if (this.held >= BODY_READ_AHEAD || this.closed) return;
    this.pulling = true;
    res.body.next().then(
      (r) => {
        this.pulling = false;
        if (r.done) this.bodyDone = true;
        else if (r.value.length > 0 && !this.closed) {
          this.chunks.push(r.value);
          this.held += r.value.length;
        }
        this.changed.notify();
        if (!r.done) this.pull(res);
      },
      (err: unknown) => {
        this.pulling = false;
        this.fail(err);
      },
    );
  }

  private fail(err: unknown): void {
    this.error =
      err instanceof NetError
        ? err
        : new NetError('transfer-failed', err instanceof Error ? err.message : String(err));
    this.changed.notify();
  }

  private throwIfFailed(): void {
    if (this.error) throw new KernelError(netErrno(this.error.reason), this.error.message);
  }

  private wakeBody(): void {
    const w = this.bodyWake;
    this.bodyWake = null;
    w?.();
  }

  /** The streamed request body as the gateway pulls it. */
  private async *requestBody(): AsyncGenerator<Uint8Array> {
    for (;;) {
      const next = this.queue.shift();
      if (next) {
        this.queued -= next.length;
        this.changed.notify();
        yield next;
        continue;
      }
      if (this.bodyEnded) return;
      await new Promise<void>((resolve) => (this.bodyWake = resolve));
    }
  }
}
