/**
 * Plain-http hops on our own HTTP/1.1 client: a net.Socket connected to a
 * checked address (tried in order, no lookup), read with `onread` into one
 * buffer reused for every read, the response framed by ResponseParser. undici
 * reads each socket chunk into a fresh buffer and copies it again into its
 * parser's memory; here a body byte is handed to the sink as a view of the
 * read buffer, and the sink copies only what it keeps (a file or a pipe), so
 * a download to /dev/null costs a socket read and nothing more (docs/
 * benchmarks.md "Session 11"). The request goes out as undici would write it
 * (same header order and spelling, `connection: keep-alive`, chunked for a
 * stream of unknown length); one request per connection, closed after it.
 */
import net from 'node:net';
import { addressText, type IpAddress } from '../address.js';
import { NetError } from '../denial.js';
import { HttpParseError, ResponseParser, type ResponseHead } from '../http1/responseParser.js';
import { requestHead } from '../http1/requestHead.js';
import type { Connection, SendRequest } from './connection.js';
import type { BodySink, DispatchedResponse } from './dispatch.js';
import type { SocketEnd } from './pinnedAgent.js';

/** Bytes one socket read may fill (the reused buffer). */
export const READ_BUFFER_BYTES = 256 * 1024;

export interface Http1Options {
  addresses: IpAddress[];
  connectTimeoutMs: number;
  /** The port to connect to when it is not the URL's (curl --connect-to). */
  port?: number;
}

export function http1Connection(opts: Http1Options): Connection {
  return new Http1Connection(opts);
}

/** What the socket's reads go to: set once a request is sent. */
type OnBytes = (bytes: Uint8Array) => boolean;

class Http1Connection implements Connection {
  httpVersion = '1.1';
  local: SocketEnd | null = null;
  remote: SocketEnd | null = null;
  readonly pausesAnywhere = true;
  private socket: net.Socket | null = null;
  private onBytes: OnBytes = () => true;
  private onClosed: (err: Error | null) => void = () => {};
  private dropped = false;

  constructor(private readonly opts: Http1Options) {}

  async send(req: SendRequest, signal: AbortSignal): Promise<DispatchedResponse> {
    const port = this.opts.port ?? Number(req.url.port || 80);
    const socket = await this.connect(port, signal);
    return new Promise<DispatchedResponse>((resolve, reject) => {
      let headDone = false;
      let sink: BodySink | null = null;
      let early: Uint8Array[] | null = [];
      let ended = false;
      let failure: Error | null = null;
      const fail = (err: Error): void => {
        if (failure || ended) return;
        failure = err;
        parser.abandon();
        unlink();
        socket.destroy();
        if (!headDone) {
          headDone = true;
          reject(err);
        } else if (sink) sink.failed(err);
      };
      const onAbort = (): void => fail(signal.reason as Error);
      const unlink = (): void => signal.removeEventListener('abort', onAbort);
      const parser = new ResponseParser(
        {
          head: (h: ResponseHead) => {
            headDone = true;
            this.httpVersion = h.version;
            resolve(response(h));
          },
          data: (bytes) => {
            if (sink) return sink.data(bytes, true);
            early?.push(bytes.slice());
            return false; // hold the socket until someone reads
          },
          end: () => {
            ended = true;
            unlink();
            sink?.end();
          },
        },
        req.method,
      );
      const response = (h: ResponseHead): DispatchedResponse => ({
        statusCode: h.status,
        statusText: h.statusText,
        rawHeaders: h.rawHeaders.map((s) => Buffer.from(s, 'latin1')),
        attach(s) {
          const chunks = early ?? [];
          early = null;
          sink = s;
          let more = true;
          for (const c of chunks) more = s.data(c) && more;
          if (failure) s.failed(failure);
          else if (ended) s.end();
          else if (more) socket.resume();
        },
        resume: () => {
          if (!ended && !failure) socket.resume();
        },
        abort: (reason) => fail(reason),
      });
      this.onBytes = (bytes) => {
        try {
          return parser.feed(bytes);
        } catch (err) {
          fail(toTransferError(err));
          return false;
        }
      };
      this.onClosed = (err) => {
        if (err) {
          fail(toTransferError(err));
          return;
        }
        try {
          parser.close();
        } catch (e) {
          fail(toTransferError(e));
        }
      };
      if (signal.aborted) {
        onAbort();
        return;
      }
      signal.addEventListener('abort', onAbort, { once: true });
      void writeRequest(socket, req).catch((err: unknown) => {
        // A failed request body (its byte limit, its reader gone) ends the exchange.
        fail(err instanceof Error ? err : new Error(String(err)));
      });
    });
  }

  close(): void {
    this.destroy();
  }

  destroy(): void {
    this.dropped = true;
    this.socket?.destroy();
  }

