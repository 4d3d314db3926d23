/// <reference lib="es2024.sharedmemory" />
/**
 * Kernel side of a syscall channel. Listens with `Atomics.waitAsync` (the
 * kernel thread never blocks), hands each request to a handler that may
 * answer at once or later (a promise), and writes the reply. Reassembles
 * chunked payloads and serves long responses frame by frame.
 */
import { Sys } from '../kernel/syscalls.js';
import type { ChannelView } from './layout.js';
import {
  DATA_SIZE,
  RET_SLOTS,
  S_REQUEST,
  S_RESPONSE,
  W_ERRNO,
  W_MORE,
  W_OP,
  W_REQ_LEN,
  W_RESP_LEN,
  W_SIG_HI,
  W_SIG_LO,
  W_STATE,
} from './layout.js';

/** What a handler answers. */
export interface Reply {
  readonly errno: number;
  readonly rets?: readonly number[];
  readonly data?: Uint8Array;
}

export type SyscallHandler = (
  op: number,
  args: number[],
  payload: Uint8Array,
) => Reply | Promise<Reply>;

export const OK: Reply = Object.freeze({ errno: 0 });

export class ChannelServer {
  readonly view: ChannelView;
  private disposed = false;
  private chunks: Uint8Array[] = [];
  private chunkBytes = 0;
  private stash: Uint8Array | undefined;
  /** Cap on a reassembled request, so a guest cannot make the kernel buffer without bound. */
  static readonly MAX_REQUEST = 64 * 1024 * 1024;

  constructor(
    view: ChannelView,
    private readonly handler: SyscallHandler,
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

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.chunks = [];
    this.stash = undefined;
    // Wake our own pending waitAsync so it settles and lets go of the loop.
    Atomics.notify(this.view.words, W_STATE);
  }

  private listen(): void {
    while (!this.disposed) {
      const st = Atomics.load(this.view.words, W_STATE);
      if (st === S_REQUEST) {
        this.handle();
        return;
      }
      const r = Atomics.waitAsync(this.view.words, W_STATE, st);
      if (r.async) {
        void r.value.then(() => this.listen());
        return;
      }
    }
  }

  private handle(): void {
    const w = this.view.words;
    const op = w[W_OP] as number;
    const len = Math.min(w[W_REQ_LEN] as number, DATA_SIZE);
    if (op === Sys.CHUNK) {
      this.chunkBytes += len;
      if (this.chunkBytes > ChannelServer.MAX_REQUEST) {
        this.chunks = [];
        this.chunkBytes = 0;
        this.respond({ errno: 1 /* E2BIG */ });
        return;
      }
      this.chunks.push(this.view.data.slice(0, len));
      this.respond(OK);
      return;
    }
    if (op === Sys.MORE) {
      const rest = this.stash ?? new Uint8Array(0);
      this.stash = undefined;
      this.respond({ errno: 0, data: rest });
      return;
    }
    let payload = this.view.data.slice(0, len);
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
    const r = this.handler(op, args, payload);
    if (r instanceof Promise) {
      r.then(
        (reply) => this.respond(reply),
        () => this.respond({ errno: 29 /* EIO */ }),
      );
    } else {
      this.respond(r);
    }
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
    if (data) v.data.set(data);
    w[W_RESP_LEN] = data ? data.length : 0;
    w[W_ERRNO] = reply.errno;
    Atomics.store(w, W_STATE, S_RESPONSE);
    Atomics.notify(w, W_STATE);
    this.listen();
  }
}

export { W_SIG_HI, W_SIG_LO };
