/**
 * A response body as the gateway hands it out: the client's body chunks
 * (views of our HTTP/1.1 client's reused read buffer, copied only if they
 * must wait; slices of undici's socket reads for https) kept in a queue, and
 * the client paused once `highWater` bytes wait unread (then the socket
 * stops: the server is held back). Four ways to read it: `read(dst)` copies
 * synchronously into a caller's buffer (the net syscalls fill the channel's
 * data area with it), `drain(sink)` hands queued chunks to a sink uncopied,
 * `setTap(sink)` has arriving chunks handed to a waiting sink from inside the
 * client's read callback (the splice), and the async iterator yields them as
 * they came. Per chunk there is a count and a notify: no stream buffer, no
 * event emitter, no promise. This is the download path's hot loop.
 */
import { Notifier } from '../base/notifier.js';
import { NetError } from './denial.js';
import type { BodySink } from './node/dispatch.js';

export interface ResponseBodyHooks {
  /** Counts `n` received bytes against the limits; throws a NetError past one. */
  received(n: number): void;
  /** The body ended (null) or failed; called once. */
  ended(error: NetError | null): void;
  /** The reader stopped before the end: drop the connection. */
  abandoned(): void;
  /** Maps a stream error to the exchange's NetError. */
  toError(err: unknown): NetError;
}

/** A drain sink that copies into `dst`, from its start on. */
export function copyInto(dst: Uint8Array): (bytes: Uint8Array) => number {
  let at = 0;
  return (bytes) => {
    dst.set(bytes, at);
    at += bytes.length;
    return bytes.length;
  };
}

/**
 * How the body ends on the wire: its declared length, or null (chunked, or
 * at the connection's end). Pausing undici at the wrong moment crashes it
 * (undici 7 asserts in `Parser.finish` when the server closes the socket
 * while its parser is paused: nodejs/undici#5360, fixed in undici 8 only),
 * and whether a pause is safe depends on this.
 */
export interface BodyFraming {
  readonly length: number | null;
  /** Ends when the server closes the connection (no length, not chunked). */
  readonly untilClose: boolean;
}

/**
 * A body that ends at the connection's close is paused only past this much
 * held: every pause risks undici's crash when the close comes, so such a
 * body is allowed to run ahead further before the server is held back.
 */
export const UNTIL_CLOSE_HIGH_WATER = 32 * 1024 * 1024;
/** The end of a declared length that is never held back (see shouldPause). */
export const LENGTH_TAIL = 4 * 1024 * 1024;

/** What the body pulls on: undici's parser, read on after a pause. */
export interface BodySource {
  resume(): void;
}

export class ResponseBody implements AsyncIterableIterator<Uint8Array>, BodySink {
  /** Fires when `read` may now answer (bytes, the end or an error arrived). */
  readonly changed = new Notifier();
  private readonly chunks: Uint8Array[] = [];
  private chunkAt = 0;
  private held = 0;
  private done = false;
  private error: NetError | null = null;
  private paused = false;
  private received = 0;
  private tap: ((bytes: Uint8Array) => number) | null = null;

  constructor(
    private readonly src: BodySource,
    private readonly highWater: number,
    private readonly hooks: ResponseBodyHooks,
    private readonly framing: BodyFraming = { length: null, untilClose: false },
  ) {}

  /** Bytes waiting to be read. */
  get buffered(): number {
    return this.held;
  }

  /** True once every byte has been read and the body ended cleanly. */
  get atEnd(): boolean {
    return this.done && this.held === 0;
  }

  /** True once the body ended or failed (bytes may still wait to be read). */
  get finished(): boolean {
    return this.done || this.error !== null;
  }

  /** True when `read` would answer now: bytes, the end or an error are here. */
  get settled(): boolean {
    return this.held > 0 || this.done || this.error !== null;
  }

  /**
   * Copy body bytes into `dst`: the count, 0 at the end, or null when none
   * are buffered yet (wait for `changed`). Throws the body's NetError once
   * the bytes before it are read.
   */
  read(dst: Uint8Array): number | null {
    return this.drain(copyInto(dst), dst.length);
  }

