/** `sandglass` descriptor calls: pipe, dup, dup2, fd_cloexec, isatty. */
import { Sys } from '../../base/syscalls.js';
import type { GlueContext } from '../context.js';
import { guard } from '../context.js';

export function fdsImports(ctx: GlueContext): Record<string, (...a: never[]) => number> {
  const { sys } = ctx;
  return {
    pipe: guard((out: number) => {
      ctx.mem.check(out, 8);
      const e = sys.call(Sys.PIPE);
      if (e) return e;
      ctx.mem.setU32(out, sys.rets[0] as number);
      ctx.mem.setU32(out + 4, sys.rets[1] as number);
      ctx.files.replaced(sys.rets[0] as number);
      ctx.files.replaced(sys.rets[1] as number);
      return 0;
    }),
    dup: guard((fd: number, min: number, out: number) => {
      ctx.mem.check(out, 4);
      const e = sys.call(Sys.DUP, [fd, min]);
      if (e) return e;
      ctx.files.replaced(sys.rets[0] as number);
      ctx.mem.setU32(out, sys.rets[0] as number);
      return 0;
    }),
    dup2: guard((from: number, to: number) => {
      ctx.files.replaced(to);
      return sys.call(Sys.DUP2, [from, to]);
    }),
    fd_cloexec: guard((fd: number, on: number) => sys.call(Sys.CLOEXEC, [fd, on])),
    isatty: guard((fd: number, out: number) => {
      ctx.mem.check(out, 4);
      const e = sys.call(Sys.ISATTY, [fd]);
      if (e) return e;
      ctx.mem.setU32(out, sys.rets[0] as number);
      return 0;
    }),
  };
}
