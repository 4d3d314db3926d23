/** preview1 clocks, randomness and sched_yield: pure, answered in the worker. */
import { openSync, readSync } from 'node:fs';
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

/**
 * The host's /dev/urandom, opened on first use (a worker thread's fds are
 * closed when it ends), or -1 where there is none. Reading it spares a
 * process worker node:crypto: ~17 internal modules, ~1.5 ms of the first
 * program's start (the shell asks for random bytes to seed its hash maps).
 */
let urandom: number | undefined;

/** Fills `u8[off, off+len)` with random bytes from the host's CSPRNG. */
function fillRandom(u8: Uint8Array, off: number, len: number): void {
  if (urandom === undefined) {
    try {
      urandom = openSync('/dev/urandom', 'r');
    } catch {
      urandom = -1;
    }
  }
  while (urandom >= 0 && len > 0) {
    const n = readSync(urandom, u8, off, len, null);
    if (n <= 0) break;
    off += n;
    len -= n;
  }
  if (len === 0) return;
  // randomFillSync caps at 2^31-1 per call; fill in slices.
  const { randomFillSync } = process.getBuiltinModule('node:crypto');
  for (let at = 0; at < len; at += 65536) randomFillSync(u8, off + at, Math.min(65536, len - at));
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
      fillRandom(ctx.mem.u8(), buf, len);
      return 0;
    }),
    sched_yield: () => 0,
  };
}
