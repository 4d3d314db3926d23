/**
 * Import a host directory into a VFS (Node only). Host symlinks are copied as
 * symlinks and never followed on the host; inside the VFS they resolve
 * against the VFS root, so they cannot reach the host. Files are opened with
 * O_NOFOLLOW, so one swapped for a symlink during the import is not followed
 * either. Sockets, fifos and device files are skipped. With `readOnly` the
 * imported subtree is sealed: writers get EROFS and hard links out of it
 * EXDEV.
 *
 * Contents (`contents`): 'eager' reads every file now. 'lazy' walks the tree
 * and records each file's identity (see hostFileSource.ts); a file is read on
 * first use, and one that changed on the host meanwhile fails with EIO. A
 * file changed in the last few seconds is read at once (its times cannot
 * tell a later change apart). 'background' (the default) is 'lazy', then
 * reads the rest in slices after the import returns, so a long-lived sandbox
 * soon holds everything and later host changes cannot matter. Either way the
 * sandbox and its snapshots see the files as they were at import, or EIO.
 * Limits (file size, space, nodes) are checked on the recorded sizes during
 * the walk, so a huge host file fails at once without being read.
 *
 * Speed: synchronous host calls (a thread-pool round trip per call made the
 * old async copy run at ~30 MB/s on small files), VFS calls by inode rather
 * than by path, each file read into one buffer of its size that the VFS uses
 * as is. The work runs in slices of a few ms with a yield to the event loop
 * between them, so an engine importing a large tree keeps answering its
 * other sandboxes.
 */
import fs from 'node:fs';
import type { Dirent } from 'node:fs';
import { Buffer } from 'node:buffer';
import { bytesToPath } from '../../base/bytes.js';
import { Errno, KernelError } from '../../base/errno.js';
import type { BytePath, Ino, Vfs } from '../types.js';
import { joinPath } from '../paths.js';
import { HostFileSource, RECENT_MS, openHostFile } from './hostFileSource.js';
import { SLICE_MS, yieldNow } from './slices.js';

/** When file contents are read: see the module comment. */
export type ImportContents = 'eager' | 'lazy' | 'background';

export interface ImportOptions {
  /** Seal the subtree read-only after copying. */
  readonly readOnly?: boolean;
  /** Owner of the copied nodes (default 0). Sandboxes running as `user` want 1000. */
  readonly uid?: number;
  readonly gid?: number;
  /** When contents are read (default 'background'). */
  readonly contents?: ImportContents;
  /**
   * Files changed less than this long before the import are read at once,
   * even when lazy (default RECENT_MS: file times come from a coarse clock).
   */
  readonly recentMs?: number;
  /** Called after each slice of work with the running totals (for progress display). */
  readonly onProgress?: (done: ImportProgress) => void;
  /** Stops the import (it rejects with the signal's reason) or the background reads. */
  readonly signal?: AbortSignal;
}

export interface ImportProgress {
  readonly files: number;
  /** Bytes of the files imported so far (read now or recorded for later). */
  readonly bytes: number;
}

export interface ImportResult {
  readonly files: number;
  readonly dirs: number;
  readonly symlinks: number;
  readonly bytes: number;
  /** Host paths skipped because they are not files, directories or symlinks. */
  readonly skipped: string[];
  /** Bytes read during the import (the rest are read on first use or in the background). */
  readonly bytesRead: number;
  /**
   * Settles when every file's contents are held ('background'; at once
   * otherwise): how many files were read then, and how many failed (they
   * give EIO when used).
   */
  readonly pinned: Promise<{ read: number; failed: number }>;
}

function hostJoin(dir: Buffer, name: Buffer): Buffer {
  return Buffer.concat([dir, Buffer.from('/'), name]);
}

function hostName(p: Buffer): string {
  return p.toString();
}

interface DirFixup {
  readonly ino: Ino;
  readonly mode: number;
  readonly atime: number;
  readonly mtime: number;
}

class Importer {
  files = 0;
  dirs = 0;
  symlinks = 0;
  bytes = 0;
  bytesRead = 0;
  readonly skipped: string[] = [];
  /** Directory modes and times, applied after their children are written. */
  readonly dirFixups: DirFixup[] = [];
  /** Files whose contents are still on the host. */
  readonly unread: HostFileSource[] = [];
  /** Files changed after this (host clock, ns) are read at once. */
  private readonly recentNs: bigint;

