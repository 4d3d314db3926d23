/**
 * The sandbox implementation the engine runs on: the kernel. (The files-only
 * `MemoryBackend` exists only as a test double for engine and server tests.)
 */
import type { BackendFactory } from './backend.js';
import { KernelBackend } from './kernelBackend.js';

export interface BackendChoice {
  factory: BackendFactory;
  name: string;
}

export function defaultBackend(options: { programsDir?: string } = {}): BackendChoice {
  const programsDir = process.env.SANDGLASS_PROGRAMS_DIR ?? options.programsDir;
  return {
    factory: (settings) => KernelBackend.create(settings, programsDir),
    name: 'kernel',
  };
}
