/**
 * Monaco (~8 MB of script with its language services) loads on first use, in
 * a chunk of its own: the workbench's first paint and prompt do not wait for
 * it. Later calls share the one load.
 */
import type * as MonacoSetup from './monacoSetup.js';

export type MonacoModule = typeof MonacoSetup;

let loading: Promise<MonacoModule> | undefined;

export function loadMonaco(): Promise<MonacoModule> {
  loading ??= import('./monacoSetup.js');
  return loading;
}
