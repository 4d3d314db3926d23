/**
 * `sandglass` net calls (role `net`): a process's HTTP exchanges with its
 * sandbox's gateway (docs/abi.md "Network"). Heads and error records come
 * back as handles; body bytes go straight between guest memory and the
 * channel's data area.
 */
import { Errno } from '../../base/errno.js';
import { Sys } from '../../base/syscalls.js';
import type { GlueContext } from '../context.js';
import { guard, MAX_IO, newHandle } from '../context.js';

/** Largest request buffer (headers and an inline body), like a spawn request's cap. */
const MAX_NET_REQUEST = 16 * 1024 * 1024;

export function netImports(ctx: GlueContext): Record<string, (...a: never[]) => number> {
  const { sys } = ctx;
  return {
    net_request: guard((req: number, len: number, xOut: number) => {
      if (len > MAX_NET_REQUEST) return Errno.E2BIG;
      ctx.mem.check(xOut, 4);
      // Answer at once (the first slot; slots keep stale values, so it is passed).
      const e = sys.call(Sys.NET_REQUEST, [0], ctx.mem.read(req, len));
      if (e) return e;
      ctx.mem.setU32(xOut, sys.rets[0] as number);
      return 0;
    }),
    net_body_write: guard((x: number, buf: number, len: number, nOut: number) => {
      ctx.mem.check(nOut, 4);
      const e = sys.call(Sys.NET_BODY_WRITE, [x], ctx.mem.read(buf, Math.min(len, MAX_IO)));
      if (e) return e;
      ctx.mem.setU32(nOut, sys.rets[0] as number);
      return 0;
    }),
    net_response: guard((x: number, handleOut: number, lenOut: number) => {
      ctx.mem.check(handleOut, 4);
      ctx.mem.check(lenOut, 4);
      // No idle timeout and the head alone (Python's bridge sets both).
      const e = sys.call(Sys.NET_RESPONSE, [x, 0, 0]);
      // A denial or failure brings its error record, fetched the same way.
      if (sys.data.length > 0 || e === 0) {
        ctx.mem.setU32(lenOut, sys.data.length);
        ctx.mem.setU32(handleOut, newHandle(ctx, sys.data));
      }
      return e;
    }),
    net_body_read: guard((x: number, buf: number, len: number, nOut: number) => {
      ctx.mem.check(nOut, 4);
      const e = sys.callView(Sys.NET_BODY_READ, [x, Math.min(len, MAX_IO), 0]);
      if (e) return e;
      ctx.mem.write(buf, sys.data);
      ctx.mem.setU32(nOut, sys.data.length);
      return 0;
    }),
    net_body_splice: guard((x: number, fd: number, max: number, nOut: number) => {
      ctx.mem.check(nOut, 4);
      const e = sys.call(Sys.NET_BODY_SPLICE, [x, fd, max >>> 0]);
      if (e) return e;
      ctx.mem.setU32(nOut, sys.rets[0] as number);
      return 0;
    }),
    net_close: guard((x: number) => sys.call(Sys.NET_CLOSE, [x])),
  };
}
