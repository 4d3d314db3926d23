/**
 * The syscall channel's shared memory layout (one SharedArrayBuffer per
 * process). The worker writes a request and blocks with `Atomics.wait`; the
 * kernel notices it with `Atomics.waitAsync`, answers (maybe much later) and
 * notifies. Pure code shared by both sides; bump `CHANNEL_VERSION` whenever
 * anything here changes.
 */

export const CHANNEL_VERSION = 5;

/** Int32 word indexes in the header. */
export const W_STATE = 0;
export const W_VERSION = 1;
export const W_OP = 2;
export const W_REQ_LEN = 3;
export const W_ERRNO = 4;
export const W_RESP_LEN = 5;
/** Pending caught signals (bits 0..31 and 32..63), set by the kernel with Atomics.or. */
export const W_SIG_LO = 6;
export const W_SIG_HI = 7;
/** Response flag word: 1 = more response data follows (fetch with OP_MORE). */
export const W_MORE = 8;
/**
 * A close the worker deferred (fd + 1; 0 = none): the kernel performs it
 * before the next request, so descriptor numbers are reused exactly as if
 * it had been its own call (see ChannelClient.deferClose).
 */
export const W_CLOSE = 9;
/**
 * Stamped by the kernel on every reply: the file system's namespace version
 * (see `Vfs.namespaceVersion`, low 32 bits) and which of the process's fds
 * 0..31 are taken. With them the glue serves directory opens from listings
 * it already holds (see `DirTree`).
 */
export const W_EPOCH = 10;
export const W_FDMASK = 11;
/**
 * The guest's memory in 64 KiB pages, stored by the guest when it starts and
 * whenever its heap grows (wasm-heap's `sandglass_heap.grown`): the kernel
 * reads it without a round trip to keep a sandbox's processes within their
 * memory budget together.
 */
export const W_MEM_PAGES = 12;
/**
 * A pooled worker between processes waits on this word for its next job
 * (see proc/node/jobChannel.ts), so starting a process needs no message
 * and no turn of the worker's event loop. (A word no client used before:
 * the version stays, so prebuilt guests such as the Python realm still fit.)
 */
export const W_JOB = 13;
/**
 * Stamped by the kernel on every reply: a count that moves whenever a
 * regular file's contents or any file offset may have changed (the VFS's
 * `dataVersion` plus the kernel's seeks, low 32 bits). A read that reached
 * a file's end is still at its end while this has not moved, so the glue
 * answers the next read of it without a call (see GuestFiles.atEnd). A
 * word no client used before, like W_JOB: the version stays.
 */
export const W_DATA = 14;

/** Channel states. */
export const S_IDLE = 0;
export const S_REQUEST = 1;
export const S_RESPONSE = 2;

/** Byte offsets of the argument and result areas (Float64 slots: integers up to 2^53). */
export const ARGS_OFFSET = 64;
export const ARG_SLOTS = 16;
export const RETS_OFFSET = ARGS_OFFSET + ARG_SLOTS * 8;
export const RET_SLOTS = 12;
export const DATA_OFFSET = RETS_OFFSET + RET_SLOTS * 8;
/**
 * Payload bytes per frame; bigger payloads are chunked. 1 MiB: a round trip
 * costs ~15-25 µs, so streaming utilities read and write in big frames
 * (`cat` of 100 MB: 375 ms at 1 MiB against 620-920 ms at 64 KiB).
 */
export const DATA_SIZE = 1024 * 1024;
export const CHANNEL_BYTES = DATA_OFFSET + DATA_SIZE;

/** Typed views over one channel buffer. */
export class ChannelView {
  readonly words: Int32Array;
  readonly args: Float64Array;
  readonly rets: Float64Array;
  readonly data: Uint8Array;

  constructor(readonly sab: SharedArrayBuffer) {
    if (sab.byteLength !== CHANNEL_BYTES)
      throw new Error(`syscall channel: wrong size ${sab.byteLength}`);
    this.words = new Int32Array(sab, 0, ARGS_OFFSET / 4);
    this.args = new Float64Array(sab, ARGS_OFFSET, ARG_SLOTS);
    this.rets = new Float64Array(sab, RETS_OFFSET, RET_SLOTS);
    this.data = new Uint8Array(sab, DATA_OFFSET, DATA_SIZE);
  }

  /** A fresh channel with the version stamped in. */
  static create(): ChannelView {
    const v = new ChannelView(new SharedArrayBuffer(CHANNEL_BYTES));
    Atomics.store(v.words, W_VERSION, CHANNEL_VERSION);
    return v;
  }
}