  constructor(
    private readonly vfs: Vfs,
    readonly uid: number,
    readonly gid: number,
    readonly eager: boolean,
    recentMs: number,
  ) {
    this.recentNs = BigInt(Math.round(Date.now() - recentMs)) * 1_000_000n;
  }

  /** Create (or merge into) directory `name` in `parent`; returns its inode. */
  dir(parent: Ino, name: BytePath, st: fs.Stats): Ino {
    let ino: Ino;
    try {
      ino = this.vfs.mkdir(name, 0o700, { cwd: parent });
    } catch (err) {
      // Merging into an existing tree: an existing directory is fine; any
      // other failure (a file in the way, a node limit) is the mkdir's.
      if (!(err instanceof KernelError) || err.errno !== Errno.EEXIST) throw err;
      if (this.vfs.lstat(name, { cwd: parent }).kind !== 'dir') throw err;
      ino = this.vfs.open(name, { cwd: parent, directory: true, nofollow: true });
    }
    this.vfs.chownIno(ino, this.uid, this.gid);
    this.dirFixups.push({ ino, mode: st.mode & 0o7777, atime: st.atimeMs, mtime: st.mtimeMs });
    this.dirs++;
    return ino;
  }

  /**
   * Import one host file. Its size is checked against the VFS limits before
   * a byte is read, so a huge host file fails at once. Eager (or racy) files
   * are opened first and read through that descriptor; lazy ones are only
   * stat'ed.
   */
  file(parent: Ino, name: BytePath, host: Buffer, shown: BytePath): void {
    if (!this.eager) {
      const st = fs.lstatSync(host, { bigint: true, throwIfNoEntry: false });
      if (!st || !st.isFile()) {
        // Swapped for something else since readdir: what it is now decides.
        if (st?.isSymbolicLink()) this.symlink(parent, name, host);
        else this.skipped.push(hostName(host));
        return;
      }
      const source = new HostFileSource(host, shown, st);
      if (!source.changedSince(this.recentNs)) {
        this.add(parent, name, host, source, st);
        this.unread.push(source);
        return;
      }
    }
    let fd: number;
    try {
      // O_NONBLOCK: a file swapped for a fifo since readdir must not hang the import.
      fd = openHostFile(host);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // ELOOP: swapped for a symlink since readdir; ENXIO: a socket.
      if (code === 'ELOOP' || code === 'ENXIO') {
        this.skipped.push(hostName(host));
        return;
      }
      throw err;
    }
    try {
      const st = fs.fstatSync(fd, { bigint: true });
      if (!st.isFile()) {
        this.skipped.push(hostName(host));
        return;
      }
      const source = new HostFileSource(host, shown, st);
      this.add(parent, name, host, source, st);
      try {
        this.bytesRead += source.readFd(fd).length;
      } catch (err) {
        // Shrank while read: the source keeps the failure, and a use of the file says so.
        if (!(err instanceof KernelError)) throw err;
      }
    } finally {
      fs.closeSync(fd);
    }
  }

  /** The VFS file for `source`, with the host file's mode and times. */
  private add(
    parent: Ino,
    name: BytePath,
    host: Buffer,
    source: HostFileSource,
    st: fs.BigIntStats,
  ): void {
    const { maxFileSize, maxBytes } = this.vfs.limits;
    if (source.size > maxFileSize)
      throw new KernelError(Errno.EFBIG, `${hostName(host)}: ${source.size} bytes`);
    if (this.vfs.usage().bytes + source.size > maxBytes)
      throw new KernelError(Errno.ENOSPC, `${hostName(host)}: ${source.size} bytes`);
    const ino = this.vfs.open(name, {
      cwd: parent,
      create: true,
      write: true,
      read: false,
      trunc: true,
      nofollow: true,
      mode: 0o600,
    });
    this.vfs.setContentSource(ino, source);
    this.vfs.chownIno(ino, this.uid, this.gid);
    this.vfs.chmodIno(ino, Number(st.mode) & 0o7777);
    this.vfs.utimesIno(ino, Number(st.atimeNs / 1000n) / 1000, Number(st.mtimeNs / 1000n) / 1000);
    this.files++;
    this.bytes += source.size;
  }

  symlink(parent: Ino, name: BytePath, host: Buffer): void {
    const target = fs.readlinkSync(host, { encoding: 'buffer' });
    const ino = this.vfs.symlink(bytesToPath(target), name, { cwd: parent });
    this.vfs.chownIno(ino, this.uid, this.gid);
    this.symlinks++;
  }
}

