/** preview1 fd_*: thin glue from guest memory to the kernel's descriptor calls. */
import { Errno } from '../../base/errno.js';
import { ROOT_FD, ROOT_PREOPEN_NAME, Sys } from '../../base/syscalls.js';
import type { GlueContext } from '../context.js';
import { guard, MAX_IO } from '../context.js';

/** All rights we report: the kernel, not rights bits, decides what is allowed. */
export const ALL_RIGHTS = (1n << 30n) - 1n;
/** A terminal lacks FD_SEEK (bit 2) and FD_TELL (bit 5): wasi-libc's isatty() checks exactly that. */
export const TTY_RIGHTS = ALL_RIGHTS & ~((1n << 2n) | (1n << 5n));

/**
 * Kernel milliseconds (a double) to WASI nanoseconds. Whole milliseconds
 * convert exactly; only the fraction goes through floating point, since
 * `ms * 1e6` for a present-day time exceeds 2^53 and would come out as
 * e.g. ...012999936 instead of ...013000000.
 */
export function msToNs(ms: number): bigint {
  if (!Number.isFinite(ms)) return 0n;
  const whole = Math.floor(ms);
  // A double holds today's ms with ~0.2-0.5 µs resolution: round the fraction
  // to the coarsest power-of-ten ns step the value really carries, so a host
  // time of .464999000 s reads back as that, not .464999023.
  const ulpNs = Math.abs(ms) * Number.EPSILON * 1e6;
  const step = ulpNs <= 1 ? 1 : 10 ** Math.ceil(Math.log10(ulpNs));
  const frac = Math.round(((ms - whole) * 1e6) / step) * step;
  return BigInt(whole) * 1_000_000n + BigInt(frac);
}

/** Write a filestat (64 bytes) from stat slots (`STAT_SLOTS`; the last reply's by default). */
export function writeFilestat(
  ctx: GlueContext,
  out: number,
  r: ArrayLike<number> = ctx.sys.rets,
): void {
  ctx.mem.check(out, 64);
  ctx.mem.setU64(out, BigInt(r[0] as number));
  ctx.mem.setU64(out + 8, BigInt(r[1] as number));
  ctx.mem.setU8(out + 16, r[2] as number);
  for (let i = 17; i < 24; i++) ctx.mem.setU8(out + i, 0);
  ctx.mem.setU64(out + 24, BigInt(r[3] as number));
  ctx.mem.setU64(out + 32, BigInt(r[4] as number));
  ctx.mem.setU64(out + 40, msToNs(r[5] as number));
  ctx.mem.setU64(out + 48, msToNs(r[6] as number));
  ctx.mem.setU64(out + 56, msToNs(r[7] as number));
}

/** Convert WASI timestamps + fst_flags to kernel args: NaN = leave, -1 = now, else ms. */
export function timeArgs(atim: bigint, mtim: bigint, flags: number): [number, number] | undefined {
  const ATIM = 1;
  const ATIM_NOW = 2;
  const MTIM = 4;
  const MTIM_NOW = 8;
  if ((flags & ATIM && flags & ATIM_NOW) || (flags & MTIM && flags & MTIM_NOW)) return undefined;
  const a = flags & ATIM_NOW ? -1 : flags & ATIM ? Number(atim) / 1e6 : Number.NaN;
  const m = flags & MTIM_NOW ? -1 : flags & MTIM ? Number(mtim) / 1e6 : Number.NaN;
  return [a, m];
}

