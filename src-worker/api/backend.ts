/**
 * What the API layer needs from a sandbox implementation. The kernel's
 * `Sandbox` is adapted to this interface in one file (kernelBackend.ts), so the
 * engine API stays independent of kernel internals and testable with a double.
 */
import type { FileKind, FsChange, SandboxSettings } from '../contract/api.js';

export interface BackendStat {
  kind: FileKind;
  mode: number;
  size: number;
  mtimeMs: number;
  target?: string;
}

export interface BackendDirEntry {
  name: string;
  stat: BackendStat;
}

export interface BackendRunOptions {
  stdin?: string;
  env?: Record<string, string>;
  cwd?: string;
  timeoutMs?: number;
}

export interface BackendRunResult {
  stdout: string;
  stderr: string;
  status: number;
}

/** An interactive shell attached to a kernel tty. */
export interface BackendTerminal {
  write(data: string): void;
  resize(cols: number, rows: number): void;
  onData(listener: (chunk: Uint8Array | string) => void): void;
  onExit(listener: (status: number) => void): void;
  close(): void;
}

export interface BackendStats {
  files: number;
  bytes: number;
  processes: number;
}

/** One sandbox as the API layer sees it. Paths are absolute. */
export interface BackendSandbox {
  /** Short name of the implementation, reported by `hello`. */
  readonly kind: string;
  readFile(path: string, snapshotId?: string): Promise<Uint8Array>;
  writeFile(path: string, data: Uint8Array): Promise<void>;
  readDir(path: string, snapshotId?: string): Promise<BackendDirEntry[]>;
  stat(path: string, snapshotId?: string): Promise<BackendStat>;
  mkdir(path: string): Promise<void>;
  remove(path: string, recursive: boolean): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  snapshot(): Promise<string>;
  restore(snapshotId: string): Promise<void>;
  stats(): Promise<BackendStats>;
  /** Applies limits, env and timeout; called at creation and on updates. */
  configure(settings: SandboxSettings): Promise<void>;
  /** File changes; a change with an empty path means "processes changed": refresh stats only. */
  onChange(listener: (change: FsChange) => void): () => void;
  run(command: string, options: BackendRunOptions): Promise<BackendRunResult>;
  openTerminal(options: { cols: number; rows: number }): Promise<BackendTerminal>;
  dispose(): Promise<void>;
}

export type BackendFactory = (settings: SandboxSettings) => Promise<BackendSandbox>;

/** Errors from backends carry an errno-style code. */
export class BackendError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'BackendError';
  }
}
