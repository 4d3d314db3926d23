/** The connected API client, set once at startup; actions reach it through `api()`. */
import type { SandglassApi } from '../../src-worker/contract/api.js';

let current: SandglassApi | null = null;

export function setApi(next: SandglassApi | null): void {
  current = next;
}

export function api(): SandglassApi {
  if (!current) throw new Error('not connected to the engine');
  return current;
}
