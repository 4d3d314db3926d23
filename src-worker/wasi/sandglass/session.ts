/**
 * `sandglass` session calls (shell role only): API-mode commands
 * (`session_next`/`session_done`), command-line boundaries with the shell's
 * state blob (`step_begin`/`step_end`) and the kernel's control requests
 * (`ctl_take`). docs/abi.md "Sessions".
 */
import { Errno } from '../../base/errno.js';
import { Sys } from '../../base/syscalls.js';
import type { GlueContext } from '../context.js';
import { guard, newHandle } from '../context.js';

/** Longest command line `step_begin` takes. */
export const MAX_STEP_TEXT = 1024 * 1024;
/** Largest state blob `step_end` takes. */
export const MAX_STATE_BLOB = 16 * 1024 * 1024;

export function sessionImports(ctx: GlueContext): Record<string, (...a: never[]) => number> {
  const { sys } = ctx;
  /** A handle for `data`, or handle 0 with length 0 when there is nothing to read. */
  const giveBytes = (handleOut: number, lenOut: number): number => {
    ctx.mem.setU32(lenOut, sys.data.length);
    ctx.mem.setU32(handleOut, sys.data.length === 0 ? 0 : newHandle(ctx, sys.data));
    return 0;
  };
  return {
    session_next: guard((handleOut: number, lenOut: number) => {
      ctx.mem.check(handleOut, 4);
      ctx.mem.check(lenOut, 4);
      const e = sys.call(Sys.SESSION_NEXT);
      if (e) return e;
      return giveBytes(handleOut, lenOut);
    }),
    session_done: guard((status: number) => sys.call(Sys.SESSION_DONE, [status])),
    step_begin: guard((text: number, len: number) => {
      if (len > MAX_STEP_TEXT) return Errno.E2BIG;
      return sys.call(Sys.STEP_BEGIN, [], ctx.mem.read(text, len));
    }),
    step_end: guard((status: number, state: number, len: number, flagsOut: number) => {
      if (len > MAX_STATE_BLOB) return Errno.E2BIG;
      ctx.mem.check(flagsOut, 4);
      const e = sys.call(Sys.STEP_END, [status], ctx.mem.read(state, len));
      if (e) return e;
      ctx.mem.setU32(flagsOut, sys.rets[0] as number);
      return 0;
    }),
    ctl_take: guard((handleOut: number, lenOut: number) => {
      ctx.mem.check(handleOut, 4);
      ctx.mem.check(lenOut, 4);
      const e = sys.call(Sys.CTL_TAKE);
      if (e) return e;
      return giveBytes(handleOut, lenOut);
    }),
  };
}
