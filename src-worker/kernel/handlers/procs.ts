/** Process syscalls: exit, raise, spawn, wait, kill, ids, groups, signals, cwd, pipes and dup. */
import { createPipe } from '../../pipe/pipe.js';
import { TtyFile } from '../../tty/ttyFile.js';
import { bytesToPath, pathToBytes, X_OK } from '../../vfs/index.js';
import type { OpenFile } from '../../fd/openFile.js';
import type { Process } from '../../proc/process.js';
import { decodeSpawnRequest, SPAWN_FLAG } from '../../programs/spawnRequest.js';
import { isValidSignal, SIG } from '../../signal/signals.js';
import { Errno, fail } from '../../base/errno.js';
import type { IntQuit, Kernel } from '../kernel.js';
import { Sys } from '../../base/syscalls.js';
import { a, OK, pathArg, type Handler } from './common.js';

const dec = new TextDecoder();
const WNOHANG = 1;
const WUNTRACED = 2;

function matches(self: Process, c: Process, pid: number): boolean {
  if (c.ppid !== self.pid || c.state === 'reaped') return false;
  if (pid === -1) return true;
  if (pid > 0) return c.pid === pid;
  if (pid === 0) return c.pgid === self.pgid;
  return c.pgid === -pid;
}

function target(k: Kernel, p: Process, pid: number): Process {
  if (pid === 0) return p;
  const t = k.procs.get(pid);
  if (!t || !t.alive) fail(Errno.ESRCH);
  return t;
}

/** Arm (or with 0 disarm) `p`'s real-time timer: SIGALRM after `ms`, then every `intervalMs`. */
function setItimer(k: Kernel, p: Process, ms: number, intervalMs: number): void {
  const old = p.itimer;
  if (old) {
    clearTimeout(old.timer);
    p.timers = p.timers.filter((t) => t !== old.timer);
    p.itimer = undefined;
  }
  if (ms <= 0) return;
  const timer = setTimeout(() => {
    p.timers = p.timers.filter((t) => t !== timer);
    p.itimer = undefined;
    if (intervalMs > 0) setItimer(k, p, intervalMs, intervalMs);
    k.signal(p, SIG.ALRM);
  }, ms);
  p.timers.push(timer);
  p.itimer = { timer, due: performance.now() + ms, intervalMs };
}

/** A spawn request's fd map, (child fd, parent fd), as open files; close-on-exec fds are left out. */
function inheritedFds(p: Process, map: readonly [number, number][]): [number, OpenFile][] {
  const fds: [number, OpenFile][] = [];
  for (const [child, parent] of map) {
    const e = p.fds.entry(parent);
    if (!e) fail(Errno.EBADF);
    if (e.cloexec) continue;
    fds.push([child, e.file]);
  }
  return fds;
}

function intQuitOf(flags: number): IntQuit {
  if (flags & SPAWN_FLAG.ignoreIntQuit) return 'ignore';
  if (flags & SPAWN_FLAG.defaultIntQuit) return 'default';
  return 'inherit';
}

