/**
 * A response body as the gateway hands it out: undici's body stream read in
 * flowing mode into a queue of its own chunks, paused once `highWater` bytes
 * wait unread (then undici's buffer fills and the socket stops: the server is
 * held back). Two ways to read it: `read(dst)` copies synchronously into a
 * caller's buffer (the net syscalls fill the channel's data area with it, one
 * copy, no promise per chunk), and the async iterator yields the chunks as
 * they came. Reading through the stream's own iterator instead would join
 * its buffered chunks into a new buffer on every read and add two promises
 * per chunk; this is the download path's hot loop.
 */
import type { Readable } from 'node:stream';
import { Notifier } from '../base/notifier.js';
import { NetError } from './denial.js';

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

export class ResponseBody implements AsyncIterableIterator<Uint8Array> {
  /** Fires when `read` may now answer (bytes, the end or an error arrived). */
  readonly changed = new Notifier();
  private readonly chunks: Uint8Array[] = [];
  private chunkAt = 0;
  private held = 0;
  private done = false;
  private error: NetError | null = null;
  private paused = false;

  constructor(
    private readonly src: Readable,
    private readonly highWater: number,
    private readonly hooks: ResponseBodyHooks,
  ) {
    src.on('data', (chunk: Uint8Array) => this.onData(chunk));
    src.on('end', () => this.finish(null));
    src.on('error', (err: unknown) => this.finish(hooks.toError(err)));
  }

  /** Bytes waiting to be read. */
  get buffered(): number {
    return this.held;
  }

  /** True once every byte has been read and the body ended cleanly. */
  get atEnd(): boolean {
    return this.done && this.held === 0;
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
    let n = 0;
    while (n < dst.length && this.chunks.length > 0) {
      const c = this.chunks[0] as Uint8Array;
      const take = Math.min(dst.length - n, c.length - this.chunkAt);
      dst.set(c.subarray(this.chunkAt, this.chunkAt + take), n);
      n += take;
      this.chunkAt += take;
      if (this.chunkAt >= c.length) {
        this.chunks.shift();
        this.chunkAt = 0;
      }
    }
    this.took(n);
    if (n > 0 || dst.length === 0) return n;
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

  private onData(chunk: Uint8Array): void {
    if (this.done || this.error) return;
    try {
      this.hooks.received(chunk.length);
    } catch (err) {
      this.fail(err instanceof NetError ? err : this.hooks.toError(err));
      return;
    }
    this.chunks.push(chunk);
    this.held += chunk.length;
    if (this.held >= this.highWater && !this.paused) {
      this.paused = true;
      this.src.pause();
    }
    this.changed.notify();
  }

  private took(n: number): void {
    this.held -= n;
    if (this.paused && this.held < this.highWater) {
      this.paused = false;
      this.src.resume();
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
