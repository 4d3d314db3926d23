/// <reference lib="es2024.sharedmemory" />
/**
 * Kernel side of a syscall channel. Listens with `Atomics.waitAsync` (the
 * kernel thread never blocks), hands each request to a handler that may
 * answer at once or later (a promise), and writes the reply. Reassembles
 * chunked payloads and serves long responses frame by frame.
 */
import { Sys } from '../base/syscalls.js';
import type { ChannelView } from './layout.js';
import {
  DATA_SIZE,
  RET_SLOTS,
  S_REQUEST,
  S_RESPONSE,
  W_ERRNO,
  W_MEM_PAGES,
  W_MORE,
  W_OP,
  W_REQ_LEN,
  W_RESP_LEN,
  W_SIG_HI,
  W_SIG_LO,
  W_STATE,
  W_CLOSE,
} from './layout.js';

/** What a handler answers. */
export interface Reply {
  readonly errno: number;
  readonly rets?: readonly number[];
  readonly data?: Uint8Array;
}

/**
 * `out` is the channel's data area: a handler may build its reply there and
 * answer `data: out.subarray(0, n)` (no allocation, no copy). It and a
 * transient payload (see `handle`) stay valid until the reply, because the
 * worker is blocked on this call until then.
 */
export type SyscallHandler = (
  op: number,
  args: number[],
  payload: Uint8Array,
  out: Uint8Array,
) => Reply | Promise<Reply>;

export const OK: Reply = Object.freeze({ errno: 0 });

const EMPTY = new Uint8Array(0);

/** How long the kernel polls for a worker's next request before sleeping. */
const POLL_US = 30;
/** Longest run of back-to-back requests served before yielding to the event loop. */
const SLICE_MS = 4;

export class ChannelServer {
  readonly view: ChannelView;
  private disposed = false;
  private chunks: Uint8Array[] = [];
  private chunkBytes = 0;
  private stash: Uint8Array | undefined;
  /** Cap on a reassembled request, so a guest cannot make the kernel buffer without bound. */
  static readonly MAX_REQUEST = 64 * 1024 * 1024;

  /**
   * `stamp` writes the per-reply header words (W_EPOCH, W_FDMASK) just
   * before each reply is published.
   */
  constructor(
    view: ChannelView,
    private readonly handler: SyscallHandler,
    private readonly stamp?: (words: Int32Array) => void,
  ) {
    this.view = view;
  }

  start(): void {
    this.listen();
  }

  /** Set caught-signal bits in the shared pending word (no round trip needed to read them). */
  raiseSignal(sig: number): void {
    if (sig < 32) Atomics.or(this.view.words, W_SIG_LO, 1 << sig);
    else Atomics.or(this.view.words, W_SIG_HI, 1 << (sig - 32));
  }

  /** The memory the guest last reported holding, in bytes (0 before it reports). */
  guestMemoryBytes(): number {
    return Atomics.load(this.view.words, W_MEM_PAGES) * 65536;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.chunks = [];
    this.stash = undefined;
    // Wake our own pending waitAsync so it settles and lets go of the loop.
    Atomics.notify(this.view.words, W_STATE);
  }

  /**
   * Serve requests until one goes asynchronous or the worker goes quiet.
   * Synchronous answers loop here (no recursion); after each, the next
   * request is polled for a few microseconds, since a worker usually asks
   * again almost at once and a wake-up through the event loop costs tens of
   * them. A time slice bounds the loop so other channels and timers run.
   */
  private listen(): void {
    const w = this.view.words;
    const sliceEnd = performance.now() + SLICE_MS;
    while (!this.disposed) {
      if (Atomics.load(w, W_STATE) === S_REQUEST) {
        if (!this.handle()) return; // answered later, by the promise
        if (performance.now() > sliceEnd) break;
        continue;
      }
      if (!this.poll()) break;
    }
    this.sleep();
  }