/**
 * Copy `hostPath` (a directory) to `vfsPath` (created with parents if
 * missing; merged into if it is a directory). VFS limits apply: a file
 * larger than the file-size limit or the space left fails with EFBIG or
 * ENOSPC before it is read; an ENOSPC, EFBIG or EDQUOT aborts the import,
 * leaving what was already copied.
 */
export async function importHostDir(
  vfs: Vfs,
  hostPath: string,
  vfsPath: BytePath,
  opts: ImportOptions = {},
): Promise<ImportResult> {
  const contents = opts.contents ?? 'background';
  const signal = opts.signal;
  signal?.throwIfAborted();
  const top = fs.lstatSync(hostPath);
  if (!top.isDirectory()) throw new Error(`importHostDir: ${hostPath} is not a directory`);
  const rootIno = vfs.mkdirp(vfsPath);
  const imp = new Importer(
    vfs,
    opts.uid ?? 0,
    opts.gid ?? 0,
    contents === 'eager',
    opts.recentMs ?? RECENT_MS,
  );
  imp.dirFixups.push({
    ino: rootIno,
    mode: top.mode & 0o7777,
    atime: top.atimeMs,
    mtime: top.mtimeMs,
  });
  const rootShown = vfs.pathOf(rootIno) ?? vfsPath;
  const todo: Array<{ host: Buffer; ino: Ino; shown: BytePath }> = [
    { host: Buffer.from(hostPath), ino: rootIno, shown: rootShown },
  ];
  let sliceStart = performance.now();
  while (todo.length > 0) {
    const { host, ino, shown } = todo.pop() as (typeof todo)[number];
    const entries: Dirent<Buffer>[] = fs.readdirSync(host, {
      withFileTypes: true,
      encoding: 'buffer',
    });
    for (const ent of entries) {
      const hchild = hostJoin(host, ent.name);
      const name = bytesToPath(ent.name);
      if (ent.isFile()) {
        imp.file(ino, name, hchild, joinPath(shown, name));
      } else if (ent.isDirectory()) {
        const st = fs.lstatSync(hchild);
        // Swapped for something else since readdir: never descend through a symlink.
        if (!st.isDirectory()) imp.skipped.push(hostName(hchild));
        else todo.push({ host: hchild, ino: imp.dir(ino, name, st), shown: joinPath(shown, name) });
      } else if (ent.isSymbolicLink()) {
        imp.symlink(ino, name, hchild);
      } else {
        imp.skipped.push(hostName(hchild));
      }
      if (performance.now() - sliceStart >= SLICE_MS) {
        opts.onProgress?.({ files: imp.files, bytes: imp.bytes });
        await yieldNow();
        signal?.throwIfAborted();
        sliceStart = performance.now();
      }
    }
  }
  for (let i = imp.dirFixups.length - 1; i >= 0; i--) {
    const d = imp.dirFixups[i] as DirFixup;
    vfs.chmodIno(d.ino, d.mode);
    vfs.utimesIno(d.ino, d.atime, d.mtime);
  }
  vfs.chownIno(rootIno, imp.uid, imp.gid);
  if (opts.readOnly) vfs.sealReadOnly(vfsPath);
  opts.onProgress?.({ files: imp.files, bytes: imp.bytes });
  const { files, dirs, symlinks, bytes, bytesRead, skipped, unread } = imp;
  const pinned =
    contents === 'background' && unread.length > 0
      ? readInBackground(unread, signal)
      : Promise.resolve({ read: 0, failed: 0 });
  return { files, dirs, symlinks, bytes, bytesRead, skipped, pinned };
}

/**
 * Reads lazy files' contents in slices, yielding between them, until all
 * are held or `signal` aborts. A failure stays with its file (EIO on use).
 */
async function readInBackground(
  sources: HostFileSource[],
  signal: AbortSignal | undefined,
): Promise<{ read: number; failed: number }> {
  let read = 0;
  let failed = 0;
  await yieldNow();
  let sliceStart = performance.now();
  for (const source of sources) {
    if (signal?.aborted) break;
    if (!source.settled) {
      try {
        source.load();
        read++;
      } catch {
        failed++;
      }
    }
    if (performance.now() - sliceStart >= SLICE_MS) {
      await yieldNow();
      sliceStart = performance.now();
    }
  }
  return { read, failed };
}
