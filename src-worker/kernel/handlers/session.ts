/**
 * Session calls (see kernel/session.ts): API-mode commands, command-line
 * boundaries reported by the shell, and control requests it takes.
 */
import { NullDevice } from '../../dev/devices.js';
import { Errno, fail } from '../../base/errno.js';
import { Sys } from '../../base/syscalls.js';
import type { Process } from '../../proc/process.js';
import type { Kernel } from '../kernel.js';
import type { Session } from '../session.js';
import { a, OK, type Handler } from './common.js';

const dec = new TextDecoder();

/** The session `p` is the shell of; ENOTSUP for any other process. */
function sessionOf(k: Kernel, p: Process): Session {
  const s = k.sessions.get(p);
  if (!s) fail(Errno.ENOTSUP, 'not a session shell');
  return s;
}

/** Complete the API command in progress with `status`. */
function completeCommand(s: Session, p: Process, status: number): void {
  const cmd = s.current;
  if (!cmd) return;
  s.current = undefined;
  // Between commands the shell's stdio goes nowhere.
  p.fds.set(0, new NullDevice());
  p.fds.set(1, new NullDevice());
  p.fds.set(2, new NullDevice());
  cmd.resolve(status);
}

export const sessionHandlers: Record<number, Handler> = {
  [Sys.SESSION_NEXT]: async (k, p) => {
    const s = sessionOf(k, p);
    if (s.current) fail(Errno.EBUSY, 'session_done not called for the previous command');
    const cmd = await p.block(() => s.queue.shift() ?? null, s.changed);
    s.current = cmd;
    p.fds.set(0, cmd.stdin);
    p.fds.set(1, cmd.stdout);
    p.fds.set(2, cmd.stderr);
    s.beginStep(cmd.command);
    return { errno: 0, data: cmd.request };
  },
  [Sys.SESSION_DONE]: (k, p, args) => {
    const s = sessionOf(k, p);
    if (!s.current) fail(Errno.EINVAL, 'no command in progress');
    completeCommand(s, p, a(args, 0));
    s.endStep(a(args, 0), new Uint8Array(0));
    return OK;
  },
  [Sys.STEP_BEGIN]: (k, p, _args, payload) => {
    const s = sessionOf(k, p);
    // API commands begin with session_next; a line begins once.
    if (!s.idle) fail(Errno.EBUSY, 'a command line is already open');
    s.beginStep(dec.decode(payload));
    return OK;
  },
  [Sys.STEP_END]: (k, p, args, payload) => {
    const s = sessionOf(k, p);
    const status = a(args, 0);
    completeCommand(s, p, status);
    const pending = s.endStep(status, payload.slice());
    return { errno: 0, rets: [pending ? 1 : 0] };
  },
  [Sys.CTL_TAKE]: (k, p) => ({ errno: 0, data: sessionOf(k, p).takeControl() }),
};
