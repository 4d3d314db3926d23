/**
 * Chooses the sandbox implementation the engine runs on: the kernel
 * (default), or the files-only memory backend when SANDGLASS_BACKEND=memory.
 */
import type { BackendFactory } from './backend.js';
import { KernelBackend } from './kernelBackend.js';
import { MemoryBackend } from './memoryBackend.js';

export interface BackendChoice {
  factory: BackendFactory;
  name: string;
}

export function defaultBackend(options: { programsDir?: string } = {}): BackendChoice {
  if (process.env.SANDGLASS_BACKEND === 'memory') {
    return { factory: async () => new MemoryBackend(), name: 'memory (no kernel: files only)' };
  }
  const programsDir = process.env.SANDGLASS_PROGRAMS_DIR ?? options.programsDir;
  return {
    factory: (settings) => KernelBackend.create(settings, programsDir),
    name: 'kernel',
  };
}
