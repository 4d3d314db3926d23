/**
 * Write a VFS subtree out to the host (Node only). The host target must not
 * exist or be an empty directory, and everything is created fresh (files
 * with O_EXCL|O_NOFOLLOW), so no host symlink is ever followed. VFS symlinks
 * are written only when they stay inside the exported tree (relative and not
 * climbing above it); others are skipped unless `keepAllSymlinks` is set.
 * Devices and fifos are skipped. Setuid/setgid/sticky bits are dropped.
 */
import { constants, promises as fsp } from 'node:fs';
import { Buffer } from 'node:buffer';
import { pathToBytes } from '../../base/bytes.js';
import { joinPath, splitPath } from '../paths.js';
import type { BytePath, Vfs } from '../types.js';

export interface ExportOptions {
  /** Also write absolute or escaping symlinks verbatim (they would then point into the host). */
  readonly keepAllSymlinks?: boolean;
}

export interface ExportResult {
  readonly files: number;
  readonly dirs: number;
  readonly symlinks: number;
  readonly bytes: number;
  /** VFS paths not written (devices, fifos, unsafe symlinks). */
  readonly skipped: BytePath[];
}

/** True if a relative symlink at `depth` directories below the export root stays inside it. */
function staysInside(target: BytePath, depth: number): boolean {
  if (target.startsWith('/')) return false;
  let level = depth;
  for (const part of splitPath(target)) {
    if (part === '..') level--;
    else if (part !== '.') level++;
    if (level < 0) return false;
  }
  return true;
}

function hostJoin(dir: Buffer, name: BytePath): Buffer {
  return Buffer.concat([dir, Buffer.from('/'), Buffer.from(pathToBytes(name))]);
}

async function prepareTarget(hostPath: string): Promise<void> {
  try {
    const st = await fsp.lstat(hostPath);
    if (!st.isDirectory()) throw new Error(`exportTree: ${hostPath} exists and is not a directory`);
    if ((await fsp.readdir(hostPath)).length > 0)
      throw new Error(`exportTree: ${hostPath} is not empty`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    await fsp.mkdir(hostPath, { recursive: true });
  }
}

export async function exportTree(
  vfs: Vfs,
  vfsPath: BytePath,
  hostPath: string,
  opts: ExportOptions = {},
): Promise<ExportResult> {
  const top = vfs.stat(vfsPath);
  let files = 0;
  let dirs = 0;
  let symlinks = 0;
  let bytes = 0;
  const skipped: BytePath[] = [];
  if (top.kind === 'file') {
    // A single file: write it to hostPath itself.
    const data = vfs.readFile(vfsPath);
    await fsp.writeFile(hostPath, data, {
      flag: constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      mode: top.mode & 0o777,
    });
    return { files: 1, dirs: 0, symlinks: 0, bytes: data.length, skipped };
  }
  if (top.kind !== 'dir')
    throw new Error(`exportTree: ${vfsPath} is neither a file nor a directory`);
  await prepareTarget(hostPath);
  const dirModes: Array<{ host: Buffer; mode: number; mtime: number; atime: number }> = [];
  const todo: Array<{ vpath: BytePath; host: Buffer; depth: number }> = [
    { vpath: vfsPath, host: Buffer.from(hostPath), depth: 0 },
  ];
  dirModes.push({
    host: Buffer.from(hostPath),
    mode: top.mode & 0o777,
    mtime: top.mtime,
    atime: top.atime,
  });
  while (todo.length > 0) {
    const { vpath, host, depth } = todo.pop() as { vpath: BytePath; host: Buffer; depth: number };
    for (const ent of vfs.readdir(vpath)) {
      const vchild = joinPath(vpath, ent.name);
      const hchild = hostJoin(host, ent.name);
      const st = vfs.lstat(vchild);
      if (st.kind === 'dir') {
        await fsp.mkdir(hchild, { mode: 0o700 });
        dirModes.push({ host: hchild, mode: st.mode & 0o777, mtime: st.mtime, atime: st.atime });
        todo.push({ vpath: vchild, host: hchild, depth: depth + 1 });
        dirs++;
      } else if (st.kind === 'file') {
        const data = vfs.readFile(vchild);
        await fsp.writeFile(hchild, data, {
          flag: constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
          mode: 0o600,
        });
        await fsp.chmod(hchild, st.mode & 0o777);
        await fsp.utimes(hchild, st.atime / 1000, st.mtime / 1000);
        files++;
        bytes += data.length;
      } else if (st.kind === 'symlink') {
        const target = vfs.readlink(vchild);
        if (!opts.keepAllSymlinks && !staysInside(target, depth)) {
          skipped.push(vchild);
          continue;
        }
        await fsp.symlink(Buffer.from(pathToBytes(target)), hchild);
        symlinks++;
      } else {
        skipped.push(vchild);
      }
    }
  }
  for (let i = dirModes.length - 1; i >= 0; i--) {
    const d = dirModes[i] as (typeof dirModes)[number];
    await fsp.chmod(d.host, d.mode);
    await fsp.utimes(d.host, d.atime / 1000, d.mtime / 1000);
  }
  return { files, dirs, symlinks, bytes, skipped };
}
