/**
 * The net syscalls (docs/abi.md "Network"): a process's exchanges with its
 * sandbox's gateway, numbered per process and closed when it ends. Blocking
 * calls sleep on the exchange's notifier through `Process.block`, so a
 * caught signal interrupts them with EINTR (the exchange stays open), and
 * kill, exit, the time limit and the sandbox's destruction cancel them.
 */
import { Errno, fail, KernelError } from '../../base/errno.js';
import { Notifier } from '../../base/notifier.js';
import type { Reply } from '../../channel/server.js';
import type { Kernel } from '../kernel.js';
import { SyscallExchange } from '../../net/syscallExchange.js';
import { agentReasonOf } from '../../net/agentReason.js';
import { decodeNetRequest } from '../../net/wire.js';
import type { Process } from '../../proc/process.js';
import { Sys } from '../../base/syscalls.js';
import { a, OK, type Handler } from './common.js';
import { epipe } from './files.js';

/** Open exchanges a process may hold at once. */
const MAX_EXCHANGES = 64;
/** Largest response body read per call (the channel's data area). */
const MAX_READ = 1024 * 1024;
/** Most body bytes one net_body_splice moves (it returns sooner: see there). */
const MAX_SPLICE = 16 * 1024 * 1024;
/**
 * A splice that has moved something returns once this long has passed since
 * it started (or at `max`, or the end): the body reaches the fd as it
 * arrives either way, only the program's count waits.
 */
const SPLICE_RETURN_MS = 10;

interface Table {
  readonly open: Map<number, SyscallExchange>;
  next: number;
}

const tables = new WeakMap<Process, Table>();
const dec = new TextDecoder();

function tableOf(p: Process): Table {
  let t = tables.get(p);
  if (!t) {
    const table: Table = { open: new Map(), next: 1 };
    tables.set(p, table);
    // Whatever ends the process (exit, kill, time limit, destroy) ends its exchanges.
    void p.exited().then(() => {
      for (const x of table.open.values()) x.close();
      table.open.clear();
    });
    t = table;
  }
  return t;
}

function exchange(p: Process, args: number[]): SyscallExchange {
  const x = tables.get(p)?.open.get(a(args, 0));
  if (!x) fail(Errno.EBADF, 'no such exchange');
  return x;
}

/** A notifier that fires whenever `a` or `b` (if any) does, until disposed. */
function eitherOf(a: Notifier, b: Notifier | undefined): { notifier: Notifier; dispose(): void } {
  const notifier = new Notifier();
  const relay = (from: Notifier): (() => void) => {
    let cancel = (): void => {};
    const fire = (): void => {
      cancel = from.once(fire);
      notifier.notify();
    };
    cancel = from.once(fire);
    return () => cancel();
  };
  const stops = b ? [relay(a), relay(b)] : [relay(a)];
  return { notifier, dispose: () => stops.forEach((stop) => stop()) };
}

/**
 * Block until `attempt` answers. `idleMs` > 0 (the last channel argument of
 * net_response and net_body_read; channel slots keep stale values, so every
 * caller passes it: 0 from the wasm glue, a socket-style timeout from Python's
 * bridge) ends the wait with ETIMEDOUT, leaving the exchange open; time spent
 * waiting for a person to approve does not count.
 */
async function waitFor<T>(
  p: Process,
  x: SyscallExchange,
  attempt: () => T | null,
  idleMs: number,
): Promise<T> {
  if (!(idleMs > 0)) return p.block(attempt, x.changed);
  for (;;) {
    try {
      return await p.block(attempt, x.changed, false, idleMs);
    } catch (e) {
      if (!(e instanceof KernelError && e.errno === Errno.ETIMEDOUT && x.awaitingApproval)) throw e;
    }
  }
}

/**
 * The reply of a call that waits for the head: the head (or error record),
 * then, when `bodyMax` > 0, the body bytes that came with it (rets: [x, head
 * length, 1 if that was the whole body]). Built in the channel's data area.
 */