  /** Wait for the next request through the event loop. */
  private sleep(): void {
    const w = this.view.words;
    while (!this.disposed) {
      const st = Atomics.load(w, W_STATE);
      if (st === S_REQUEST) {
        // Yield once before serving, so a busy worker cannot starve the loop.
        setImmediate(() => this.listen());
        return;
      }
      const r = Atomics.waitAsync(w, W_STATE, st);
      if (r.async) {
        void r.value.then(() => this.listen());
        return;
      }
    }
  }

  /** Busy-poll briefly for a request; true if one arrived. */
  private poll(): boolean {
    const w = this.view.words;
    const end = performance.now() + POLL_US / 1000;
    for (;;) {
      for (let i = 0; i < 64; i++) if (Atomics.load(w, W_STATE) === S_REQUEST) return true;
      if (performance.now() > end) return false;
    }
  }

  /** Serve the pending request; true if it was answered synchronously. */
  private handle(): boolean {
    const w = this.view.words;
    const deferred = w[W_CLOSE] as number;
    if (deferred !== 0) {
      // The worker's deferred close goes first, as if it had been its own call.
      w[W_CLOSE] = 0;
      this.handler(Sys.CLOSE, [deferred - 1], EMPTY, this.view.data);
    }
    const op = w[W_OP] as number;
    const len = Math.min(w[W_REQ_LEN] as number, DATA_SIZE);
    if (op === Sys.CHUNK) {
      this.chunkBytes += len;
      if (this.chunkBytes > ChannelServer.MAX_REQUEST) {
        this.chunks = [];
        this.chunkBytes = 0;
        this.respond({ errno: 1 /* E2BIG */ });
        return true;
      }
      this.chunks.push(this.view.data.slice(0, len));
      this.respond(OK);
      return true;
    }
    if (op === Sys.MORE) {
      const rest = this.stash ?? new Uint8Array(0);
      this.stash = undefined;
      this.respond({ errno: 0, data: rest });
      return true;
    }
    // Every file that keeps written bytes copies them (VFS chunks, pipe
    // buffers, sinks), so writes get a view, not a copy of each frame.
    const transient = op === Sys.WRITE || op === Sys.PWRITE;
    let payload = transient ? this.view.data.subarray(0, len) : this.view.data.slice(0, len);
    if (this.chunks.length > 0) {
      const all = new Uint8Array(this.chunkBytes + len);
      let off = 0;
      for (const c of this.chunks) {
        all.set(c, off);
        off += c.length;
      }
      all.set(payload, off);
      payload = all;
      this.chunks = [];
      this.chunkBytes = 0;
    }
    const args = Array.from(this.view.args);
    const r = this.handler(op, args, payload, this.view.data);
    if (r instanceof Promise) {
      r.then(
        (reply) => {
          this.respond(reply);
          this.listen();
        },
        () => {
          this.respond({ errno: 29 /* EIO */ });
          this.listen();
        },
      );
      return false;
    }
    this.respond(r);
    return true;
  }

  private respond(reply: Reply): void {
    if (this.disposed) return;
    const v = this.view;
    const w = v.words;
    if (reply.rets)
      for (let i = 0; i < reply.rets.length && i < RET_SLOTS; i++)
        v.rets[i] = reply.rets[i] as number;
    let data = reply.data;
    if (data && data.length > DATA_SIZE) {
      this.stash = data.subarray(DATA_SIZE);
      data = data.subarray(0, DATA_SIZE);
      w[W_MORE] = 1;
    } else {
      w[W_MORE] = 0;
    }
    // A reply built in place (see SyscallHandler) needs no copy.
    if (data && !(data.buffer === v.data.buffer && data.byteOffset === v.data.byteOffset))
      v.data.set(data);
    w[W_RESP_LEN] = data ? data.length : 0;
    w[W_ERRNO] = reply.errno;
    if (this.stamp) this.stamp(w);
    Atomics.store(w, W_STATE, S_RESPONSE);
    Atomics.notify(w, W_STATE);
  }
}

export { W_SIG_HI, W_SIG_LO };
