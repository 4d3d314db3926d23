/**
 * A host file as the lazy contents of an imported VFS file.
 *
 * At import the file's identity is recorded (device, inode, size, mtime and
 * ctime in nanoseconds); the first use opens it again (never following a
 * symlink), checks that identity and reads it whole. A file that changed
 * since the import fails with EIO and says so on the reader's stderr: what
 * the sandbox and its snapshots see is what was there at import time, or
 * nothing. ctime cannot be set back by a user (utimes moves it to now), so a
 * change that restores size and mtime is still seen. The bytes read are kept
 * (pinned) here, so a file is read from the host at most once.
 */
import fs from 'node:fs';
import type { BigIntStats } from 'node:fs';
import type { Buffer } from 'node:buffer';
import { pathToUtf8 } from '../../base/bytes.js';
import { Errno, KernelError } from '../../base/errno.js';
import type { BytePath, ContentSource } from '../types.js';

const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = fs.constants;

/**
 * File times come from a coarse clock (a kernel tick; whole seconds on some
 * filesystems), so a file written again within the same tick keeps its
 * mtime and ctime. A file changed this recently at import is read at once,
 * as git treats a "racily clean" index entry.
 */
export const RECENT_MS = 3000;

/** The identity a lazy file is checked against. */
interface Identity {
  readonly dev: bigint;
  readonly ino: bigint;
  readonly size: bigint;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
}

function identityOf(st: BigIntStats): Identity {
  return { dev: st.dev, ino: st.ino, size: st.size, mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs };
}

function sameIdentity(a: Identity, b: Identity): boolean {
  return (
    a.dev === b.dev &&
    a.ino === b.ino &&
    a.size === b.size &&
    a.mtimeNs === b.mtimeNs &&
    a.ctimeNs === b.ctimeNs
  );
}

/** Opens a host file for reading without following a symlink or blocking on a fifo. */
export function openHostFile(host: Buffer): number {
  return fs.openSync(host, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
}

export class HostFileSource implements ContentSource {
  readonly size: number;
  private pinned: Uint8Array | null = null;
  private failure: KernelError | null = null;

  constructor(
    /** Host path, as bytes. */
    private readonly host: Buffer,
    /** The file's path in the sandbox, for messages. */
    private readonly shown: BytePath,
    st: BigIntStats,
  ) {
    this.identity = identityOf(st);
    this.size = Number(st.size);
  }

  private readonly identity: Identity;

  /** Whether the host file was changed at or after `ns` (host clock). */
  changedSince(ns: bigint): boolean {
    return this.identity.ctimeNs >= ns || this.identity.mtimeNs >= ns;
  }

  /** Whether the contents are held (read, or failed for good). */
  get settled(): boolean {
    return this.pinned !== null || this.failure !== null;
  }

  load(): Uint8Array {
    if (this.pinned) return this.pinned;
    if (this.failure) throw this.failure;
    let fd: number;
    try {
      fd = openHostFile(this.host);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // Gone, or swapped for a symlink or a socket: changed for good.
      if (code === 'ENOENT' || code === 'ELOOP' || code === 'ENXIO' || code === 'ENOTDIR')
        throw this.changed('was removed or replaced');
      // Anything else (EMFILE, EACCES) may pass: try again on the next use.
      throw new KernelError(Errno.EIO, `${pathToUtf8(this.shown)}: ${code ?? String(err)}`);
    }
    try {
      return this.readFd(fd);
    } finally {
      fs.closeSync(fd);
    }
  }

  /**
   * Reads the contents from `fd`, a descriptor of the host file opened when
   * this source was made (the import's eager path: no second open).
   */
  readFd(fd: number): Uint8Array {
    if (this.pinned) return this.pinned;
    if (!sameIdentity(identityOf(fs.fstatSync(fd, { bigint: true })), this.identity))
      throw this.changed('changed');
    // Exactly `size` bytes, owned by this file alone (no pooled slab).
    const bytes = new Uint8Array(this.size);
    let pos = 0;
    while (pos < this.size) {
      const n = fs.readSync(fd, bytes, pos, this.size - pos, pos);
      if (n === 0) throw this.changed('shrank');
      pos += n;
    }
    this.pinned = bytes;
    return bytes;
  }

  private changed(what: string): KernelError {
    const shown = pathToUtf8(this.shown);
    this.failure = new KernelError(
      Errno.EIO,
      `${shown}: ${what} on the host since it was imported`,
      `${shown}: the host file ${what} after it was imported and before it was first read (import it again)`,
    );
    return this.failure;
  }
}
