/** preview1 args_* and environ_*: answered in the worker, no round trip. */
import type { GlueContext } from '../context.js';
import { guard } from '../context.js';

function sizes(
  ctx: GlueContext,
  list: readonly Uint8Array[],
  countPtr: number,
  sizePtr: number,
): number {
  let total = 0;
  for (const a of list) total += a.length + 1;
  ctx.mem.setU32(countPtr, list.length);
  ctx.mem.setU32(sizePtr, total);
  return 0;
}

function fill(ctx: GlueContext, list: readonly Uint8Array[], ptrs: number, buf: number): number {
  let off = buf;
  list.forEach((a, i) => {
    ctx.mem.setU32(ptrs + i * 4, off);
    ctx.mem.write(off, a);
    ctx.mem.setU8(off + a.length, 0);
    off += a.length + 1;
  });
  return 0;
}

export function argsImports(ctx: GlueContext): Record<string, (...a: never[]) => number> {
  return {
    args_sizes_get: guard((c: number, s: number) => sizes(ctx, ctx.argv, c, s)),
    args_get: guard((p: number, b: number) => fill(ctx, ctx.argv, p, b)),
    environ_sizes_get: guard((c: number, s: number) => sizes(ctx, ctx.env, c, s)),
    environ_get: guard((p: number, b: number) => fill(ctx, ctx.env, p, b)),
  };
}