async function headReply(
  p: Process,
  x: SyscallExchange,
  id: number,
  idleMs: number,
  bodyMax: number,
  out: Uint8Array | undefined,
): Promise<Reply> {
  let h = x.head();
  if (!h) {
    try {
      h = await waitFor(p, x, () => x.head(), idleMs);
    } catch (e) {
      // EINTR or the idle timeout: the exchange stays open, and the caller needs its id.
      if (e instanceof KernelError) return { errno: e.errno, rets: [id, 0, 0] };
      throw e;
    }
  }
  if (!h.ok) return { errno: h.errno, data: h.bytes, rets: [id, h.bytes.length, 0] };
  const max = Math.min(Math.max(0, bodyMax), MAX_READ);
  const room = out && out.length >= h.bytes.length + max ? out : undefined;
  if (max === 0 || !room) return { errno: 0, data: h.bytes, rets: [id, h.bytes.length, 0] };
  room.set(h.bytes);
  const body = await x.bodyWithHead(room.subarray(h.bytes.length, h.bytes.length + max));
  return {
    errno: 0,
    data: room.subarray(0, h.bytes.length + body.n),
    rets: [id, h.bytes.length, body.end ? 1 : 0],
  };
}

/**
 * net_body_splice: move body bytes to `sink` as they arrive (and as it has
 * room), in the kernel, and answer the program only after `max` bytes, the
 * end of the body, or SPLICE_RETURN_MS with something moved. Each answer wakes
 * the program's thread (a futex wake, costly on a loaded VM), so one call
 * moves many socket reads: ~10 ms of a download per round trip rather than
 * one per read. Blocks while nothing has moved. Whatever stops the call
 * after bytes moved (a caught signal, the body's failure, the sink's error)
 * answers the count; the next call meets the failure again and reports it.
 */
function splice(
  k: Kernel,
  p: Process,
  x: SyscallExchange,
  sink: (bytes: Uint8Array) => number | null,
  sinkChanged: Notifier | undefined,
  max: number,
): Reply | Promise<Reply> {
  let moved = 0;
  let late = false;
  let sinkError: unknown = null;
  const attempt = (): number | null => {
    if (moved >= max) return moved;
    if (sinkError !== null) return moved > 0 ? moved : epipe(k, p, sinkError);
    let n: number | null;
    try {
      n = x.spliceBody(sink, max - moved);
    } catch (e) {
      if (moved > 0) return moved;
      return epipe(k, p, e);
    }
    if (n === 0) return moved; // the end: the next call answers 0
    if (n !== null) moved += n;
    if (moved >= max) return moved;
    // Nothing buffered, or the sink is full (a pipe): wait for either, or the clock.
    return moved > 0 && late ? moved : null;
  };
  const first = attempt();
  if (first !== null) return { errno: 0, rets: [first] };
  // While blocked, bytes that arrive go to the sink from the client's read
  // callback: no queue, no copy of a reused read buffer, no wake per read.
  const untap = x.tapBody((bytes) => {
    if (sinkError !== null || moved >= max) return 0;
    try {
      const n = sink(bytes.length > max - moved ? bytes.subarray(0, max - moved) : bytes) ?? 0;
      moved += n;
      return n;
    } catch (e) {
      sinkError = e;
      return 0;
    }
  });
  const timer = setTimeout(() => {
    late = true;
    x.changed.notify();
  }, SPLICE_RETURN_MS);
  const woken = eitherOf(x.changed, sinkChanged);
  const done = (): void => {
    untap();
    clearTimeout(timer);
    woken.dispose();
  };
  return p.block(attempt, woken.notifier).then(
    (m) => {
      done();
      return { errno: 0, rets: [m] };
    },
    (e: unknown) => {
      done();
      // Interrupted after bytes moved: they count, as a partial write's do.
      if (moved > 0 && e instanceof KernelError) return { errno: 0, rets: [moved] };
      throw e;
    },
  );
}

