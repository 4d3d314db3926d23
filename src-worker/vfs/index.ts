/**
 * The in-memory POSIX filesystem of a sandbox: persistent, structurally
 * shared state with O(1) snapshots. Pure code (no node:* imports); host
 * import/export lives in `./node/`.
 */
export * from './types.js';
export { bytesToPath, pathToBytes, utf8ToPath, pathToUtf8, isBytePath } from '../base/bytes.js';
export { MemoryVfs, ROOT_INO, DEFAULT_LIMITS } from './memoryVfs.js';
export { populateDefaultLayout, USER_UID, USER_GID, USER_HOME } from './layout.js';
export { CHUNK_SIZE } from './fileData.js';

import { MemoryVfs } from './memoryVfs.js';
import { populateDefaultLayout } from './layout.js';
import type { DefaultLayoutOptions, Vfs as VfsApi, VfsOptions } from './types.js';

/** The VFS interface (re-declared here because the factory object below shares its name). */
export type Vfs = VfsApi;

/** Factories: `Vfs.create()` gives an empty tree, `Vfs.createDefault()` the standard layout. */
export const Vfs = {
  create(opts?: VfsOptions): VfsApi {
    return MemoryVfs.create(opts);
  },
  createDefault(opts?: DefaultLayoutOptions): VfsApi {
    const vfs = MemoryVfs.create(opts);
    populateDefaultLayout(vfs, opts);
    return vfs;
  },
};
