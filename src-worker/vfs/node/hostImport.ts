/**
 * Copy a host directory into a VFS (Node only). Host symlinks are copied as
 * symlinks and never followed on the host; inside the VFS they resolve
 * against the VFS root, so they cannot reach the host. Sockets, fifos and
 * device files are skipped. With `readOnly` the imported subtree is sealed:
 * writers get EROFS and hard links out of it EXDEV.
 */
import { promises as fsp } from 'node:fs';
import type { Dirent } from 'node:fs';
import { Buffer } from 'node:buffer';
import { bytesToPath } from '../../base/bytes.js';
import { joinPath } from '../paths.js';
import type { BytePath, Vfs } from '../types.js';

export interface ImportOptions {
  /** Seal the subtree read-only after copying. */
  readonly readOnly?: boolean;
  /** Owner of the copied nodes (default 0). Sandboxes running as `user` want 1000. */
  readonly uid?: number;
  readonly gid?: number;
}

export interface ImportResult {
  readonly files: number;
  readonly dirs: number;
  readonly symlinks: number;
  readonly bytes: number;
  /** Host paths skipped because they are not files, directories or symlinks. */
  readonly skipped: string[];
}

function hostJoin(dir: Buffer, name: Buffer): Buffer {
  return Buffer.concat([dir, Buffer.from('/'), name]);
}

/**
 * Copy `hostPath` (a directory) to `vfsPath` (created with parents if
 * missing; merged into if it is a directory). VFS limits apply: an ENOSPC,
 * EFBIG or EDQUOT aborts the import with that error, leaving what was
 * already copied.
 */
export async function importHostDir(
  vfs: Vfs,
  hostPath: string,
  vfsPath: BytePath,
  opts: ImportOptions = {},
): Promise<ImportResult> {
  const uid = opts.uid ?? 0;
  const gid = opts.gid ?? 0;
  const top = await fsp.lstat(hostPath);
  if (!top.isDirectory()) throw new Error(`importHostDir: ${hostPath} is not a directory`);
  vfs.mkdirp(vfsPath);
  let files = 0;
  let dirs = 0;
  let symlinks = 0;
  let bytes = 0;
  const skipped: string[] = [];
  // Directory modes and times are applied after their children are written.
  const dirFixups: Array<{ vpath: BytePath; mode: number; atime: number; mtime: number }> = [];
  const todo: Array<{ host: Buffer; vpath: BytePath }> = [
    { host: Buffer.from(hostPath), vpath: vfsPath },
  ];
  dirFixups.push({
    vpath: vfsPath,
    mode: top.mode & 0o7777,
    atime: top.atimeMs,
    mtime: top.mtimeMs,
  });
  while (todo.length > 0) {
    const { host, vpath } = todo.pop() as { host: Buffer; vpath: BytePath };
    const entries: Dirent<Buffer>[] = await fsp.readdir(host, {
      withFileTypes: true,
      encoding: 'buffer',
    });
    for (const ent of entries) {
      const hchild = hostJoin(host, ent.name);
      const vchild = joinPath(vpath, bytesToPath(ent.name));
      const st = await fsp.lstat(hchild);
      if (st.isDirectory()) {
        try {
          vfs.mkdir(vchild, 0o700);
        } catch (err) {
          // Merging into an existing tree: an existing directory is fine.
          if (vfs.lstat(vchild).kind !== 'dir') throw err;
        }
        vfs.chown(vchild, uid, gid);
        dirFixups.push({
          vpath: vchild,
          mode: st.mode & 0o7777,
          atime: st.atimeMs,
          mtime: st.mtimeMs,
        });
        todo.push({ host: hchild, vpath: vchild });
        dirs++;
      } else if (st.isFile()) {
        const data = await fsp.readFile(hchild);
        vfs.writeFile(vchild, new Uint8Array(data.buffer, data.byteOffset, data.byteLength), {
          mode: 0o600,
        });
        vfs.chown(vchild, uid, gid);
        vfs.chmod(vchild, st.mode & 0o7777);
        vfs.utimes(vchild, st.atimeMs, st.mtimeMs);
        files++;
        bytes += data.byteLength;
      } else if (st.isSymbolicLink()) {
        const target = await fsp.readlink(hchild, { encoding: 'buffer' });
        vfs.symlink(bytesToPath(target), vchild);
        vfs.chown(vchild, uid, gid, { follow: false });
        symlinks++;
      } else {
        skipped.push(hchild.toString());
      }
    }
  }
  for (let i = dirFixups.length - 1; i >= 0; i--) {
    const d = dirFixups[i] as (typeof dirFixups)[number];
    vfs.chmod(d.vpath, d.mode);
    vfs.utimes(d.vpath, d.atime, d.mtime);
  }
  vfs.chown(vfsPath, uid, gid);
  if (opts.readOnly) vfs.sealReadOnly(vfsPath);
  return { files, dirs, symlinks, bytes, skipped };
}
