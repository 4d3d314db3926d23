/**
 * Worker side of a syscall channel: write a request, wake the kernel, block
 * with `Atomics.wait` until it answers. Payloads and responses larger than
 * the data area travel in several frames (CHUNK / MORE), invisibly to callers.
 */
import { Sys } from '../base/syscalls.js';
import {
  CHANNEL_VERSION,
  ChannelView,
  DATA_SIZE,
  S_IDLE,
  S_REQUEST,
  W_ERRNO,
  W_MEM_PAGES,
  W_MORE,
  W_OP,
  W_REQ_LEN,
  W_RESP_LEN,
  W_SIG_HI,
  W_SIG_LO,
  W_STATE,
  W_VERSION,
  W_CLOSE,
  W_EPOCH,
  W_FDMASK,
  W_DATA,
  ARG_SLOTS,
  RET_SLOTS,
} from './layout.js';

const EMPTY = new Uint8Array(0);

/** How long a caller polls for the answer before sleeping in `Atomics.wait`. */
const SPIN_MS = 0.05;

export class ChannelClient {
  private readonly view: ChannelView;
  /** Result slots of the last call. */
  readonly rets: Float64Array;
  /** Response bytes of the last call (a copy the caller may keep). */
  data: Uint8Array = EMPTY;
  /** Calls made so far: the glue's hints hold only until the next call. */
  calls = 0;
  /** Directories opened without a call (fd → ino), told to the kernel before the next one. */
  private readonly adopted = new Map<number, number>();

  constructor(sab: SharedArrayBuffer) {
    this.view = new ChannelView(sab);
    const v = Atomics.load(this.view.words, W_VERSION);
    if (v !== CHANNEL_VERSION) {
      throw new Error(
        `sandglass: syscall channel layout version ${v}, worker expects ${CHANNEL_VERSION}`,
      );
    }
    this.rets = new Float64Array(RET_SLOTS);
  }

  /** Forget the last process's per-process state, for the next process on this channel. */
  reset(): void {
    this.data = EMPTY;
    this.adopted.clear();
  }

  /** Make one syscall; returns the errno (0 = success). Results in `rets` and `data`. */
  call(op: Sys, args: readonly number[] = [], payload: Uint8Array = EMPTY): number {
    return this.exchange(op, args, payload, false);
  }

  /**
   * Send a request and do not wait for the answer: the process's last call
   * (EXIT), after which the worker touches nothing of the channel but the
   * job word. A payload past one frame is cut.
   */
  post(op: Sys, args: readonly number[] = [], payload: Uint8Array = EMPTY): void {
    this.write(op, args, payload.subarray(0, DATA_SIZE));
  }

  /**
   * Like `call`, but a response that fits one frame is left in the shared
   * data area: `data` is then a view, valid only until the next call. Saves
   * an allocation and a copy on the bulk paths (fd_read), which consume the
   * bytes at once.
   */
  callView(op: Sys, args: readonly number[] = [], payload: Uint8Array = EMPTY): number {
    return this.exchange(op, args, payload, true);
  }

  private exchange(op: Sys, args: readonly number[], payload: Uint8Array, view: boolean): number {
    if (this.adopted.size > 0) this.flushAdopted();
    this.calls++;
    let off = 0;
    while (payload.length - off > DATA_SIZE) {
      this.frame(Sys.CHUNK, args, payload.subarray(off, off + DATA_SIZE));
      off += DATA_SIZE;
    }
    const errno = this.frame(op, args, off === 0 ? payload : payload.subarray(off));
    const w = this.view.words;
    this.rets.set(this.view.rets);
    if (view && w[W_MORE] !== 1) {
      this.data = this.view.data.subarray(0, w[W_RESP_LEN]);
      Atomics.store(w, W_STATE, S_IDLE);
      return errno;
    }
    const first = this.view.data.slice(0, w[W_RESP_LEN]);
    if (w[W_MORE] === 1) {
      // Collect the frames, then join once: joining per frame is quadratic.
      const frames = [first];
      let total = first.length;
      while (w[W_MORE] === 1) {
        this.frame(Sys.MORE, [], EMPTY);
        frames.push(this.view.data.slice(0, w[W_RESP_LEN]));
        total += w[W_RESP_LEN] as number;
      }
      const data = new Uint8Array(total);
      let at = 0;
      for (const f of frames) {
        data.set(f, at);
        at += f.length;
      }
      this.data = data;
    } else {
      this.data = first;
    }
    Atomics.store(w, W_STATE, S_IDLE);
    return errno;
  }

