/**
 * The `sandglass` import object for one process, limited to its role's
 * grants, and the instantiation-time check of what a module imports.
 */
import type { GlueContext } from '../context.js';
import { fdsImports } from './fds.js';
import { metaImports } from './meta.js';
import { processImports } from './process.js';
import { granted, type Role } from './roles.js';
import { sessionImports } from './session.js';
import { ttyImports } from './tty.js';

export function sandglassImports(
  ctx: GlueContext,
  role: Role,
): Record<string, (...a: never[]) => number> {
  const all = {
    ...processImports(ctx),
    ...fdsImports(ctx),
    ...metaImports(ctx),
    ...ttyImports(ctx),
    ...sessionImports(ctx),
  };
  const allowed = granted(role);
  const out: Record<string, (...a: never[]) => number> = {};
  for (const [k, v] of Object.entries(all)) if (allowed.has(k)) out[k] = v;
  return out;
}

/**
 * Why a module cannot run with `role`, or undefined if it can: unknown
 * namespaces, `sandglass` names not granted, non-function imports other
 * than nothing (we provide no memory or tables).
 */
export function checkImports(
  module: WebAssembly.Module,
  role: Role,
  preview1: ReadonlySet<string>,
): string | undefined {
  const allowed = granted(role);
  for (const imp of WebAssembly.Module.imports(module)) {
    if (imp.module === 'wasi_snapshot_preview1') {
      if (imp.kind !== 'function' || !preview1.has(imp.name))
        return `imports unknown function wasi_snapshot_preview1.${imp.name}`;
    } else if (imp.module === 'sandglass') {
      if (imp.kind !== 'function') return `imports sandglass.${imp.name} which is not a function`;
      if (!allowed.has(imp.name))
        return `imports sandglass.${imp.name}, which role '${role}' does not grant`;
    } else {
      return `imports from unknown module '${imp.module}' (${imp.name})`;
    }
  }
  return undefined;
}

export function importsSandglass(module: WebAssembly.Module): boolean {
  return WebAssembly.Module.imports(module).some((i) => i.module === 'sandglass');
}
