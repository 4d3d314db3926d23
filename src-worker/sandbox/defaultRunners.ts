/**
 * The runner factories an engine uses unless told otherwise: wasm on the
 * shared worker pool, python on the shared interpreter pool (which loads
 * nothing until the first python3).
 */
import { PythonRunnerFactory } from '../python/node/pythonRunner.js';
import type { RunnerFactories } from '../proc/runner.js';
import { WasmRunnerFactory } from '../proc/node/wasmRunner.js';

export function defaultRunners(): RunnerFactories {
  return { wasm: new WasmRunnerFactory(), python: new PythonRunnerFactory() };
}