  /**
   * Hand the buffered bytes to `sink` chunk by chunk, up to `max`, without
   * copying them: the sink takes a prefix of each (its count; less than
   * offered means it is full). The count moved, 0 at the end, or null when
   * nothing is buffered yet or the sink took nothing. Throws the body's
   * NetError once the bytes before it are gone.
   */
  drain(sink: (bytes: Uint8Array) => number | null, max: number): number | null {
    let n = 0;
    while (n < max && this.chunks.length > 0) {
      const c = this.chunks[0] as Uint8Array;
      const part = c.subarray(
        this.chunkAt,
        this.chunkAt + Math.min(max - n, c.length - this.chunkAt),
      );
      const took = sink(part);
      if (took === null || took === 0) break;
      n += took;
      this.chunkAt += took;
      if (this.chunkAt >= c.length) {
        this.chunks.shift();
        this.chunkAt = 0;
      }
      if (took < part.length) break;
    }
    this.took(n);
    if (n > 0 || max === 0) return n;
    if (this.chunks.length > 0) return null; // the sink is full
    if (this.error) throw this.error;
    return this.done ? 0 : null;
  }

  /** Fail the body from outside (cancelled, timed out) and drop what it held. */
  fail(error: NetError): void {
    this.chunks.length = 0;
    this.chunkAt = 0;
    this.held = 0;
    this.finish(error);
  }

  async next(): Promise<IteratorResult<Uint8Array>> {
    for (;;) {
      const c = this.chunks.shift();
      if (c) {
        const part = this.chunkAt > 0 ? c.subarray(this.chunkAt) : c;
        this.chunkAt = 0;
        this.took(part.length);
        return { done: false, value: part };
      }
      if (this.error) throw this.error;
      if (this.done) return { done: true, value: undefined };
      await this.changed.wait();
    }
  }

  /** The reader stopped (a `break` out of `for await`): drop the rest and the connection. */
  async return(): Promise<IteratorResult<Uint8Array>> {
    this.chunks.length = 0;
    this.chunkAt = 0;
    this.held = 0;
    if (!this.done && !this.error) {
      this.done = true;
      this.hooks.abandoned();
    }
    this.changed.notify();
    return { done: true, value: undefined };
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /**
   * A reader waiting with a sink (a blocked net_body_splice): chunks that
   * arrive while nothing is queued go to `tap` at once, inside the client's
   * read callback, instead of through the queue (no copy of a transient
   * chunk, no wake-up in between). `tap` answers how much it took; the rest
   * is queued. null removes it.
   */
  setTap(tap: ((bytes: Uint8Array) => number) | null): void {
    this.tap = tap;
  }

  /** A chunk from the client (BodySink); false pauses its reads. */
  data(chunk: Uint8Array, transient = false): boolean {
    // undici hands over an empty slice now and then (parsing resumed at a
    // chunk's end); queued, it would read as a full sink.
    if (this.done || this.error || chunk.length === 0) return !this.paused;
    try {
      this.hooks.received(chunk.length);
    } catch (err) {
      this.fail(err instanceof NetError ? err : this.hooks.toError(err));
      return true;
    }
    this.received += chunk.length;
    let rest = chunk;
    if (this.tap && this.chunks.length === 0) rest = chunk.subarray(this.tap(chunk));
    if (rest.length > 0) {
      this.chunks.push(transient ? rest.slice() : rest);
      this.held += rest.length;
      if (!this.paused && this.shouldPause()) this.paused = true;
    }
    this.changed.notify();
    return !this.paused;
  }

  /** The body ended cleanly (BodySink). */
  end(): void {
    this.finish(null);
  }

  /** undici failed the body (BodySink). */
  failed(err: unknown): void {
    this.finish(this.hooks.toError(err));
  }

  /**
   * Hold the server back? Past the high-water mark, except where undici
   * could crash (BodyFraming): its parser pauses on the chunk this answers
   * for; should that be the body's last and the server close the
   * connection, undici asserts. So a declared length is not paused within
   * LENGTH_TAIL of its end (at most that much more is held), and a body that
   * ends at the close only past UNTIL_CLOSE_HIGH_WATER. A chunked body is
   * safe: its terminator is still unread while the parser is paused.
   */
  private shouldPause(): boolean {
    const { length, untilClose } = this.framing;
    if (length !== null && length - this.received <= LENGTH_TAIL) return false;
    return this.held >= (untilClose ? UNTIL_CLOSE_HIGH_WATER : this.highWater);
  }

  private readonly resumeSource = (): void => {
    if (!this.paused && !this.done && !this.error) this.src.resume();
  };

  private took(n: number): void {
    this.held -= n;
    if (this.paused && this.held < this.highWater) {
      this.paused = false;
      // Not from here: undici's resume parses what its socket holds at once,
      // which would call `data` in the middle of a read (and undici asserts
      // when resumed from inside one of its own callbacks).
      queueMicrotask(this.resumeSource);
    }
  }

  private finish(error: NetError | null): void {
    if (this.done || this.error) return;
    if (error) this.error = error;
    else this.done = true;
    this.hooks.ended(error);
    this.changed.notify();
  }
}
