/**
 * python3 as a program of the registry: a stub (`#!sandglass python`) at the
 * usual paths, installed when the runtime (resources/python, built by
 * scripts/build-python.mjs) is there. The runner lives in python/; this is
 * what exec and the registry need to know of it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PYTHON_PROGRAM = 'python';

export const PYTHON_LINKS: readonly string[] = [
  '/usr/bin/python3',
  '/usr/bin/python',
  '/bin/python3',
  '/bin/python',
];

/** $SANDGLASS_PYTHON_DIR, else <repo or app root>/resources/python. */
export function defaultPythonDir(): string {
  const override = typeof process === 'undefined' ? undefined : process.env.SANDGLASS_PYTHON_DIR;
  if (override) return override;
  return fileURLToPath(new URL('../../resources/python', import.meta.url));
}

/** True when the runtime is built (python3 is installed into sandboxes only then). */
export function pythonAvailable(dir = defaultPythonDir()): boolean {
  return existsSync(join(dir, 'pyodide.asm.js')) && existsSync(join(dir, 'pyodide.asm.wasm'));
}
