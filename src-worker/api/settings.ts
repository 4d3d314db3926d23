/** Sandbox settings of the API: their defaults and how they map onto Sandbox options. */
import type { SandboxSettings } from '../contract/api.js';
import type { KernelLimits } from '../base/limits.js';
import type { VfsLimits } from '../vfs/index.js';

export const DEFAULT_SETTINGS: SandboxSettings = {
  limits: {
    totalBytes: 256 * 1024 * 1024,
    fileBytes: 64 * 1024 * 1024,
    nodeCount: 100_000,
    processCount: 64,
    outputBytes: 16 * 1024 * 1024,
    memoryBytes: 1024 * 1024 * 1024,
  },
  env: {},
  timeoutMs: 60_000,
  network: { allowedHosts: [], blockedHosts: [] },
};

/** Settings that leave every limit at the kernel's default and set no time limit (the CLI's). */
export const KERNEL_DEFAULT_SETTINGS: SandboxSettings = {
  limits: { totalBytes: 0, fileBytes: 0, nodeCount: 0, processCount: 0, outputBytes: 0 },
  env: {},
  timeoutMs: 0,
};

/** The kernel and VFS limits a settings object asks for (0 = kernel default, left out). */
export function limitsOf(settings: SandboxSettings): {
  limits: Partial<KernelLimits>;
  vfsLimits: Partial<VfsLimits>;
} {
  const l = settings.limits;
  const limits: {
    wallTimeMs?: number;
    maxProcesses?: number;
    outputBytes?: number;
    sandboxMemoryBytes?: number;
  } = {};
  if (l.memoryBytes !== undefined && l.memoryBytes > 0) limits.sandboxMemoryBytes = l.memoryBytes;
  if (settings.timeoutMs > 0) limits.wallTimeMs = settings.timeoutMs;
  if (l.processCount > 0) limits.maxProcesses = l.processCount;
  if (l.outputBytes > 0) limits.outputBytes = l.outputBytes;
  const vfsLimits: { maxBytes?: number; maxFileSize?: number; maxNodes?: number } = {};
  if (l.totalBytes > 0) vfsLimits.maxBytes = l.totalBytes;
  if (l.fileBytes > 0) vfsLimits.maxFileSize = l.fileBytes;
  if (l.nodeCount > 0) vfsLimits.maxNodes = l.nodeCount;
  return { limits, vfsLimits };
}
