/** The runner factories an engine uses unless told otherwise: wasm on the shared worker pool. */
import type { RunnerFactories } from '../runner.js';
import { WasmRunnerFactory } from './wasmRunner.js';

export function defaultRunners(): RunnerFactories {
  return { wasm: new WasmRunnerFactory() };
}
