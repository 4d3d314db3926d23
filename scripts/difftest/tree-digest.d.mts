// Types for tree-digest.mjs (plain JS so the runner loads it without tsx).

/** The file-system calls the digest needs, on the host or in a sandbox. */
export interface DigestFs {
  readdir(path: string): Promise<string[]>;
  lstat(path: string): Promise<{ kind: string; mode: number; size: number }>;
  readlink(path: string): Promise<string>;
  readFile(path: string): Promise<Uint8Array>;
}

export function digestTreeWith(fsApi: DigestFs, dir: string): Promise<string>;
export const hostFs: DigestFs;
export function digestHostTree(dir: string): Promise<string>;
