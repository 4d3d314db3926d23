/** `sandglass` process calls: spawn, exec, wait, kill, ids, groups, signals, cwd. */
import { Errno } from '../../base/errno.js';
import { Sys } from '../../base/syscalls.js';
import type { GlueContext } from '../context.js';
import { guard, newHandle, ProcExit } from '../context.js';

/** Largest spawn request accepted (argv + env), like ARG_MAX. */
const MAX_SPAWN_REQUEST = 4 * 1024 * 1024;

export function processImports(ctx: GlueContext): Record<string, (...a: never[]) => number> {
  const { sys } = ctx;
  return {
    spawn: guard((req: number, len: number, pidOut: number) => {
      if (len > MAX_SPAWN_REQUEST) return Errno.E2BIG;
      ctx.mem.check(pidOut, 4);
      const e = sys.call(Sys.SPAWN, [], ctx.mem.read(req, len));
      if (e) return e;
      ctx.mem.setI32(pidOut, sys.rets[0] as number);
      return 0;
    }),
    // Returns only on failure. On success the process runs the new program
    // elsewhere; this one unwinds (its exit status goes nowhere) so the worker
    // it ran on is free for the next process.
    exec: guard((req: number, len: number) => {
      if (len > MAX_SPAWN_REQUEST) return Errno.E2BIG;
      const e = sys.call(Sys.EXEC, [], ctx.mem.read(req, len));
      if (e === 0) throw new ProcExit(0);
      return e;
    }),
    wait: guard((pid: number, options: number, pidOut: number, statusOut: number) => {
      ctx.mem.check(pidOut, 4);
      ctx.mem.check(statusOut, 4);
      const e = sys.call(Sys.WAIT, [pid, options]);
      if (e) return e;
      ctx.mem.setI32(pidOut, sys.rets[0] as number);
      ctx.mem.setI32(statusOut, sys.rets[1] as number);
      return 0;
    }),
    kill: guard((pid: number, sig: number) => sys.call(Sys.KILL, [pid, sig])),
    getpid: guard((pidOut: number, ppidOut: number) => {
      const e = sys.call(Sys.GETPID);
      if (e) return e;
      ctx.mem.setI32(pidOut, sys.rets[0] as number);
      ctx.mem.setI32(ppidOut, sys.rets[1] as number);
      return 0;
    }),
    setpgid: guard((pid: number, pgid: number) => sys.call(Sys.SETPGID, [pid, pgid])),
    getpgid: guard((pid: number, out: number) => {
      const e = sys.call(Sys.GETPGID, [pid]);
      if (e) return e;
      ctx.mem.setI32(out, sys.rets[0] as number);
      return 0;
    }),
    sigaction: guard((sig: number, disposition: number) =>
      sys.call(Sys.SIGACTION, [sig, disposition]),
    ),
    // Pure: the kernel sets bits in the shared channel word.
    sigpending: guard((out: number) => {
      ctx.mem.check(out, 8);
      ctx.mem.setU64(out, sys.takeSignals());
      return 0;
    }),
    chdir: guard((ptr: number, len: number) => {
      if (len > 4096) return Errno.ENAMETOOLONG;
      return sys.call(Sys.CHDIR, [], ctx.mem.read(ptr, len));
    }),
    getcwd: guard((handleOut: number, lenOut: number) => {
      ctx.mem.check(handleOut, 4);
      ctx.mem.check(lenOut, 4);
      const e = sys.call(Sys.GETCWD);
      if (e) return e;
      ctx.mem.setU32(lenOut, sys.data.length);
      ctx.mem.setU32(handleOut, newHandle(ctx, sys.data));
      return 0;
    }),
    handle_read: guard((handle: number, buf: number, len: number) => {
      const data = ctx.handles.get(handle);
      if (!data) return Errno.EBADF;
      if (len !== data.length) return Errno.EINVAL;
      ctx.mem.write(buf, data);
      ctx.handles.delete(handle);
      return 0;
    }),
  };
}