export const netHandlers: Record<number, Handler> = {
  /**
   * args: [wait, idleMs, bodyMax]. wait = 0 (the wasm glue): answer the id at
   * once. wait = 1 (Python's bridge, for a request whose body is inline):
   * also wait for the head and the body bytes that came with it, as
   * `net_response` with the same arguments would, saving it and the first
   * `net_body_read`s their round trips. A failed wait leaves the exchange
   * open (rets[0] is its id), as a failed net_response does.
   */
  [Sys.NET_REQUEST]: (k, p, args, payload, out) => {
    const wait = a(args, 0) === 1;
    let request;
    try {
      request = decodeNetRequest(payload);
      if (tableOf(p).open.size >= MAX_EXCHANGES) {
        fail(Errno.EMFILE, 'too many open exchanges');
      }
    } catch (e) {
      // No exchange was opened: say so in the id slot too (slots keep stale values).
      if (wait && e instanceof KernelError) return { errno: e.errno, rets: [0, 0, 0] };
      throw e;
    }
    const t = tableOf(p);
    const x = new SyscallExchange({
      gateway: k.network.gateway,
      request,
      context: {
        pid: p.pid,
        argv: p.argv.map((s) => dec.decode(s)),
        stepId: k.network.stepOf?.(p.pid) ?? null,
        agentReason: agentReasonOf(p.env),
      },
      onApprovalWait: (waiting) => k.approvalWait(p, waiting),
    });
    const id = t.next++;
    t.open.set(id, x);
    if (!wait) return { errno: 0, rets: [id] };
    return headReply(p, x, id, a(args, 1), a(args, 2), out);
  },
  [Sys.NET_BODY_WRITE]: (_k, p, args, payload) => {
    const x = exchange(p, args);
    const n = x.writeBody(payload);
    if (n !== null) return { errno: 0, rets: [n] };
    return p.block(() => x.writeBody(payload), x.changed).then((m) => ({ errno: 0, rets: [m] }));
  },
  /** args: [x, idleMs, bodyMax]; the reply as headReply's (bodyMax 0: the head alone). */
  [Sys.NET_RESPONSE]: (_k, p, args, _payload, out): Reply | Promise<Reply> => {
    const x = exchange(p, args);
    const h = a(args, 2) > 0 ? null : x.head();
    if (h) return h.ok ? { errno: 0, data: h.bytes } : { errno: h.errno, data: h.bytes };
    return headReply(p, x, a(args, 0), a(args, 1), a(args, 2), out);
  },
  [Sys.NET_BODY_READ]: (_k, p, args, _payload, out) => {
    const x = exchange(p, args);
    const len = Math.min(Math.max(0, a(args, 1)), MAX_READ);
    const dst = out && len <= out.length ? out.subarray(0, len) : new Uint8Array(len);
    const n = x.readBody(dst);
    if (n !== null) return { errno: 0, data: dst.subarray(0, n) };
    return waitFor(p, x, () => x.readBody(dst), a(args, 2)).then((m) => ({
      errno: 0,
      data: dst.subarray(0, m),
    }));
  },
  /**
   * args: [x, fd, max]. Write up to `max` response body bytes to `fd` here
   * in the kernel, as net_body_read then a write of them would, without the
   * bytes entering the program (see splice).
   */
  [Sys.NET_BODY_SPLICE]: (k, p, args) => {
    const x = exchange(p, args);
    const file = p.fds.get(a(args, 1));
    const max = Math.min(Math.max(0, a(args, 2)), MAX_SPLICE);
    return splice(k, p, x, (bytes) => file.write(bytes), file.changed, max);
  },
  [Sys.NET_CLOSE]: (_k, p, args) => {
    const x = exchange(p, args);
    x.close();
    tables.get(p)?.open.delete(a(args, 0));
    return OK;
  },
};
