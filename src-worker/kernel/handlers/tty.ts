/** Terminal syscalls on a kernel tty (ENOTTY on any other fd). */
import { TTY_MODE_BITS, type Tty } from '../../tty/tty.js';
import { TtyFile } from '../../tty/ttyFile.js';
import type { Process } from '../../proc/process.js';
import { Errno, fail } from '../../base/errno.js';
import { Sys } from '../../base/syscalls.js';
import { a, OK, type Handler } from './common.js';

function ttyOf(p: Process, fd: number): Tty {
  const f = p.fds.get(fd);
  if (!(f instanceof TtyFile)) fail(Errno.ENOTTY);
  return f.tty;
}

export const ttyHandlers: Record<number, Handler> = {
  [Sys.TTY_GET]: (_k, p, args) => ({ errno: 0, rets: [ttyOf(p, a(args, 0)).mode] }),
  [Sys.TTY_SET]: (_k, p, args) => {
    const t = ttyOf(p, a(args, 0));
    if (p.ttyModeBefore?.tty !== t) p.ttyModeBefore = { tty: t, mode: t.mode };
    t.setMode(a(args, 1) & TTY_MODE_BITS);
    t.modeSetBy = p.pid;
    return OK;
  },
  [Sys.TTY_WINSIZE]: (_k, p, args) => {
    const t = ttyOf(p, a(args, 0));
    return { errno: 0, rets: [t.cols, t.rows] };
  },
  [Sys.TCSETPGRP]: (_k, p, args) => {
    const pgid = a(args, 1);
    if (pgid <= 0) fail(Errno.EINVAL);
    ttyOf(p, a(args, 0)).fgPgrp = pgid;
    return OK;
  },
  [Sys.TCGETPGRP]: (_k, p, args) => ({ errno: 0, rets: [ttyOf(p, a(args, 0)).fgPgrp] }),
};
