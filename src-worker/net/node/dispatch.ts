/**
 * One HTTP exchange on an undici dispatcher through its low-level handler
 * API (`dispatch(opts, handler)`) rather than `request()`: the response body
 * is not a Readable stream. undici calls `onResponseData` with each slice of
 * a socket read and nothing else happens per chunk: no stream buffer, no
 * 'data' event, no promise. The consumer pauses the parser from inside its
 * `data` callback (undici then stops reading the socket: back-pressure to
 * the server) and resumes it when it has room again.
 */
import type { Dispatcher } from 'undici';

/**
 * Where the body goes once the head is in; `data` returns false to pause.
 * A `transient` chunk is a view of a buffer the client reuses: valid during
 * the call only, so what the sink keeps it copies.
 */
export interface BodySink {
  data(chunk: Uint8Array, transient?: boolean): boolean;
  end(): void;
  failed(err: unknown): void;
}

export interface DispatchedResponse {
  readonly statusCode: number;
  readonly statusText: string;
  /** As received: name, value, name, value ... */
  readonly rawHeaders: Buffer[];
  /**
   * Deliver the body to `sink` from now on. Whatever arrived with or after
   * the head before this call is handed over first (undici parses a small
   * body in the same socket read as the head).
   */
  attach(sink: BodySink): void;
  /** Read on after a pause (no effect unless paused). */
  resume(): void;
  /** Drop the exchange: undici closes the connection. */
  abort(reason: Error): void;
}

type Early = { chunks: Uint8Array[]; end: boolean; error: unknown };

/**
 * Send `opts` on `dispatcher`; resolves at the response head, rejects with
 * undici's error or the signal's reason (then the connection is dropped).
 */
export function dispatch(
  dispatcher: Dispatcher,
  opts: Dispatcher.DispatchOptions,
  signal: AbortSignal,
): Promise<DispatchedResponse> {
  return new Promise<DispatchedResponse>((resolve, reject) => {
    let controller: Dispatcher.DispatchController | null = null;
    let sink: BodySink | null = null;
    let early: Early | null = { chunks: [], end: false, error: null };
    let headDone = false;
    const onAbort = (): void => {
      const reason = signal.reason as Error;
      controller?.abort(reason);
      if (!headDone) {
        headDone = true;
        reject(reason);
      }
    };
    const unlink = (): void => signal.removeEventListener('abort', onAbort);
    const fail = (err: unknown): void => {
      unlink();
      if (!headDone) {
        headDone = true;
        reject(err);
      } else if (sink) sink.failed(err);
      else if (early) early.error = err;
    };
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(c) {
        controller = c;
        if (signal.aborted) c.abort(signal.reason as Error);
      },
      onResponseStart(c, statusCode, _headers, statusMessage) {
        // 1xx heads (100 Continue, 103 Early Hints) are not the response.
        if (statusCode < 200) return;
        headDone = true;
        resolve({
          statusCode,
          statusText: statusMessage ?? '',
          rawHeaders: (c.rawHeaders ?? []) as Buffer[],
          attach(s) {
            const e = early;
            early = null;
            sink = s;
            if (!e) return;
            for (const chunk of e.chunks) if (!s.data(chunk)) c.pause();
            if (e.error !== null) s.failed(e.error);
            else if (e.end) s.end();
          },
          resume: () => c.resume(),
          abort: (reason) => {
            unlink();
            c.abort(reason);
          },
        });
      },
      onResponseData(c, chunk) {
        if (sink) {
          if (!sink.data(chunk)) c.pause();
        } else early?.chunks.push(chunk);
      },
      onResponseEnd() {
        unlink();
        if (sink) sink.end();
        else if (early) early.end = true;
      },
      onResponseError(_c, err) {
        fail(err);
      },
    };
    if (signal.aborted) {
      reject(signal.reason as Error);
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    dispatcher.dispatch(opts, handler);
  });
}
