# Process calls through the kernel, installed by the driver before user code:
# subprocess (Popen's fork_exec), os.system/popen/pipe/waitpid/kill/umask and
# an interruptible time.sleep. `_k` is the realm's `_sandglass_kernel` bridge
# (numbers and strings only). Children are kernel processes, like the shell's.
import json
import os
import subprocess
import time

_k = None


def _check(r):
    if r < 0:
        raise OSError(-r, os.strerror(-r))
    return r


def _fsdecode(v):
    return os.fsdecode(v) if isinstance(v, (bytes, bytearray)) else str(v)


def _env_list(env):
    if env is None:
        return [f"{k}={v}" for k, v in os.environ.items()]
    return [_fsdecode(e) for e in env]


def spawn(argv, path=None, env=None, cwd=None, fds=((0, 0), (1, 1), (2, 2)), pgid=-1):
    req = {
        "path": _fsdecode(path if path is not None else argv[0]),
        "argv": [_fsdecode(a) for a in argv],
        "env": _env_list(env),
        "cwd": _fsdecode(cwd) if cwd is not None else os.getcwd(),
        "fds": [list(p) for p in fds],
        "pgid": pgid,
    }
    return _check(_k.spawn(json.dumps(req)))


def waitpid(pid, options):
    while True:
        got, status = json.loads(_k.wait(pid, options))
        if got == -27:  # EINTR: let a signal handler run, then wait again (PEP 475)
            continue
        if got < 0:
            raise ChildProcessError(-got, os.strerror(-got)) if got == -12 else OSError(-got, os.strerror(-got))
        return got, status


def _fork_exec(args, executable_list, close_fds, pass_fds, cwd, env,
               p2cread, p2cwrite, c2pread, c2pwrite, errread, errwrite,
               errpipe_read, errpipe_write, *rest):
    fds = [(0, p2cread if p2cread != -1 else 0),
           (1, c2pwrite if c2pwrite != -1 else 1),
           (2, errwrite if errwrite != -1 else 2)]
    # errpipe_write is not passed: CPython closes it on exec (CLOEXEC), so its EOF tells success.
    fds += [(fd, fd) for fd in pass_fds if fd != errpipe_write]
    new_session, group = (rest[1], rest[2]) if len(rest) > 2 else (False, -1)
    pgid = 0 if new_session else (group if group is not None and group >= 0 else -1)
    err = 2
    for exe in executable_list:
        try:
            return spawn(args, path=exe, env=env, cwd=cwd, fds=fds, pgid=pgid)
        except OSError as e:
            err = e.errno
            if e.errno not in (44, 2):
                break
    os.write(errpipe_write, b"OSError:%x:noexec" % err if err == 45 else b"OSError:%x:" % err)
    return -1


def system(cmd):
    pid = spawn(["sh", "-c", cmd], path="/bin/sh")
    return waitpid(pid, 0)[1]


def pipe():
    r, w = json.loads(_k.pipe())
    return _check(r), _check(w)


def kill(pid, sig):
    e = _k.kill(pid, int(sig))
    if e:
        raise ProcessLookupError(e, os.strerror(e)) if e == 71 else OSError(e, os.strerror(e))


def umask(mask):
    return _k.umask(mask & 0o777)


def sleep(secs):
    if secs < 0:
        raise ValueError("sleep length must be non-negative")
    end = time.monotonic() + secs
    while True:
        left = end - time.monotonic()
        if left <= 0:
            return
        _k.sleep(left)  # returns early when a signal arrives; the eval loop then raises it


def install(bridge, pids):
    global _k
    _k = bridge
    pid, ppid = pids
    os.getpid = lambda: pid
    os.getppid = lambda: ppid
    os.pipe = pipe
    os.waitpid = waitpid
    os.kill = kill
    os.umask = umask
    os.system = system
    time.sleep = sleep
    subprocess._can_fork_exec = True
    subprocess._USE_POSIX_SPAWN = False
    subprocess._USE_VFORK = False
    subprocess._fork_exec = _fork_exec
    ds = subprocess._del_safe
    ds.waitpid = waitpid
    for n in ("waitstatus_to_exitcode", "WIFSTOPPED", "WSTOPSIG", "WNOHANG", "ECHILD"):
        if hasattr(os, n):
            setattr(ds, n, getattr(os, n))
