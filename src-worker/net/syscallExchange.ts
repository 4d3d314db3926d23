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
import { decodeBrotli, isBrotliEncoded, type DecodedBody } from './brotliBody.js';
import { RESPONSE_HIGH_WATER } from './gateway.js';
import { copyInto, type ResponseBody } from './responseBody.js';
import { encodeNetError, encodeNetHead, NET_FLAGS, netErrno, type NetWireRequest } from './wire.js';

/** Request body bytes queued ahead of the gateway before a writer blocks. */
export const BODY_HIGH_WATER = 1024 * 1024;

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
  /** The body the program reads: the response's, or its brotli decoding. */
  private body: ResponseBody | null = null;
  private decoder: DecodedBody | null = null;
  private error: NetError | null = null;
  private closed = false;
  // Request body, when streamed.
  private readonly queue: Uint8Array[] = [];
  private queued = 0;
  private bodyEnded: boolean;
  private bodyWake: (() => void) | null = null;
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
        ...(r.connectTo ? { connectTo: r.connectTo } : {}),
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
          else {
            this.response = res;
            if ((r.flags & NET_FLAGS.decodeBrotli) !== 0 && isBrotliEncoded(res.headers)) {
              this.decoder = decodeBrotli(res.body, RESPONSE_HIGH_WATER);
            }
            this.body = this.decoder?.body ?? res.body;
            // The gateway reads the body ahead of the program (see
            // RESPONSE_HIGH_WATER); a reader blocked on it wakes with it.
            this.body.changed.once(this.wakeReader);
          }
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
        // The address the socket connected to, else the first one checked.
        address: res.remote?.address ?? res.addresses[0] ?? '',
        headers: res.headers,
        httpVersion: res.httpVersion,
        localAddress: res.local?.address ?? '',
        localPort: res.local?.port ?? 0,
      }),
    };
  }

  /**
   * Copy response body bytes into `dst`: the count, 0 at the end, or null
   * when nothing is buffered yet (block). Throws the errno of a failure.
   */
  readBody(dst: Uint8Array): number | null {
    return this.spliceBody(copyInto(dst), dst.length);
  }

  /**
   * Hand response body bytes to `sink` (ResponseBody.drain): the count, 0
   * at the end, or null when none are buffered or the sink is full (block).
   * Throws the errno of a failure, and what the sink throws.
   */
  spliceBody(sink: (bytes: Uint8Array) => number | null, max: number): number | null {
    this.throwIfFailed();
    const body = this.body;
    if (!body) return null;
    let n;
    try {
      n = body.drain(sink, max);
    } catch (err) {
      if (!(err instanceof NetError)) throw err; // the sink's (EPIPE, ENOSPC, ...)
      this.fail(err);
      this.throwIfFailed();
      return null;
    }
    return n;
  }

  /**
   * While a caller waits with `sink`, body bytes that arrive go to it
   * directly (ResponseBody.setTap); returns the function that stops that.
   */
  tapBody(sink: (bytes: Uint8Array) => number): () => void {
    const body = this.body; // a decoded body's, not the raw one's
    if (!body || this.closed) return () => {};
    body.setTap(sink);
    return () => body.setTap(null);
  }

  /**
   * The body bytes that came with the head, without blocking: copied into
   * `dst` up to its length, and whether that was the whole body. Waits one
   * turn of the event loop first if none are here yet, so that a small body
   * arriving in the same packet as the head (undici parses both in one go,
   * then hands out the body a tick later) rides along with the head.
   */
  async bodyWithHead(dst: Uint8Array): Promise<{ n: number; end: boolean }> {
    const body = this.body;
    if (!body || dst.length === 0) return { n: 0, end: false };
    if (!body.settled) await new Promise<void>((resolve) => setImmediate(resolve));
    if (this.closed) return { n: 0, end: false };
    let n = 0;
    try {
      n = body.read(dst) ?? 0;
    } catch {
      // A failure right after the head: the next read reports it.
    }
    return { n, end: body.atEnd };
  }

  /** End the exchange: a pending request is cancelled, an unread body dropped. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.bodyEnded = true;
    this.wakeBody();
    this.decoder?.close();
    if (this.response) this.response.close();
    else this.ctl.abort(new NetError('cancelled', 'request cancelled'));
    this.changed.notify();
  }

  /** Body bytes, its end or its failure arrived: wake a blocked reader, keep listening. */
  private readonly wakeReader = (): void => {
    if (this.closed || !this.body) return;
    this.changed.notify();
    this.body.changed.once(this.wakeReader);
  };

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
