/** preview1 path_*: paths are bytes resolved by the kernel against the given dirfd. */
import { Errno } from '../../kernel/errno.js';
import { Sys } from '../../kernel/syscalls.js';
import type { GlueContext } from '../context.js';
import { guard } from '../context.js';
import { ROOT_FD } from '../../fd/fdTable.js';
import { walkKey } from './dirTree.js';
import { timeArgs, writeFilestat } from './fd.js';

/** PATH_MAX: longer paths are refused before anything is copied to the kernel. */
export const PATH_MAX = 4096;

const LOOKUP_SYMLINK_FOLLOW = 1;
const O_DIRECTORY = 2;
/** Entries a directory open fetches at once (a complete listing is kept for fd_readdir). */
const DIR_PREFETCH = 4096;
const RIGHT_FD_READ = 1n << 1n;
const RIGHT_FD_READDIR = 1n << 14n;
const RIGHT_FD_WRITE = 1n << 6n;
const RIGHT_FD_ALLOCATE = 1n << 8n;
const RIGHT_FD_FILESTAT_SET_SIZE = 1n << 22n;

export class PathTooLong extends Error {}

/**
 * Keep a root-relative stat's mode, uid, gid and nlink: `ls -l`, `du` and
 * `stat` ask for them (path_stat_ext) right after the WASI stat of the same
 * path, and they cannot change without the namespace version moving.
 */
function rememberStat(ctx: GlueContext, fd: number, path: Uint8Array, follow: number): void {
  const key = fd === ROOT_FD ? walkKey(path) : undefined;
  const r = ctx.sys.rets;
  ctx.lastStat =
    key === undefined
      ? undefined
      : {
          path: `/${key}`,
          follow,
          epoch: ctx.sys.epoch(),
          ext: [r[8] as number, r[9] as number, r[10] as number, r[3] as number],
        };
}

export function readPath(ctx: GlueContext, ptr: number, len: number): Uint8Array | undefined {
  if (len > PATH_MAX) return undefined;
  return ctx.mem.read(ptr, len);
}

function join(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

export function pathImports(ctx: GlueContext): Record<string, (...a: never[]) => number> {
  const { sys } = ctx;
  const p = (ptr: number, len: number): Uint8Array | undefined => readPath(ctx, ptr, len);
  return {
    path_create_directory: guard((fd: number, ptr: number, len: number) => {
      const path = p(ptr, len);
      return path ? sys.call(Sys.MKDIR, [fd], path) : Errno.ENAMETOOLONG;
    }),
    path_filestat_get: guard((fd: number, flags: number, ptr: number, len: number, out: number) => {
      const path = p(ptr, len);
      if (!path) return Errno.ENAMETOOLONG;
      const follow = flags & LOOKUP_SYMLINK_FOLLOW;
      const e = sys.call(Sys.PATH_STAT, [fd, follow], path);
      if (e) return e;
      writeFilestat(ctx, out);
      rememberStat(ctx, fd, path, follow);
      return 0;
    }),
    path_filestat_set_times: guard(
      (
        fd: number,
        flags: number,
        ptr: number,
        len: number,
        atim: bigint,
        mtim: bigint,
        fst: number,
      ) => {
        const path = p(ptr, len);
        if (!path) return Errno.ENAMETOOLONG;
        const t = timeArgs(atim, mtim, fst);
        if (!t) return Errno.EINVAL;
        return sys.call(Sys.PATH_UTIMES, [fd, flags & LOOKUP_SYMLINK_FOLLOW, t[0], t[1]], path);
      },
    ),
    path_link: guard(
      (
        ofd: number,
        oflags: number,
        optr: number,
        olen: number,
        nfd: number,
        nptr: number,
        nlen: number,
      ) => {
        const a = p(optr, olen);
        const b = p(nptr, nlen);
        if (!a || !b) return Errno.ENAMETOOLONG;
        return sys.call(Sys.LINK, [ofd, oflags & LOOKUP_SYMLINK_FOLLOW, a.length, nfd], join(a, b));
      },
    ),
    path_open: guard(
      (
        fd: number,
        dirflags: number,
        ptr: number,
        len: number,
        oflags: number,
        rightsBase: bigint,
        _rightsInh: bigint,
        fdflags: number,
        out: number,
      ) => {
        const path = p(ptr, len);
        if (!path) return Errno.ENAMETOOLONG;
        const read = (rightsBase & (RIGHT_FD_READ | RIGHT_FD_READDIR)) !== 0n ? 1 : 0;
        const write =
          (rightsBase & (RIGHT_FD_WRITE | RIGHT_FD_ALLOCATE | RIGHT_FD_FILESTAT_SET_SIZE)) !== 0n
            ? 1
            : 0;
        ctx.mem.check(out, 4);
        const dir = (oflags & O_DIRECTORY) !== 0;
        // A plain directory open of a listing the glue holds needs no call.
        const plain = dir && fd === ROOT_FD && oflags === O_DIRECTORY && fdflags === 0;
        const key = plain ? walkKey(path) : undefined;
        const held = key !== undefined ? ctx.tree.open(key) : undefined;
        if (held !== undefined) {
          ctx.mem.setU32(out, held);
          return 0;
        }
        const e = sys.call(
          Sys.OPEN,
          [
            fd,
            dirflags & LOOKUP_SYMLINK_FOLLOW,
            oflags,
            fdflags,
            read,
            write,
            dir ? DIR_PREFETCH : 0,
            plain ? ctx.tree.budgetFor(key) : 0,
          ],
          path,
        );
        if (e) return e;
        const opened = sys.rets[0] as number;
        ctx.dirs.forget(opened);
        if (dir && sys.rets[1] === 1) {
          ctx.dirs.store(opened, sys.data.subarray(0, sys.rets[2] as number));
          if (key !== undefined) ctx.tree.absorb(key, sys.rets, sys.data);
        }
        ctx.mem.setU32(out, opened);
        return 0;
      },
    ),
    path_readlink: guard(
      (fd: number, ptr: number, len: number, buf: number, bufLen: number, out: number) => {
        const path = p(ptr, len);
        if (!path) return Errno.ENAMETOOLONG;
        const e = sys.call(Sys.READLINK, [fd], path);
        if (e) return e;
        const data = sys.data.subarray(0, bufLen);
        ctx.mem.write(buf, data);
        ctx.mem.setU32(out, data.length);
        return 0;
      },
    ),
    path_remove_directory: guard((fd: number, ptr: number, len: number) => {
      const path = p(ptr, len);
      return path ? sys.call(Sys.RMDIR, [fd], path) : Errno.ENAMETOOLONG;
    }),
    path_rename: guard(
      (ofd: number, optr: number, olen: number, nfd: number, nptr: number, nlen: number) => {
        const a = p(optr, olen);
        const b = p(nptr, nlen);
        if (!a || !b) return Errno.ENAMETOOLONG;
        return sys.call(Sys.RENAME, [ofd, a.length, nfd], join(a, b));
      },
    ),
    path_symlink: guard((optr: number, olen: number, fd: number, nptr: number, nlen: number) => {
      const target = p(optr, olen);
      const link = p(nptr, nlen);
      if (!target || !link) return Errno.ENAMETOOLONG;
      return sys.call(Sys.SYMLINK, [fd, target.length], join(target, link));
    }),
    path_unlink_file: guard((fd: number, ptr: number, len: number) => {
      const path = p(ptr, len);
      return path ? sys.call(Sys.UNLINK, [fd], path) : Errno.ENAMETOOLONG;
    }),
  };
}
