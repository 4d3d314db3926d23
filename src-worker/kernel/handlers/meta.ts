/** File metadata syscalls of the `sandglass` namespace: modes, owners, access, ids, umask. */
import type { Stat } from '../../vfs/index.js';
import { typeBits } from '../../fd/openFile.js';
import { Errno, fail } from '../../base/errno.js';
import { Sys } from '../../base/syscalls.js';
import { a, AT_FDCWD, lookup, OK, pathArg, type Handler } from './common.js';

function ext(s: Stat): { errno: number; rets: number[] } {
  return { errno: 0, rets: [typeBits(s.kind) | s.mode, s.uid, s.gid, s.nlink] };
}

export const metaHandlers: Record<number, Handler> = {
  [Sys.PATH_STAT_EXT]: (k, p, args, payload) => {
    const opts = lookup(p, AT_FDCWD, a(args, 0) === 1);
    const path = pathArg(payload);
    return ext(a(args, 0) === 1 ? k.vfs.stat(path, opts) : k.vfs.lstat(path, opts));
  },
  [Sys.FD_STAT_EXT]: (_k, p, args) => {
    const s = p.fds.get(a(args, 0)).stat();
    return { errno: 0, rets: [s.mode, s.uid, s.gid, s.nlink] };
  },
  [Sys.CHMOD]: (k, p, args, payload) => {
    k.vfs.chmod(pathArg(payload), a(args, 1) & 0o7777, lookup(p, AT_FDCWD, a(args, 0) === 1));
    return OK;
  },
  [Sys.CHOWN]: (k, p, args, payload) => {
    k.vfs.chown(pathArg(payload), a(args, 1), a(args, 2), lookup(p, AT_FDCWD, a(args, 0) === 1));
    return OK;
  },
  [Sys.ACCESS]: (k, p, args, payload) => {
    const mode = a(args, 0);
    if (mode & ~7) fail(Errno.EINVAL);
    k.vfs.access(pathArg(payload), mode, lookup(p, AT_FDCWD));
    return OK;
  },
  [Sys.GETUID]: (_k, p) => ({ errno: 0, rets: [p.cred.uid, p.cred.gid, p.cred.uid, p.cred.gid] }),
  [Sys.UMASK]: (_k, p, args) => {
    const old = p.umask;
    const m = a(args, 0);
    if (m !== -1) p.umask = m & 0o777;
    return { errno: 0, rets: [old] };
  },
};
