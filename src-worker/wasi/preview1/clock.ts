/** preview1 clocks, randomness and sched_yield: pure, answered in the worker. */
import { randomFillSync } from 'node:crypto';
import { Errno } from '../../base/errno.js';
import type { GlueContext } from '../context.js';
import { guard } from '../context.js';

export const CLOCK_REALTIME = 0;
export const CLOCK_MONOTONIC = 1;
export const CLOCK_PROCESS = 2;
export const CLOCK_THREAD = 3;

const origin = BigInt(Math.round(performance.timeOrigin * 1e6));

/** Current time of a WASI clock in ns, or undefined for an unknown clock. */
export function nowNs(id: number): bigint | undefined {
  switch (id) {
    case CLOCK_REALTIME:
      return origin + BigInt(Math.round(performance.now() * 1e6));
    case CLOCK_MONOTONIC:
    case CLOCK_PROCESS:
    case CLOCK_THREAD:
      return BigInt(Math.round(performance.now() * 1e6));
    default:
      return undefined;
  }
}

export function clockImports(ctx: GlueContext): Record<string, (...a: never[]) => number> {
  return {
    clock_res_get: guard((id: number, out: number) => {
      if (nowNs(id) === undefined) return Errno.EINVAL;
      ctx.mem.setU64(out, 1000n);
      return 0;
    }),
    clock_time_get: guard((id: number, _precision: bigint, out: number) => {
      const t = nowNs(id);
      if (t === undefined) return Errno.EINVAL;
      ctx.mem.setU64(out, t);
      return 0;
    }),
    random_get: guard((buf: number, len: number) => {
      ctx.mem.check(buf, len);
      // randomFillSync caps at 2^31-1 per call; fill in slices.
      const u8 = ctx.mem.u8();
      for (let off = 0; off < len; off += 65536)
        randomFillSync(u8, buf + off, Math.min(65536, len - off));
      return 0;
    }),
    sched_yield: () => 0,
  };
}
