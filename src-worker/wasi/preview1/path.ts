/** preview1 path_*: paths are bytes resolved by the kernel against the given dirfd. */
import { Errno } from '../../base/errno.js';
import { Sys } from '../../base/syscalls.js';
import type { GlueContext } from '../context.js';
import { guard } from '../context.js';
import { timeArgs, writeFilestat } from './fd.js';

/** PATH_MAX: longer paths are refused before anything is copied to the kernel. */
export const PATH_MAX = 4096;

const LOOKUP_SYMLINK_FOLLOW = 1;
const RIGHT_FD_READ = 1n << 1n;
const RIGHT_FD_READDIR = 1n << 14n;
const RIGHT_FD_WRITE = 1n << 6n;
const RIGHT_FD_ALLOCATE = 1n << 8n;
const RIGHT_FD_FILESTAT_SET_SIZE = 1n << 22n;

export class PathTooLong extends Error {}

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
      // The guest keeps mode/uid/gid for the path_stat_ext that often follows.
      const e = ctx.files.stat(fd, path, flags & LOOKUP_SYMLINK_FOLLOW);
      if (e) return e;
      writeFilestat(ctx, out);
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
        ctx.mem.check(out, 4);
        const opened = ctx.files.open(
          {
            dirfd: fd,
            follow: dirflags & LOOKUP_SYMLINK_FOLLOW,
            oflags,
            fdflags,
            read: (rightsBase & (RIGHT_FD_READ | RIGHT_FD_READDIR)) !== 0n,
            write:
              (rightsBase & (RIGHT_FD_WRITE | RIGHT_FD_ALLOCATE | RIGHT_FD_FILESTAT_SET_SIZE)) !==
              0n,
          },
          path,
        );
        if (opened < 0) return -opened;
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