export function fdImports(ctx: GlueContext): Record<string, (...a: never[]) => number> {
  const { sys } = ctx;
  return {
    fd_advise: guard((fd: number) => sys.call(Sys.ADVISE, [fd])),
    fd_allocate: guard((fd: number, off: bigint, len: bigint) =>
      sys.call(Sys.ALLOCATE, [fd, Number(off), Number(len)]),
    ),
    fd_close: guard((fd: number) => ctx.files.close(fd)),
    fd_datasync: guard((fd: number) => sys.call(Sys.FSYNC, [fd])),
    fd_sync: guard((fd: number) => sys.call(Sys.FSYNC, [fd])),
    fd_fdstat_get: guard((fd: number, out: number) => {
      const e = sys.call(Sys.FDSTAT, [fd]);
      if (e) return e;
      ctx.mem.check(out, 24);
      ctx.mem.setU8(out, sys.rets[0] as number);
      ctx.mem.setU8(out + 1, 0);
      ctx.mem.setU16(out + 2, sys.rets[1] as number);
      ctx.mem.setU32(out + 4, 0);
      const rights = sys.rets[2] === 1 ? TTY_RIGHTS : ALL_RIGHTS;
      ctx.mem.setU64(out + 8, rights);
      ctx.mem.setU64(out + 16, rights);
      return 0;
    }),
    fd_fdstat_set_flags: guard((fd: number, flags: number) => sys.call(Sys.SET_FLAGS, [fd, flags])),
    fd_fdstat_set_rights: guard((fd: number) => sys.call(Sys.FDSTAT, [fd])),
    fd_filestat_get: guard((fd: number, out: number) => {
      const held = ctx.files.fstat(fd);
      if (held) {
        writeFilestat(ctx, out, held);
        return 0;
      }
      const e = sys.call(Sys.FSTAT, [fd]);
      if (e) return e;
      writeFilestat(ctx, out);
      return 0;
    }),
    fd_filestat_set_size: guard((fd: number, size: bigint) =>
      sys.call(Sys.FTRUNCATE, [fd, Number(size)]),
    ),
    fd_filestat_set_times: guard((fd: number, atim: bigint, mtim: bigint, flags: number) => {
      const t = timeArgs(atim, mtim, flags);
      if (!t) return Errno.EINVAL;
      return sys.call(Sys.FUTIMES, [fd, t[0], t[1]]);
    }),
    fd_pread: guard((fd: number, iovs: number, n: number, off: bigint, out: number) => {
      const len = Math.min(ctx.mem.iovLength(iovs, n), MAX_IO);
      const e = sys.callView(Sys.PREAD, [fd, len, Number(off)]);
      if (e) return e;
      ctx.mem.setU32(out, ctx.mem.scatter(iovs, n, sys.data));
      return 0;
    }),
    fd_pwrite: guard((fd: number, iovs: number, n: number, off: bigint, out: number) => {
      const data = ctx.mem.gather(iovs, n, MAX_IO);
      const e = sys.call(Sys.PWRITE, [fd, Number(off)], data);
      if (e) return e;
      ctx.mem.setU32(out, sys.rets[0] as number);
      return 0;
    }),
    fd_read: guard((fd: number, iovs: number, n: number, out: number) => {
      const len = Math.min(ctx.mem.iovLength(iovs, n), MAX_IO);
      if (len > 0 && ctx.files.atEnd(fd)) {
        ctx.mem.setU32(out, 0);
        return 0;
      }
      const e = sys.callView(Sys.READ, [fd, len]);
      if (e) return e;
      ctx.mem.setU32(out, ctx.mem.scatter(iovs, n, sys.data));
      if (sys.rets[0] === 1 && len > 0) ctx.files.sawEnd(fd);
      return 0;
    }),
    fd_write: guard((fd: number, iovs: number, n: number, out: number) => {
      const data = ctx.mem.gather(iovs, n, MAX_IO);
      const e = sys.call(Sys.WRITE, [fd], data);
      if (e) return e;
      ctx.mem.setU32(out, sys.rets[0] as number);
      return 0;
    }),
    // The kernel's only preopen is the root at ROOT_FD (Sys.PRESTAT says the
    // same): answered here, without the round trips libc's start-up makes.
    fd_prestat_get: guard((fd: number, out: number) => {
      if (fd !== ROOT_FD) return Errno.EBADF;
      ctx.mem.check(out, 8);
      ctx.mem.setU32(out, 0);
      ctx.mem.setU32(out + 4, ROOT_PREOPEN_NAME.length);
      return 0;
    }),
    fd_prestat_dir_name: guard((fd: number, buf: number, len: number) => {
      if (fd !== ROOT_FD) return Errno.EBADF;
      ctx.mem.write(buf, ROOT_PREOPEN_NAME.subarray(0, len));
      return 0;
    }),
    fd_readdir: guard((fd: number, buf: number, len: number, cookie: bigint, out: number) => {
      ctx.mem.check(buf, len);
      const src = ctx.files.readdir(fd, Number(cookie), len);
      if (typeof src === 'number') return src;
      // The kernel's entries are WASI dirents already: copy as many bytes as
      // fit; WASI wants the buffer filled, the last entry cut if need be.
      const used = Math.min(len, src.length);
      ctx.mem.u8().set(src.subarray(0, used), buf);
      ctx.mem.setU32(out, used);
      return 0;
    }),
    fd_renumber: guard((from: number, to: number) => {
      ctx.files.replaced(from);
      ctx.files.replaced(to);
      return sys.call(Sys.RENUMBER, [from, to]);
    }),
    fd_seek: guard((fd: number, off: bigint, whence: number, out: number) => {
      const e = sys.call(Sys.SEEK, [fd, Number(BigInt.asIntN(64, off)), whence]);
      if (e) return e;
      ctx.mem.setU64(out, BigInt(sys.rets[0] as number));
      return 0;
    }),
    fd_tell: guard((fd: number, out: number) => {
      const e = sys.call(Sys.SEEK, [fd, 0, 1]);
      if (e) return e;
      ctx.mem.setU64(out, BigInt(sys.rets[0] as number));
      return 0;
    }),
  };
}
