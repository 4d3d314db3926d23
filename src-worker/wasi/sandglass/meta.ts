/** `sandglass` file metadata calls: modes, owners, access checks, ids, umask. */
import { Errno } from '../../base/errno.js';
import { Sys } from '../../base/syscalls.js';
import type { GlueContext } from '../context.js';
import { guard } from '../context.js';

function writeExt(ctx: GlueContext, out: number, ext: ArrayLike<number> = ctx.sys.rets): void {
  ctx.mem.check(out, 16);
  for (let i = 0; i < 4; i++) ctx.mem.setU32(out + i * 4, ext[i] as number);
}

export function metaImports(ctx: GlueContext): Record<string, (...a: never[]) => number> {
  const { sys } = ctx;
  const path = (ptr: number, len: number): Uint8Array | undefined =>
    len > 4096 ? undefined : ctx.mem.read(ptr, len);
  return {
    path_stat_ext: guard((ptr: number, len: number, follow: number, out: number) => {
      const p = path(ptr, len);
      if (!p) return Errno.ENAMETOOLONG;
      // Answered by the WASI stat of the same path just before (guest/statMemo.ts).
      const memo = ctx.files.stats.lookup(p, follow);
      if (memo) {
        writeExt(ctx, out, memo);
        return 0;
      }
      const e = sys.call(Sys.PATH_STAT_EXT, [follow], p);
      if (e) return e;
      writeExt(ctx, out);
      return 0;
    }),
    fd_stat_ext: guard((fd: number, out: number) => {
      const e = sys.call(Sys.FD_STAT_EXT, [fd]);
      if (e) return e;
      writeExt(ctx, out);
      return 0;
    }),
    path_chmod: guard((ptr: number, len: number, follow: number, mode: number) => {
      const p = path(ptr, len);
      return p ? sys.call(Sys.CHMOD, [follow, mode], p) : Errno.ENAMETOOLONG;
    }),
    path_chown: guard((ptr: number, len: number, follow: number, uid: number, gid: number) => {
      const p = path(ptr, len);
      return p ? sys.call(Sys.CHOWN, [follow, uid, gid], p) : Errno.ENAMETOOLONG;
    }),
    path_access: guard((ptr: number, len: number, amode: number) => {
      const p = path(ptr, len);
      return p ? sys.call(Sys.ACCESS, [amode], p) : Errno.ENAMETOOLONG;
    }),
    getuid: guard((out: number) => {
      const e = sys.call(Sys.GETUID);
      if (e) return e;
      writeExt(ctx, out);
      return 0;
    }),
    umask: guard((mask: number, out: number) => {
      ctx.mem.check(out, 4);
      const e = sys.call(Sys.UMASK, [mask]);
      if (e) return e;
      ctx.mem.setU32(out, sys.rets[0] as number);
      return 0;
    }),
  };
}
