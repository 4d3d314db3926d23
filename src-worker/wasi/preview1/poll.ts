/**
 * preview1 poll_oneoff. Clock subscriptions become one timeout; fd
 * subscriptions go to the kernel, which blocks until one is ready or the
 * timeout passes (a caught signal ends a pure sleep early, and a poll with
 * fds with EINTR).
 */
import { Errno } from '../../base/errno.js';
import { Sys } from '../../base/syscalls.js';
import type { GlueContext } from '../context.js';
import { guard } from '../context.js';
import { nowNs } from './clock.js';

const SUB_SIZE = 48;
const EVENT_SIZE = 32;
const TYPE_CLOCK = 0;
const TYPE_FD_READ = 1;
const TYPE_FD_WRITE = 2;
const ABSTIME = 1;
/** Cap on subscriptions per call (host allocation bound). */
const MAX_SUBS = 4096;

interface ClockSub {
  userdata: bigint;
  deadlineMs: number;
}
interface FdSub {
  userdata: bigint;
  fd: number;
  type: number;
}

export function pollImports(ctx: GlueContext): Record<string, (...a: never[]) => number> {
  return {
    poll_oneoff: guard((inPtr: number, outPtr: number, n: number, neventsOut: number) => {
      if (n === 0) return Errno.EINVAL;
      if (n > MAX_SUBS) return Errno.EINVAL;
      ctx.mem.check(inPtr, n * SUB_SIZE);
      ctx.mem.check(outPtr, n * EVENT_SIZE);
      ctx.mem.check(neventsOut, 4);
      const clocks: ClockSub[] = [];
      const fds: FdSub[] = [];
      const badClocks: bigint[] = [];
      const nowMs = performance.now();
      for (let i = 0; i < n; i++) {
        const s = inPtr + i * SUB_SIZE;
        const userdata = ctx.mem.getU64(s);
        const type = ctx.mem.getU8(s + 8);
        if (type === TYPE_CLOCK) {
          const id = ctx.mem.getU32(s + 16);
          const timeout = ctx.mem.getU64(s + 24);
          const flags = ctx.mem.getU16(s + 40);
          const now = nowNs(id);
          if (now === undefined) {
            badClocks.push(userdata);
            continue;
          }
          const rel = flags & ABSTIME ? Number(timeout - now) / 1e6 : Number(timeout) / 1e6;
          clocks.push({ userdata, deadlineMs: nowMs + Math.max(0, rel) });
        } else if (type === TYPE_FD_READ || type === TYPE_FD_WRITE) {
          fds.push({ userdata, fd: ctx.mem.getU32(s + 16), type });
        } else {
          return Errno.EINVAL;
        }
      }
      let nev = 0;
      const emit = (
        userdata: bigint,
        error: number,
        type: number,
        nbytes: number,
        hup: boolean,
      ): void => {
        const e = outPtr + nev * EVENT_SIZE;
        ctx.mem.setU64(e, userdata);
        ctx.mem.setU16(e + 8, error);
        ctx.mem.setU8(e + 10, type);
        ctx.mem.setU64(e + 16, BigInt(nbytes));
        ctx.mem.setU16(e + 24, hup ? 1 : 0);
        nev++;
      };
      for (const u of badClocks) emit(u, Errno.EINVAL, TYPE_CLOCK, 0, false);
      if (nev > 0) {
        ctx.mem.setU32(neventsOut, nev);
        return 0;
      }
      const deadline = clocks.length ? Math.min(...clocks.map((c) => c.deadlineMs)) : -1;
      const timeout = deadline < 0 ? -1 : Math.max(0, deadline - nowMs);
      const payload = new Uint8Array(fds.length * 5);
      const pdv = new DataView(payload.buffer);
      fds.forEach((f, i) => {
        pdv.setUint32(i * 5, f.fd, true);
        pdv.setUint8(i * 5 + 4, f.type === TYPE_FD_READ ? 0 : 1);
      });
      const err = ctx.sys.call(Sys.POLL, [timeout, fds.length], payload);
      if (err) return err;
      // Kernel answer per fd sub: errno u16, ready u8, hup u8, nbytes u32.
      const r = ctx.sys.data;
      const rdv = new DataView(r.buffer, r.byteOffset, r.byteLength);
      fds.forEach((f, i) => {
        if (i * 8 + 8 > r.length) return;
        const errno = rdv.getUint16(i * 8, true);
        const ready = rdv.getUint8(i * 8 + 2);
        if (ready || errno)
          emit(
            f.userdata,
            errno,
            f.type,
            rdv.getUint32(i * 8 + 4, true),
            rdv.getUint8(i * 8 + 3) === 1,
          );
      });
      if (nev === 0) {
        const t = performance.now();
        for (const c of clocks)
          if (c.deadlineMs <= t + 0.5) emit(c.userdata, 0, TYPE_CLOCK, 0, false);
        // Woken early (a caught signal): report the nearest clock so sleepers return.
        if (nev === 0 && clocks.length)
          emit((clocks[0] as ClockSub).userdata, 0, TYPE_CLOCK, 0, false);
      }
      ctx.mem.setU32(neventsOut, nev);
      return 0;
    }),
  };
}
