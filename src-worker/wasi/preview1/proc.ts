/** preview1 proc_exit, proc_raise and the socket calls (no sockets: ENOTSOCK). */
import { Errno } from '../../base/errno.js';
import { Sys } from '../../base/syscalls.js';
import type { GlueContext } from '../context.js';
import { guard, ProcExit } from '../context.js';

export function procImports(ctx: GlueContext): Record<string, (...a: never[]) => number> {
  return {
    proc_exit: (code: number): number => {
      throw new ProcExit(code >>> 0);
    },
    proc_raise: guard((sig: number) => ctx.sys.call(Sys.RAISE, [sig])),
    sock_accept: () => Errno.ENOTSOCK,
    sock_recv: () => Errno.ENOTSOCK,
    sock_send: () => Errno.ENOTSOCK,
    sock_shutdown: () => Errno.ENOTSOCK,
  };
}
