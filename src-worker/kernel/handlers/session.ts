/** session_next / session_done: the shell's API mode (see kernel/session.ts). */
import { NullDevice } from '../../dev/devices.js';
import { Errno, fail } from '../../base/errno.js';
import { Sys } from '../../base/syscalls.js';
import { a, OK, type Handler } from './common.js';

export const sessionHandlers: Record<number, Handler> = {
  [Sys.SESSION_NEXT]: async (k, p) => {
    const s = k.sessions.get(p);
    if (!s) fail(Errno.ENOTSUP, 'not a session shell');
    if (s.current) fail(Errno.EBUSY, 'session_done not called for the previous command');
    const cmd = await p.block(() => s.queue.shift() ?? null, s.changed);
    s.current = cmd;
    p.commandJob = cmd.job;
    p.fds.set(0, cmd.stdin);
    p.fds.set(1, cmd.stdout);
    p.fds.set(2, cmd.stderr);
    return { errno: 0, data: cmd.request };
  },
  [Sys.SESSION_DONE]: (k, p, args) => {
    const s = k.sessions.get(p);
    if (!s) fail(Errno.ENOTSUP, 'not a session shell');
    const cmd = s.current;
    if (!cmd) fail(Errno.EINVAL, 'no command in progress');
    s.current = undefined;
    p.commandJob = undefined;
    cmd.job?.end();
    // Between commands the shell's stdio goes nowhere.
    p.fds.set(0, new NullDevice());
    p.fds.set(1, new NullDevice());
    p.fds.set(2, new NullDevice());
    cmd.resolve(a(args, 0));
    return OK;
  },
};
