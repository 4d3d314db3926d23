/**
 * The `_sandglass_net` module: Python's HTTP (netShim.py) through the net
 * syscalls, as curl uses them (docs/abi.md "Network"). Only numbers and
 * strings cross: byte buffers are addresses in Pyodide's own heap, which
 * this code reads and writes in place, and heads and error records come
 * back as JSON text.
 */
import { Sys } from '../../base/syscalls.js';
import type { KernelCalls } from './kernelCalls.js';

export interface NetBridge {
  /** Start an exchange from a request buffer (docs/abi.md); the id, or -errno. */
  request(ptr: number, len: number): number;
  /**
   * Start an exchange whose body is inline and wait for its head, as
   * `request` then `response` would, in one round trip: the JSON of
   * `response` plus `x`, the exchange's id (0 when none was opened, with the
   * errno of the request itself).
   */
  fetch(ptr: number, len: number, idleMs: number, bodyPtr: number, bodyMax: number): string;
  /**
   * The head or error record as JSON; `{"errno": n, ...}` on failure. With
   * `bodyMax` > 0, the body bytes that came with the head are copied to
   * `bodyPtr`: `body` is their count and `end` says they were all of it.
   */
  response(x: number, idleMs: number, bodyPtr?: number, bodyMax?: number): string;
  /** Body bytes into [ptr, ptr+len): the count (0 at the end), or -errno. */
  read(x: number, ptr: number, len: number, idleMs: number): number;
  /** Request body bytes from [ptr, ptr+len) (len 0 ends it): the count taken, or -errno. */
  write(x: number, ptr: number, len: number): number;
  close(x: number): number;
}

/** Largest transfer per call (the channel's data area). */
const MAX_IO = 1024 * 1024;
const EINVAL = 28;

/** Reads the head and error-record formats (net/wire.ts writes them). */
class Reader {
  private off = 0;
  private readonly dv: DataView;
  constructor(private readonly b: Uint8Array) {
    this.dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  }
  /** Whether anything follows (later ABI additions are appended). */
  more(): boolean {
    return this.off < this.b.length;
  }
  u32(): number {
    const v = this.dv.getUint32(this.off, true);
    this.off += 4;
    return v;
  }
  bytes(): Uint8Array {
    const n = this.u32();
    const s = this.b.subarray(this.off, this.off + n);
    this.off += n;
    return s;
  }
  latin1(): string {
    let s = '';
    for (const c of this.bytes()) s += String.fromCharCode(c);
    return s;
  }
  utf8(): string {
    return new TextDecoder().decode(this.bytes());
  }
}

type Body = { readonly body: number; readonly end: boolean };

function decodeHead(b: Uint8Array, extra: Body & { x?: number }): string {
  const r = new Reader(b);
  const status = r.u32();
  const redirects = r.u32();
  const reason = r.latin1();
  const url = r.utf8();
  const address = r.utf8();
  const n = r.u32();
  const headers: [string, string][] = [];
  for (let i = 0; i < n; i++) headers.push([r.latin1(), r.latin1()]);
  // The status line's version, appended after the headers (docs/abi.md).
  const version = r.more() ? r.latin1() : '1.1';
  return JSON.stringify({
    errno: 0,
    status,
    redirects,
    reason,
    url,
    address,
    headers,
    version,
    ...extra,
  });
}

function decodeError(errno: number, b: Uint8Array, x?: number): string {
  const id = x === undefined ? {} : { x };
  if (b.length < 4) return JSON.stringify({ errno, code: -1, message: '', rule: '', ...id });
  const r = new Reader(b);
  const code = r.u32();
  return JSON.stringify({ errno, code, message: r.utf8(), rule: r.utf8(), ...id });
}

export function createNetBridge(k: KernelCalls, heap: () => Uint8Array): NetBridge {
  const inHeap = (ptr: number, len: number): boolean =>
    Number.isInteger(ptr) && Number.isInteger(len) && ptr >= 0 && len >= 0
      ? ptr + len <= heap().length
      : false;
  /**
   * A head reply (kernel/handlers/net.ts headReply): the head, then body
   * bytes copied to the caller's buffer; rets [x, head length, end].
   */
  const headReply = (e: number, bodyPtr: number, x?: number): string => {
    if (e !== 0) return decodeError(e, k.ch.data, x);
    const data = k.ch.data;
    const headLen = Math.min(k.ch.rets[1] as number, data.length);
    const body = data.subarray(headLen);
    if (body.length > 0) heap().set(body, bodyPtr);
    const extra = { body: body.length, end: k.ch.rets[2] === 1 };
    return decodeHead(data.subarray(0, headLen), x === undefined ? extra : { ...extra, x });
  };
  const bodyRoom = (bodyPtr: number, bodyMax: number): number =>
    bodyMax > 0 && inHeap(bodyPtr, bodyMax) ? Math.min(bodyMax, MAX_IO) : 0;
  return {
    request(ptr, len) {
      if (!inHeap(ptr, len)) return -EINVAL;
      const e = k.try(Sys.NET_REQUEST, [0], heap().slice(ptr, ptr + len));
      return e === 0 ? (k.ch.rets[0] as number) : -e;
    },
    fetch(ptr, len, idleMs, bodyPtr, bodyMax) {
      if (!inHeap(ptr, len)) return JSON.stringify({ errno: EINVAL, x: 0 });
      const room = bodyRoom(bodyPtr, bodyMax);
      const e = k.try(
        Sys.NET_REQUEST,
        [1, Math.max(0, idleMs | 0), room],
        heap().slice(ptr, ptr + len),
      );
      // rets[0] is 0 when the request itself was refused (no exchange).
      const x = e === 0 || k.ch.rets[0] !== 0 ? (k.ch.rets[0] as number) : 0;
      return x === 0 ? JSON.stringify({ errno: e, x: 0 }) : headReply(e, bodyPtr, x);
    },
    response(x, idleMs, bodyPtr = 0, bodyMax = 0) {
      const room = bodyRoom(bodyPtr, bodyMax);
      const e = k.try(Sys.NET_RESPONSE, [x, Math.max(0, idleMs | 0), room]);
      return headReply(e, bodyPtr);
    },
    read(x, ptr, len, idleMs) {
      const want = Math.min(len, MAX_IO);
      if (!inHeap(ptr, want)) return -EINVAL;
      const e = k.ch.callView(Sys.NET_BODY_READ, [x, want, Math.max(0, idleMs | 0)]);
      if (e !== 0) return -e;
      const got = k.ch.data;
      heap().set(got, ptr);
      return got.length;
    },
    write(x, ptr, len) {
      const n = Math.min(len, MAX_IO);
      if (!inHeap(ptr, n)) return -EINVAL;
      const e = k.try(Sys.NET_BODY_WRITE, [x], heap().slice(ptr, ptr + n));
      return e === 0 ? (k.ch.rets[0] as number) : -e;
    },
    close(x) {
      return k.try(Sys.NET_CLOSE, [x]);
    },
  };
}
