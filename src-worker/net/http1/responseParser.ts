/**
 * An HTTP/1.x response parser fed with the bytes of socket reads, for the
 * gateway's plain-http client (net/node/http1Connection.ts): the status line
 * and headers, 1xx heads skipped, then the body framed by Transfer-Encoding
 * chunked, Content-Length, or the connection's close, and no body at all for
 * HEAD, 204 and 304. Body bytes are handed on as views of the bytes fed in
 * (no copy): the reader must copy what it keeps past the call.
 */

export interface ResponseHead {
  readonly status: number;
  readonly statusText: string;
  /** From the status line: `1.1` or `1.0`. */
  readonly version: string;
  /** As received: name, value, name, value ... */
  readonly rawHeaders: string[];
}

export interface ParserEvents {
  /** The final (non-1xx) head. */
  head(head: ResponseHead): void;
  /** A view of body bytes, valid during the call only; false asks to stop reading. */
  data(bytes: Uint8Array): boolean;
  /** The body ended (its framing says so, or the close did). */
  end(): void;
}

/** How a response went wrong, as the gateway's failure reasons name it (net/denial.ts). */
export type ParseFailure = 'partial-body' | 'empty-reply' | 'bad-response' | 'not-http';

/** Bad bytes from the server, or too few: the exchange fails with this reason and message. */
export class HttpParseError extends Error {
  constructor(
    message: string,
    readonly reason: ParseFailure = 'bad-response',
  ) {
    super(message);
  }
}

/** Longest head (status line and headers) accepted, as curl's limit. */
export const MAX_HEAD_BYTES = 300 * 1024;
/** Longest chunk-size line or trailer block accepted. */
const MAX_LINE_BYTES = 16 * 1024;

type State = 'head' | 'length' | 'close' | 'size' | 'chunk' | 'chunk-end' | 'trailers' | 'done';

const STATUS_LINE = /^HTTP\/(\d)\.(\d) (\d{3})(?: ([^\r\n]*))?$/;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const latin1 = new TextDecoder('latin1');

export class ResponseParser {
  private state: State = 'head';
  /** The head so far (latin1), or a chunk-size line / trailers so far. */
  private text = '';
  /** Body bytes still due: of the Content-Length, or of the current chunk. */
  private left = 0;
  private paused = false;

  constructor(
    private readonly events: ParserEvents,
    /** The request's method: a HEAD response has no body. */
    private readonly method: string,
  ) {}

  /** True once the response is complete (nothing more is read). */
  get done(): boolean {
    return this.state === 'done';
  }

  /** True while the body ends only at the connection's close. */
  get untilClose(): boolean {
    return this.state === 'close';
  }

  /**
   * Parse `bytes`; returns false when a `data` call asked to stop reading.
   * Throws HttpParseError on a malformed response.
   */
  feed(bytes: Uint8Array): boolean {
    this.paused = false;
    let at = 0;
    while (at < bytes.length && this.state !== 'done') {
      switch (this.state) {
        case 'head':
          at = this.headBytes(bytes, at);
          break;
        case 'length': {
          const n = Math.min(this.left, bytes.length - at);
          this.left -= n;
          this.emit(bytes.subarray(at, at + n));
          at += n;
          if (this.left === 0) this.finish();
          break;
        }
        case 'close':
          this.emit(bytes.subarray(at));
          at = bytes.length;
          break;
        case 'size':
        case 'trailers':
        case 'chunk-end':
          at = this.lineBytes(bytes, at);
          break;
        case 'chunk': {
          const n = Math.min(this.left, bytes.length - at);
          this.left -= n;
          this.emit(bytes.subarray(at, at + n));
          at += n;
          if (this.left === 0) this.state = 'chunk-end';
          break;
        }
      }
    }
    return !this.paused;
  }

  /** Stop: nothing more is parsed or reported (the exchange was dropped). */
  abandon(): void {
    this.state = 'done';
  }

  /** The connection ended: a body that ends at the close is complete, anything else was cut short. */
  close(): void {
    switch (this.state) {
      case 'done':
        return;
      case 'close':
        this.finish();
        return;
      case 'head':
        if (this.text === '') throw new HttpParseError('Empty reply from server', 'empty-reply');
        throw new HttpParseError('connection closed inside the response head');
      case 'length':
        throw new HttpParseError(
          `transfer closed with ${this.left} bytes remaining to read`,
          'partial-body',
        );
      default:
        throw new HttpParseError(
          'transfer closed with outstanding read data remaining',
          'partial-body',
        );
    }
  }

  private emit(view: Uint8Array): void {
    if (view.length > 0 && !this.events.data(view)) this.paused = true;
  }

  private finish(): void {
    this.state = 'done';
    this.events.end();
  }

