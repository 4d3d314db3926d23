/** Per-sandbox resource limits enforced by the kernel (see limits/ for the mechanisms). */

export interface KernelLimits {
  /** Wall time per process in ms (0 = none). Exceeded: killed, status 124. */
  readonly wallTimeMs: number;
  /** Linear memory per process in bytes. Exceeded: killed, status 137. */
  readonly memoryBytes: number;
  /** Live processes per sandbox. Exceeded: spawn fails with EAGAIN. */
  readonly maxProcesses: number;
  /** Bytes captured per run()/spawn stream. Exceeded: writer killed, status 137. */
  readonly outputBytes: number;
  /**
   * Memory of all live processes together, in bytes (each reports its own,
   * see docs/abi.md "Memory reports"). Exceeded: the largest is killed, 137.
   */
  readonly sandboxMemoryBytes: number;
}

export const DEFAULT_KERNEL_LIMITS: KernelLimits = Object.freeze({
  wallTimeMs: 0,
  memoryBytes: 512 * 1024 * 1024,
  maxProcesses: 64,
  outputBytes: 64 * 1024 * 1024,
  sandboxMemoryBytes: 1024 * 1024 * 1024,
});

export const WASM_PAGE = 65536;

/** The most 64 KiB pages a process's memory may have under a `memoryBytes` limit. */
export function maxPagesFor(memoryBytes: number): number {
  return Math.max(1, Math.floor(memoryBytes / WASM_PAGE));
}

/** Status codes the kernel uses for limit kills. */
export const STATUS_TIMEOUT = 124;
export const STATUS_KILLED = 137;
export const STATUS_TRAP = 134;
export const STATUS_CANNOT_EXEC = 126;
