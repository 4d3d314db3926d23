/** `sandglass` terminal calls (shell role only). */
import { Sys } from '../../base/syscalls.js';
import type { GlueContext } from '../context.js';
import { guard } from '../context.js';

export function ttyImports(ctx: GlueContext): Record<string, (...a: never[]) => number> {
  const { sys } = ctx;
  return {
    tty_get: guard((fd: number, out: number) => {
      ctx.mem.check(out, 4);
      const e = sys.call(Sys.TTY_GET, [fd]);
      if (e) return e;
      ctx.mem.setU32(out, sys.rets[0] as number);
      return 0;
    }),
    tty_set: guard((fd: number, mode: number) => sys.call(Sys.TTY_SET, [fd, mode])),
    tty_winsize: guard((fd: number, out: number) => {
      ctx.mem.check(out, 4);
      const e = sys.call(Sys.TTY_WINSIZE, [fd]);
      if (e) return e;
      ctx.mem.setU16(out, sys.rets[0] as number);
      ctx.mem.setU16(out + 2, sys.rets[1] as number);
      return 0;
    }),
    tcsetpgrp: guard((fd: number, pgid: number) => sys.call(Sys.TCSETPGRP, [fd, pgid])),
    tcgetpgrp: guard((fd: number, out: number) => {
      ctx.mem.check(out, 4);
      const e = sys.call(Sys.TCGETPGRP, [fd]);
      if (e) return e;
      ctx.mem.setI32(out, sys.rets[0] as number);
      return 0;
    }),
  };
}
