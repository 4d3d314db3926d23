/**
 * One hop's connection to the checked addresses, whichever client speaks on
 * it: our own HTTP/1.1 client for plain http (http1Connection.ts: socket
 * reads into one reused buffer, framing parsed here), undici for https
 * (undiciConnection.ts: TLS and certificate checks). The gateway sends one
 * request on it and drops it when the body is done.
 */
import type { HeaderList } from '../headers.js';
import type { DispatchedResponse } from './dispatch.js';
import type { SocketEnd } from './pinnedAgent.js';

export interface SendRequest {
  readonly url: URL;
  readonly method: string;
  /** Checked headers (no Host: the client writes the URL's own). */
  readonly headers: HeaderList;
  /** A buffer, or a stream read once with back-pressure. */
  readonly body: Uint8Array | AsyncIterable<Uint8Array> | null;
}

export interface Connection {
  /** Resolves at the response head; rejects with the client's error or the signal's reason. */
  send(req: SendRequest, signal: AbortSignal): Promise<DispatchedResponse>;
  /** The status line's HTTP version (`1.1` until a response came). */
  readonly httpVersion: string;
  /** The socket's two ends, once connected. */
  readonly local: SocketEnd | null;
  readonly remote: SocketEnd | null;
  /**
   * True when pausing the body is safe at any byte; undici's is not near a
   * body's end (see BodyFraming in responseBody.ts).
   */
  readonly pausesAnywhere: boolean;
  /** Done with it after a complete response. */
  close(): void;
  /** Drop it now (failure, an abandoned body). */
  destroy(): void;
}