  /** Connect to the checked addresses in turn; the connect timeout covers them all. */
  private async connect(port: number, signal: AbortSignal): Promise<net.Socket> {
    const deadline = Date.now() + this.opts.connectTimeoutMs;
    let last: unknown = new Error('no checked address');
    for (const address of this.opts.addresses) {
      if (this.dropped) break;
      try {
        return await this.connectOne(address, port, deadline, signal);
      } catch (err) {
        if (signal.aborted || (err as NodeJS.ErrnoException).code === 'ETIMEDOUT') throw err;
        last = err;
      }
    }
    throw last;
  }

  private connectOne(
    address: IpAddress,
    port: number,
    deadline: number,
    signal: AbortSignal,
  ): Promise<net.Socket> {
    // A plain Uint8Array, not a Buffer: readers copy with `slice`, which on a
    // Buffer would be a view of bytes the next read overwrites.
    const buffer = new Uint8Array(READ_BUFFER_BYTES);
    return new Promise<net.Socket>((resolve, reject) => {
      if (signal.aborted) {
        reject(signal.reason as Error);
        return;
      }
      const socket = net.connect({
        host: addressText(address),
        port,
        family: address.kind() === 'ipv6' ? 6 : 4,
        noDelay: true,
        onread: { buffer, callback: (n, buf) => this.onBytes(buf.subarray(0, n)) },
      });
      const done = (err: Error | null): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        socket.removeListener('error', done);
        socket.removeListener('connect', connected);
        if (err) {
          socket.destroy();
          reject(err);
        }
      };
      const connected = (): void => {
        done(null);
        this.socket = socket;
        this.local = socketEnd(socket.localAddress, socket.localPort);
        this.remote = socketEnd(socket.remoteAddress, socket.remotePort);
        let closed = false;
        const closedWith = (err: Error | null): void => {
          if (closed) return;
          closed = true;
          this.onClosed(err);
        };
        socket.on('error', (err) => closedWith(err));
        socket.on('end', () => closedWith(null));
        socket.on('close', () => closedWith(null));
        if (this.dropped) socket.destroy();
        resolve(socket);
      };
      const onAbort = (): void => done(signal.reason as Error);
      // ETIMEDOUT is what toNetError reads as the connect timeout.
      const timer = setTimeout(
        () => done(Object.assign(new Error('connect timed out'), { code: 'ETIMEDOUT' })),
        Math.max(0, deadline - Date.now()),
      );
      signal.addEventListener('abort', onAbort, { once: true });
      socket.once('error', done);
      socket.once('connect', connected);
    });
  }
}

function socketEnd(address: string | undefined, port: number | undefined): SocketEnd | null {
  return address && port !== undefined ? { address, port } : null;
}

/**
 * A failure after the connection was made: the transfer failed (curl's
 * 56), whatever the socket's code (an ECONNRESET now is not a failed
 * connect); toNetError adds the URL.
 */
function toTransferError(err: unknown): Error {
  if (err instanceof NetError || err instanceof HttpParseError) return err;
  return new Error(err instanceof Error ? err.message : String(err));
}

/** Write the head and the body as undici does (see requestHead). */
async function writeRequest(socket: net.Socket, req: SendRequest): Promise<void> {
  const plan = requestHead(req);
  const { body } = req;
  if (plan.kind === 'fixed' || body === null || body instanceof Uint8Array) {
    socket.cork();
    socket.write(plan.head, 'latin1');
    if (body instanceof Uint8Array && body.length > 0) socket.write(body);
    socket.uncork();
    return;
  }
  let sent = 0;
  for await (const chunk of body) {
    if (socket.destroyed) return;
    if (chunk.length === 0) continue;
    if (plan.length !== null && sent + chunk.length > plan.length) throw lengthMismatch();
    if (sent === 0) socket.write(plan.head, 'latin1');
    sent += chunk.length;
    let ok: boolean;
    if (plan.chunked) {
      socket.write(`${chunk.length.toString(16)}\r\n`, 'latin1');
      socket.write(chunk);
      ok = socket.write('\r\n', 'latin1');
    } else ok = socket.write(chunk);
    if (!ok) await drained(socket);
  }
  if (socket.destroyed) return;
  if (sent === 0) socket.write(plan.emptyHead, 'latin1');
  else if (plan.chunked) socket.write('0\r\n\r\n', 'latin1');
  else if (sent !== plan.length) throw lengthMismatch();
}

function lengthMismatch(): Error {
  return new Error('request body length does not match its Content-Length');
}

function drained(socket: net.Socket): Promise<void> {
  return new Promise<void>((resolve) => {
    const go = (): void => {
      socket.removeListener('drain', go);
      socket.removeListener('close', go);
      resolve();
    };
    socket.once('drain', go);
    socket.once('close', go);
  });
}