export const procHandlers: Record<number, Handler> = {
  [Sys.EXIT]: (k, p, args, payload) => {
    k.programExited(p, a(args, 0), a(args, 1), a(args, 2), dec.decode(payload));
    return OK;
  },
  [Sys.RAISE]: (k, p, args) => {
    const sig = a(args, 0);
    if (!isValidSignal(sig)) fail(Errno.EINVAL);
    k.signal(p, sig);
    return OK;
  },
  [Sys.SPAWN]: async (k, p, _args, payload) => {
    const req = decodeSpawnRequest(payload);
    const child = await k.spawn({
      path: bytesToPath(req.path),
      argv: req.argv,
      env: req.env,
      ...(req.cwd.length ? { cwd: bytesToPath(req.cwd) } : {}),
      fds: inheritedFds(p, req.fds),
      pgid: req.pgid,
      parent: p,
      foreground: (req.flags & SPAWN_FLAG.foreground) !== 0,
      exactEnv: (req.flags & SPAWN_FLAG.exactEnv) !== 0,
      intQuit: intQuitOf(req.flags),
    });
    return { errno: 0, rets: [child.pid] };
  },
  [Sys.EXEC]: async (k, p, _args, payload) => {
    const req = decodeSpawnRequest(payload);
    await k.exec(p, {
      path: bytesToPath(req.path),
      argv: req.argv,
      env: req.env,
      fds: inheritedFds(p, req.fds),
      exactEnv: (req.flags & SPAWN_FLAG.exactEnv) !== 0,
      intQuit: intQuitOf(req.flags),
    });
    // To the old program, which unwinds (its runner is retired, see Kernel.exec).
    return OK;
  },
  [Sys.WAIT]: (k, p, args) => {
    const pid = a(args, 0);
    const options = a(args, 1);
    const attempt = (): [number, number] | null => {
      let any = false;
      for (const c of k.procs.values()) {
        if (!matches(p, c, pid)) continue;
        any = true;
        if (c.state === 'zombie' && c.exit) {
          k.reap(c);
          return [c.pid, c.exit.status];
        }
        if (options & WUNTRACED && c.stopped && !c.stopReported) {
          c.stopReported = true;
          return [c.pid, 0x7f | (c.stopped << 8)];
        }
      }
      if (!any) fail(Errno.ECHILD);
      return options & WNOHANG ? [0, 0] : null;
    };
    const r = attempt();
    if (r) return { errno: 0, rets: r };
    return p.block(attempt, p.childChanged).then((v) => ({ errno: 0, rets: v }));
  },
  [Sys.KILL]: (k, p, args) => {
    const pid = a(args, 0);
    const sig = a(args, 1);
    if (!isValidSignal(sig)) fail(Errno.EINVAL);
    if (pid > 0) k.signal(target(k, p, pid), sig);
    else if (pid === 0) k.signalGroup(p.pgid, sig);
    else if (pid === -1) {
      for (const t of k.liveProcesses()) if (t !== p) k.signal(t, sig);
    } else k.signalGroup(-pid, sig);
    return OK;
  },
  [Sys.GETPID]: (_k, p) => ({ errno: 0, rets: [p.pid, p.ppid] }),
  [Sys.SETPGID]: (k, p, args) => {
    const t = target(k, p, a(args, 0));
    if (t !== p && t.ppid !== p.pid) fail(Errno.ESRCH);
    const pgid = a(args, 1);
    if (pgid < 0) fail(Errno.EINVAL);
    t.pgid = pgid === 0 ? t.pid : pgid;
    return OK;
  },
  [Sys.GETPGID]: (k, p, args) => ({ errno: 0, rets: [target(k, p, a(args, 0)).pgid] }),
  [Sys.SIGACTION]: (_k, p, args) => {
    const sig = a(args, 0);
    const disp = a(args, 1);
    if (
      !isValidSignal(sig) ||
      sig === 0 ||
      sig === SIG.KILL ||
      sig === SIG.STOP ||
      disp < 0 ||
      disp > 2
    ) {
      fail(Errno.EINVAL);
    }
    // The previous disposition comes back, as sigaction's oldact (a process
    // learns what it inherited: python3 keeps an ignored SIGINT ignored).
    const previous = p.dispositions[sig] ?? 0;
    p.dispositions[sig] = disp;
    return { errno: 0, rets: [previous] };
  },
  [Sys.SETITIMER]: (k, p, args) => {
    const valueUs = a(args, 0);
    const intervalUs = a(args, 1);
    if (!(valueUs >= 0) || !(intervalUs >= 0)) fail(Errno.EINVAL);
    const old = p.itimer;
    const rets = old
      ? [Math.max(1, Math.round((old.due - performance.now()) * 1000)), old.intervalMs * 1000]
      : [0, 0];
    // args[2] = 1: only read it (getitimer).
    if (a(args, 2) !== 1) setItimer(k, p, valueUs / 1000, intervalUs / 1000);
    return { errno: 0, rets };
  },
  [Sys.CHDIR]: (k, p, _args, payload) => {
    const path = pathArg(payload);
    if (path.length === 0) fail(Errno.ENOENT);
    const opts = { cwd: p.cwd, cred: p.cred };
    const st = k.vfs.stat(path, opts);
    if (st.kind !== 'dir') fail(Errno.ENOTDIR);
    k.vfs.access(path, X_OK, opts);
    p.cwd = k.vfs.realpath(path, opts);
    return OK;
  },
  [Sys.GETCWD]: (_k, p) => ({ errno: 0, data: pathToBytes(p.cwd) }),
  [Sys.PIPE]: (_k, p) => {
    const [r, w] = createPipe();
    const rfd = p.fds.add(r, 0);
    try {
      return { errno: 0, rets: [rfd, p.fds.add(w, 0)] };
    } catch (e) {
      p.fds.close(rfd);
      throw e;
    }
  },
  [Sys.DUP]: (_k, p, args) => ({ errno: 0, rets: [p.fds.add(p.fds.get(a(args, 0)), a(args, 1))] }),
  [Sys.DUP2]: (_k, p, args) => {
    const from = a(args, 0);
    const to = a(args, 1);
    const f = p.fds.get(from);
    if (from !== to) p.fds.set(to, f);
    return OK;
  },
  [Sys.CLOEXEC]: (_k, p, args) => {
    const e = p.fds.entry(a(args, 0));
    if (!e) fail(Errno.EBADF);
    e.cloexec = a(args, 1) !== 0;
    return OK;
  },
  [Sys.ISATTY]: (_k, p, args) => ({
    errno: 0,
    rets: [p.fds.get(a(args, 0)) instanceof TtyFile ? 1 : 0],
  }),
};
