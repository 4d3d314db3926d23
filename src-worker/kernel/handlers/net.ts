/**
 * The net syscalls (docs/abi.md "Network"): a process's exchanges with its
 * sandbox's gateway, numbered per process and closed when it ends. Blocking
 * calls sleep on the exchange's notifier through `Process.block`, so a
 * caught signal interrupts them with EINTR (the exchange stays open), and
 * kill, exit, the time limit and the sandbox's destruction cancel them.
 */
import { Errno, fail, KernelError } from '../../base/errno.js';
import type { Reply } from '../../channel/server.js';
import { SyscallExchange } from '../../net/syscallExchange.js';
import { agentReasonOf } from '../../net/agentReason.js';
import { decodeNetRequest } from '../../net/wire.js';
import type { Process } from '../../proc/process.js';
import { Sys } from '../../base/syscalls.js';
import { a, OK, type Handler } from './common.js';

/** Open exchanges a process may hold at once. */
const MAX_EXCHANGES = 64;
/** Largest response body read per call (the channel's data area). */
const MAX_READ = 1024 * 1024;

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

export const netHandlers: Record<number, Handler> = {
  [Sys.NET_REQUEST]: (k, p, _args, payload) => {
    const request = decodeNetRequest(payload);
    const t = tableOf(p);
    if (t.open.size >= MAX_EXCHANGES) fail(Errno.EMFILE, 'too many open exchanges');
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
    return { errno: 0, rets: [id] };
  },
  [Sys.NET_BODY_WRITE]: (_k, p, args, payload) => {
    const x = exchange(p, args);
    const n = x.writeBody(payload);
    if (n !== null) return { errno: 0, rets: [n] };
    return p.block(() => x.writeBody(payload), x.changed).then((m) => ({ errno: 0, rets: [m] }));
  },
  [Sys.NET_RESPONSE]: (_k, p, args): Reply | Promise<Reply> => {
    const x = exchange(p, args);
    const reply = (h: NonNullable<ReturnType<SyscallExchange['head']>>): Reply =>
      h.ok ? { errno: 0, data: h.bytes } : { errno: h.errno, data: h.bytes };
    const h = x.head();
    if (h) return reply(h);
    return waitFor(p, x, () => x.head(), a(args, 1)).then(reply);
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
  [Sys.NET_CLOSE]: (_k, p, args) => {
    const x = exchange(p, args);
    x.close();
    tables.get(p)?.open.delete(a(args, 0));
    return OK;
  },
};
