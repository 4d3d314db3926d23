/** The complete `wasi_snapshot_preview1` import object for one process. */
import type { GlueContext } from '../context.js';
import { argsImports } from './args.js';
import { clockImports } from './clock.js';
import { fdImports } from './fd.js';
import { pathImports } from './path.js';
import { pollImports } from './poll.js';
import { procImports } from './proc.js';

export function preview1Imports(ctx: GlueContext): Record<string, (...a: never[]) => number> {
  return {
    ...argsImports(ctx),
    ...clockImports(ctx),
    ...fdImports(ctx),
    ...pathImports(ctx),
    ...pollImports(ctx),
    ...procImports(ctx),
  };
}
