/**
 * The `sandglass` import object for one process, limited to its role's
 * grants, and the instantiation-time check of what a module imports.
 */
import type { GlueContext } from '../context.js';
import { fdsImports } from './fds.js';
import { metaImports } from './meta.js';
import { netImports } from './net.js';
import { processImports } from './process.js';
import { MEMORY_IMPORT } from '../../limits/memoryLimit.js';
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
    ...netImports(ctx),
  };
  const allowed = granted(role);
  const out: Record<string, (...a: never[]) => number> = {};
  for (const [k, v] of Object.entries(all)) if (allowed.has(k)) out[k] = v;
  return out;
}

/**
 * `sandglass_heap`, granted to every program (it reveals and grants
 * nothing): crates/wasm-heap calls `grown(pages)` after each growth of the
 * heap so the kernel knows the process's memory without asking.
 */
export function heapImports(sys: { reportMemory(bytes: number): void }): {
  grown: (pages: number) => void;
} {
  return { grown: (pages: number) => sys.reportMemory((pages >>> 0) * 65536) };
}

/**
 * Why a module cannot run with `role`, or undefined if it can: unknown
 * namespaces, `sandglass` names not granted, non-function imports other
 * than the memory the worker hands a rewritten module (`memory`; see
 * `importMemory`).
 */
export function checkImports(
  module: WebAssembly.Module,
  role: Role,
  preview1: ReadonlySet<string>,
  memory = false,
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
    } else if (imp.module === 'sandglass_heap') {
      if (imp.kind !== 'function' || imp.name !== 'grown')
        return `imports unknown function sandglass_heap.${imp.name}`;
    } else if (memory && imp.module === MEMORY_IMPORT.module) {
      if (imp.kind !== 'memory' || imp.name !== MEMORY_IMPORT.name)
        return `imports unknown ${imp.kind} ${imp.module}.${imp.name}`;
    } else {
      return `imports from unknown module '${imp.module}' (${imp.name})`;
    }
  }
  return undefined;
}

export function importsSandglass(module: WebAssembly.Module): boolean {
  return WebAssembly.Module.imports(module).some((i) => i.module === 'sandglass');
}