  /** Head bytes from `at`: returns where the body (or the next head) starts, or the end. */
  private headBytes(bytes: Uint8Array, at: number): number {
    const before = this.text.length;
    // Look for the blank line from just before the new bytes (it may straddle reads).
    this.text += latin1.decode(bytes.subarray(at));
    const from = Math.max(0, before - 3);
    const crlf = this.text.indexOf('\r\n\r\n', from);
    const lf = this.text.indexOf('\n\n', from);
    let end = -1;
    if (crlf >= 0 && (lf < 0 || crlf < lf)) end = crlf + 4;
    else if (lf >= 0) end = lf + 2;
    if (end < 0) {
      if (this.text.length > MAX_HEAD_BYTES) {
        throw new HttpParseError(`response head larger than ${MAX_HEAD_BYTES} bytes`);
      }
      if (!'HTTP/'.startsWith(this.text.slice(0, 5))) {
        throw new HttpParseError('the server did not answer with HTTP/1.x', 'not-http');
      }
      return bytes.length;
    }
    const head = this.text.slice(0, end);
    this.text = '';
    this.onHead(head);
    return at + (end - before);
  }

  private onHead(text: string): void {
    const lines = text.replace(/\r?\n\r?\n$/, '').split(/\r?\n/);
    const m = STATUS_LINE.exec(lines[0] ?? '');
    if (!m) {
      // curl's words: no status line is an HTTP/0.9 answer, which it refuses.
      throw new HttpParseError(`bad status line ${JSON.stringify(lines[0] ?? '')}`, 'not-http');
    }
    const version = `${m[1]}.${m[2]}`;
    if (m[1] !== '1') throw new HttpParseError(`unsupported HTTP version ${version}`);
    const status = Number(m[3]);
    const rawHeaders: string[] = [];
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i] as string;
      if (line[0] === ' ' || line[0] === '\t') {
        // An obsolete folded line continues the value before it.
        if (rawHeaders.length === 0) throw new HttpParseError('folded line before any header');
        const last = rawHeaders.length - 1;
        rawHeaders[last] = `${rawHeaders[last] as string} ${line.trim()}`;
        continue;
      }
      const colon = line.indexOf(':');
      const name = colon > 0 ? line.slice(0, colon) : '';
      if (!TOKEN.test(name)) throw new HttpParseError(`bad header line ${JSON.stringify(line)}`);
      rawHeaders.push(name, line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, ''));
    }
    if (status < 200) {
      // 100 Continue, 103 Early Hints: the response follows. A 101 is an
      // upgrade nobody asked for (the gateway owns Upgrade).
      if (status === 101) throw new HttpParseError('unexpected 101 Switching Protocols');
      return;
    }
    this.events.head({ status, statusText: m[4] ?? '', version, rawHeaders });
    this.frame(status, rawHeaders);
  }

  /** How the body after this head ends. */
  private frame(status: number, raw: string[]): void {
    if (this.state === 'done') return; // the head's reader dropped the exchange
    if (this.method.toUpperCase() === 'HEAD' || status === 204 || status === 304) {
      this.finish();
      return;
    }
    let te: string | null = null;
    let length: number | null = null;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = (raw[i] as string).toLowerCase();
      const value = raw[i + 1] as string;
      if (name === 'transfer-encoding') te = te === null ? value : `${te}, ${value}`;
      else if (name === 'content-length') {
        for (const part of value.split(',')) {
          const v = part.trim();
          if (!/^\d+$/.test(v))
            throw new HttpParseError(`bad Content-Length ${JSON.stringify(value)}`);
          const n = Number(v);
          if (length !== null && n !== length)
            throw new HttpParseError('conflicting Content-Length headers');
          length = n;
        }
      }
    }
    if (te !== null) {
      // Chunked only when it is the last coding; otherwise the close ends it.
      const codings = te
        .toLowerCase()
        .split(',')
        .map((c) => c.trim())
        .filter(Boolean);
      this.state = codings[codings.length - 1] === 'chunked' ? 'size' : 'close';
    } else if (length !== null) {
      this.left = length;
      this.state = 'length';
      if (length === 0) this.finish();
    } else {
      this.state = 'close';
    }
  }

  /** Bytes of a chunk-size line, a chunk's closing CRLF or the trailers. */
  private lineBytes(bytes: Uint8Array, at: number): number {
    while (at < bytes.length && this.state !== 'done') {
      const b = bytes[at++] as number;
      if (b !== 0x0a) {
        this.text += String.fromCharCode(b);
        if (this.text.length > MAX_LINE_BYTES)
          throw new HttpParseError('chunk framing line too long');
        continue;
      }
      const line = this.text.endsWith('\r') ? this.text.slice(0, -1) : this.text;
      this.text = '';
      if (this.state === 'chunk-end') {
        if (line !== '') throw new HttpParseError('missing CRLF after a chunk');
        this.state = 'size';
      } else if (this.state === 'trailers') {
        if (line === '') this.finish();
      } else {
        const size = line.split(';')[0]?.trim() ?? '';
        if (!/^[0-9a-fA-F]{1,13}$/.test(size)) {
          // curl's words, which curl prints.
          throw new HttpParseError('Illegal or missing hexadecimal sequence in chunked-encoding');
        }
        this.left = parseInt(size, 16);
        this.state = this.left === 0 ? 'trailers' : 'chunk';
        return at;
      }
    }
    return at;
  }
}