  /**
   * Close `fd` along with the next call instead of in a round trip of its
   * own. Only for descriptors whose close cannot fail or be observed before
   * the next call (directories the glue opened): the kernel closes it before
   * serving the next request, whatever that is (an exit included). One close
   * waits at a time: with one already waiting, this one is made at once (the
   * waiting one rides on it, first, keeping the order).
   */
  deferClose(fd: number): void {
    const w = this.view.words;
    if (w[W_CLOSE] !== 0) {
      this.call(Sys.CLOSE, [fd]);
      return;
    }
    w[W_CLOSE] = fd + 1;
  }

  /** Tells the kernel how much memory the guest holds now (see W_MEM_PAGES). */
  reportMemory(bytes: number): void {
    Atomics.store(this.view.words, W_MEM_PAGES, Math.ceil(bytes / 65536));
  }

  /** The namespace version stamped on the last reply (see W_EPOCH). */
  epoch(): number {
    return this.view.words[W_EPOCH] as number;
  }

  /** The file data version stamped on the last reply (see W_DATA). */
  dataVersion(): number {
    return this.view.words[W_DATA] as number;
  }

  /**
   * The descriptor the kernel would give the next open, as the program sees
   * its table now (a waiting close done, glue-opened directories counted);
   * -1 if that is not below 32.
   */
  lowestFreeFd(): number {
    const w = this.view.words;
    let used = w[W_FDMASK] as number;
    const closing = (w[W_CLOSE] as number) - 1;
    if (closing >= 0 && closing < 32) used &= ~(1 << closing);
    for (const fd of this.adopted.keys()) used |= 1 << fd;
    for (let fd = 0; fd < 32; fd++) if ((used & (1 << fd)) === 0) return fd;
    return -1;
  }

  /** `fd` now names directory `ino`, opened without a call; the kernel hears of it before the next one. */
  deferOpen(fd: number, ino: number): void {
    this.adopted.set(fd, ino);
  }

  /** Close a directory the kernel has not heard of yet; false if `fd` is not one. */
  cancelOpen(fd: number): boolean {
    return this.adopted.delete(fd);
  }

  private flushAdopted(): void {
    const pairs = [...this.adopted];
    this.adopted.clear();
    const per = (ARG_SLOTS - 1) >> 1;
    for (let i = 0; i < pairs.length; i += per) {
      const batch = pairs.slice(i, i + per);
      const args = [batch.length];
      for (const [fd, ino] of batch) args.push(fd, ino);
      if (this.exchange(Sys.ADOPT_DIRS, args, EMPTY, true) !== 0) {
        // The glue's view of the descriptor table is wrong: nothing sane can follow.
        throw new Error('sandglass: kernel refused a directory opened by the glue');
      }
    }
  }

  /** Take (and clear) the pending caught-signal mask: no round trip. */
  takeSignals(): bigint {
    const lo = Atomics.exchange(this.view.words, W_SIG_LO, 0) >>> 0;
    const hi = Atomics.exchange(this.view.words, W_SIG_HI, 0) >>> 0;
    return (BigInt(hi) << 32n) | BigInt(lo);
  }

  private write(op: Sys, args: readonly number[], payload: Uint8Array): void {
    const v = this.view;
    const w = v.words;
    for (let i = 0; i < args.length; i++) v.args[i] = args[i] as number;
    v.data.set(payload);
    w[W_OP] = op;
    w[W_REQ_LEN] = payload.length;
    w[W_MORE] = 0;
    Atomics.store(w, W_STATE, S_REQUEST);
    Atomics.notify(w, W_STATE);
  }

  private frame(op: Sys, args: readonly number[], payload: Uint8Array): number {
    this.write(op, args, payload);
    const w = this.view.words;
    // Most syscalls are answered within microseconds, while waking a sleeping
    // thread costs about 20 µs here (a futex wake, an IPI on a VM): poll
    // briefly before sleeping, so a quick answer finds us awake.
    if (Atomics.load(w, W_STATE) === S_REQUEST) {
      const end = performance.now() + SPIN_MS;
      do {
        for (let i = 0; i < 64; i++) if (Atomics.load(w, W_STATE) !== S_REQUEST) break;
      } while (Atomics.load(w, W_STATE) === S_REQUEST && performance.now() < end);
    }
    while (Atomics.load(w, W_STATE) === S_REQUEST) Atomics.wait(w, W_STATE, S_REQUEST);
    return w[W_ERRNO] as number;
  }
}
