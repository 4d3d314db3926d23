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
  /** The head or error record as JSON; `{"errno": n, ...}` on failure. */
  response(x: number, idleMs: number): string;
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

function decodeHead(b: Uint8Array): string {
  const r = new Reader(b);
  const status = r.u32();
  const redirects = r.u32();
  const reason = r.latin1();
  const url = r.utf8();
  const address = r.utf8();
  const n = r.u32();
  const headers: [string, string][] = [];
  for (let i = 0; i < n; i++) headers.push([r.latin1(), r.latin1()]);
  return JSON.stringify({ errno: 0, status, redirects, reason, url, address, headers });
}

function decodeError(errno: number, b: Uint8Array): string {
  if (b.length < 4) return JSON.stringify({ errno, code: -1, message: '', rule: '' });
  const r = new Reader(b);
  const code = r.u32();
  return JSON.stringify({ errno, code, message: r.utf8(), rule: r.utf8() });
}

export function createNetBridge(k: KernelCalls, heap: () => Uint8Array): NetBridge {
  const inHeap = (ptr: number, len: number): boolean =>
    Number.isInteger(ptr) && Number.isInteger(len) && ptr >= 0 && len >= 0
      ? ptr + len <= heap().length
      : false;
  return {
    request(ptr, len) {
      if (!inHeap(ptr, len)) return -EINVAL;
      const e = k.try(Sys.NET_REQUEST, [], heap().slice(ptr, ptr + len));
      return e === 0 ? (k.ch.rets[0] as number) : -e;
    },
    response(x, idleMs) {
      const e = k.try(Sys.NET_RESPONSE, [x, Math.max(0, idleMs | 0)]);
      return e === 0 ? decodeHead(k.ch.data) : decodeError(e, k.ch.data);
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
