# Process calls through the kernel, installed by the driver before user code:
# subprocess (Popen's fork_exec), os.system/popen/pipe/waitpid/kill/umask,
# signal.signal (the kernel's disposition follows the handler), an
# interruptible time.sleep, select.select/poll on the kernel's descriptors
# (Emscripten's report every fd ready at once), termios and the terminal's
# size on the kernel's tty. `_k` is the realm's
# `_sandglass_kernel` bridge (numbers and strings only). Children are kernel
# processes, like the shell's.
import errno
import fcntl
import json
import math
import os
import select as _select
import selectors
import signal
import _signal
import stat
import struct
import subprocess
import termios
import time

_k = None
# Raw kernel answers are Emscripten's numbers; taken before linuxErrno renumbers the errno module.
_strerror = os.strerror
_WASI_EINTR = errno.EINTR
_WASI_EINVAL = errno.EINVAL
_WASI_ENOTTY = errno.ENOTTY


# linuxErrno.wasi_oserror (the driver sets it): the subclass by Emscripten's number.
_oserror = OSError


def errno_error(n, message=None):
    """The OSError for errno `n` (a positive number), of the subclass C would
    raise for it (FileNotFoundError, ChildProcessError, ...)."""
    return _oserror(n, message or _strerror(n))


def _check(r):
    if r < 0:
        raise errno_error(-r)
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
        "exact": env is not None,
    }
    return _check(_k.spawn(json.dumps(req)))


def waitpid(pid, options):
    while True:
        got, status = json.loads(_k.wait(pid, options))
        if got == -27:  # EINTR: let a signal handler run, then wait again (PEP 475)
            run_signal_handlers()
            continue
        if got < 0:
            raise errno_error(-got)
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
    # restore_signals: the child starts with SIGPIPE and SIGXFSZ at their defaults, not ignored as here.
    restore = [s for s in (signal.SIGPIPE, signal.SIGXFSZ) if rest and rest[0]]
    for s in restore:
        _k.sigaction(s, _DISP_DEFAULT)
    if cwd is not None:
        # The child's chdir(cwd) fails first: CPython then names cwd in the error.
        try:
            bad = 0 if stat.S_ISDIR(os.stat(cwd).st_mode) else errno.ENOTDIR
        except OSError as e:
            bad = e.errno
        if bad:
            os.write(errpipe_write, b"%s:%x:noexec:chdir" % (type(OSError(bad, "")).__name__.encode(), bad))
            return -1
    err, kind = errno.ENOENT, "FileNotFoundError"
    try:
        for exe in executable_list:
            try:
                return spawn(args, path=exe, env=env, cwd=cwd, fds=fds, pgid=pgid)
            except OSError as e:
                # Raised, so Linux's number by now (linuxErrno); errno is renumbered too.
                err, kind = e.errno, type(e).__name__
                if e.errno not in (errno.ENOENT, errno.EACCES):
                    break
    finally:
        for s in restore:
            _k.sigaction(s, _disposition(signal.getsignal(s)))
    # The class's name: subprocess builds it from the name with Linux's number
    # (the bare OSError would pick its subclass by Emscripten's numbers).
    kind = kind.encode() if isinstance(getattr(__import__("builtins"), kind, None), type) else b"OSError"
    os.write(errpipe_write, b"%s:%x:noexec" % (kind, err) if err == errno.ENOEXEC else b"%s:%x:" % (kind, err))
    return -1


def system(cmd):
    pid = spawn(["sh", "-c", cmd], path="/bin/sh")
    return waitpid(pid, 0)[1]


def pipe():
    r, w = json.loads(_k.pipe())
    return _check(r), _check(w)


def kill(pid, sig):
    e = _k.kill(pid if pid else -getpgid(0), int(sig))
    if e:
        raise errno_error(e)
    # As CPython's os.kill: a signal sent to this process is handled before kill returns.
    run_signal_handlers()


def raise_signal(signalnum):
    """signal.raise_signal: the signal goes through the kernel like any (a
    default action ends the process by the signal; a handler runs before
    this returns). Emscripten's raise() only exits with 128+n."""
    signalnum = int(signalnum)
    if not 1 <= signalnum < signal.NSIG:
        raise ValueError("signal number out of range")
    kill(os.getpid(), signalnum)


def killpg(pgid, sig):
    if pgid < 0:
        raise errno_error(_WASI_EINVAL)
    kill(-pgid if pgid else 0, sig)


def getpgid(pid):
    return _check(_k.getpgid(pid))


def setpgid(pid, pgid):
    e = _k.setpgid(pid, pgid)
    if e:
        raise errno_error(e)


_DISP_DEFAULT, _DISP_IGNORE, _DISP_CATCH = 0, 1, 2
_set_handler = signal.signal


def _disposition(handler):
    if handler == signal.SIG_IGN:
        return _DISP_IGNORE
    if handler == signal.SIG_DFL or handler is None:
        return _DISP_DEFAULT
    return _DISP_CATCH


def set_signal(signalnum, handler):
    """signal.signal, and the kernel told: a caught signal reaches the
    interpreter (its handler runs), an ignored one is dropped, a default one
    does its default (most end the process)."""
    signalnum = int(signalnum)
    if signalnum in (signal.SIGKILL, signal.SIGSTOP):
        raise errno_error(_WASI_EINVAL)  # sigaction(2) refuses them
    old = _set_handler(signalnum, handler)
    _k.sigaction(signalnum, _disposition(handler))
    return old


def _timer_call(value_us, interval_us, read_only=0):
    r = json.loads(_k.setitimer(value_us, interval_us, read_only))
    if isinstance(r, int):
        raise signal.ItimerError(-r, _strerror(-r))
    return r[0] / 1e6, r[1] / 1e6


def _real_timer_only(which):
    if which != signal.ITIMER_REAL:
        # CPU-time timers need a CPU clock the kernel does not keep per process.
        raise signal.ItimerError(errno.EINVAL, "only ITIMER_REAL is supported in the sandbox")


def setitimer(which, seconds, interval=0.0):
    """signal.setitimer through the kernel's timer: SIGALRM is sent to the process."""
    _real_timer_only(which)
    seconds, interval = float(seconds), float(interval)
    if seconds < 0 or interval < 0:
        raise signal.ItimerError(errno.EINVAL, os.strerror(errno.EINVAL))
    # A positive value under 1 µs still arms the timer, as on Linux.
    return _timer_call(max(1, round(seconds * 1e6)) if seconds > 0 else 0, round(interval * 1e6))


def getitimer(which):
    _real_timer_only(which)
    return _timer_call(0, 0, 1)


def alarm(seconds):
    """signal.alarm: returns the seconds left of the previous alarm (rounded as glibc does)."""
    if not isinstance(seconds, int):
        raise TypeError(f"'{type(seconds).__name__}' object cannot be interpreted as an integer")
    left, _ = _timer_call(seconds * 1_000_000 if seconds > 0 else 0, 0)
    whole = int(left) + (1 if left - int(left) >= 0.5 else 0)
    return whole or (1 if left > 0 else 0)


def pause():
    """signal.pause: wait without CPU until a signal arrives (its handler then runs)."""
    nap(1e9)


def _tzif_table(data):
    """A TZif file's transitions and types (its 64-bit part when there is one)."""
    import struct

    def counts(at):
        if data[at : at + 4] != b"TZif":
            raise ValueError("not a TZif file")
        return data[at + 4], struct.unpack(">6l", data[at + 20 : at + 44])

    version, (isut, isstd, leap, timecnt, typecnt, charcnt) = counts(0)
    at, size = 44, 4
    if version >= ord("2"):
        # Skip the 32-bit part to the second header and its 64-bit data.
        at += timecnt * 5 + typecnt * 6 + charcnt + leap * 8 + isstd + isut
        _, (isut, isstd, leap, timecnt, typecnt, charcnt) = counts(at)
        at, size = at + 44, 8
    trans = list(struct.unpack(f">{timecnt}{'q' if size == 8 else 'l'}", data[at : at + timecnt * size]))
    at += timecnt * size
    idx = list(data[at : at + timecnt])
    at += timecnt
    raw = [struct.unpack(">lBB", data[at + 6 * i : at + 6 * i + 6]) for i in range(typecnt)]
    chars = data[at + 6 * typecnt : at + 6 * typecnt + charcnt]
    types = [[off, dst, chars[ai : chars.index(b"\0", ai)].decode()] for off, dst, ai in raw]
    return {"trans": trans, "idx": idx, "types": types, "before": 0}


def _tzdata(name):
    """The bundled tzdata's file for zone `name` (in the stdlib zip), or None."""
    import sys

    if not name or name.startswith("/") or ".." in name.split("/"):
        return None
    for entry in sys.path:
        importer = sys.path_importer_cache.get(entry)
        if entry.endswith(".zip") and importer is not None and hasattr(importer, "get_data"):
            try:
                return importer.get_data(f"{entry}/tzdata/zoneinfo/{name}")
            except OSError:
                continue
    return None


def _zone_table(tz):
    """The zone TZ names, as localTime.ts takes it (None: UTC, as with no /etc/localtime)."""
    if not tz:
        return None
    name = tz[1:] if tz.startswith(":") else tz
    try:
        if name.startswith("/"):
            with open(name, "rb") as f:
                data = f.read()
        else:
            data = _tzdata(name)
        if data is not None:
            return _tzif_table(data)
    except (OSError, ValueError, IndexError, __import__("struct").error):
        pass
    # A POSIX zone without rules ("EST5", "JST-9", "UTC0"); its DST part is not followed.
    import re

    m = re.match(r"([A-Za-z]{3,}|<[^>]+>)([+-]?)(\d{1,2})(?::(\d{1,2}))?", tz)
    if m is None:
        return None
    west = int(m[3]) * 3600 + int(m[4] or 0) * 60
    return {"trans": [], "idx": [], "types": [[west if m[2] == "-" else -west, 0, m[1].strip("<>")]], "before": 0}


def tzset():
    """time.tzset: local time follows TZ (tzdata zones, or a fixed POSIX offset)."""
    info = json.loads(_k.settz(json.dumps(_zone_table(os.environ.get("TZ")))))
    time.timezone, time.altzone, time.daylight = info[0], info[1], info[2]
    time.tzname = (info[3], info[4])


_cred = None


def _ids():
    global _cred
    if _cred is None:
        _cred = json.loads(_k.ids())
    return _cred


def _read_text(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


def cpu_count():
    """The CPUs the sandbox shows (/proc/cpuinfo, as nproc counts them)."""
    info = _read_text("/proc/cpuinfo")
    n = sum(1 for line in (info or "").splitlines() if line.startswith("processor"))
    return n or None


def sched_getaffinity(pid):
    """Every CPU the sandbox shows (a process may run on any)."""
    if pid not in (0, os.getpid()):
        os.kill(pid, 0)  # ProcessLookupError for no such process, as Linux's ESRCH
    return set(range(cpu_count() or 1))


_sysconf = os.sysconf
_CPU_NAMES = ("SC_NPROCESSORS_ONLN", "SC_NPROCESSORS_CONF")


def sysconf(name):
    """os.sysconf; the CPU counts are the sandbox's (as nproc and getconf say)."""
    if name in _CPU_NAMES or name in (os.sysconf_names.get(n) for n in _CPU_NAMES):
        return cpu_count() or 1
    return _sysconf(name)


_uname = os.uname


def _kernel_field(path, default):
    return (_read_text(path) or "").strip() or default


_uname_result = None


def uname():
    """The fields the sandbox's `uname -a` prints (Linux, /etc/hostname, /proc/sys/kernel)."""
    global _uname_result
    if _uname_result is not None:
        return _uname_result
    r = _uname()
    _uname_result = os.uname_result((
        _kernel_field("/proc/sys/kernel/ostype", "Linux"),
        _kernel_field("/etc/hostname", r.nodename),
        _kernel_field("/proc/sys/kernel/osrelease", "6.0.0-sandglass"),
        _kernel_field("/proc/sys/kernel/version", "#1 Sandglass"),
        r.machine,
    ))
    return _uname_result


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
        nap(left)  # returns early when a signal arrives, after its handler ran


def run_signal_handlers():
    """Run the handlers of signals that arrived, now (the eval loop looks only every
    50 ticks): CPython's signal.signal checks pending signals first. A handler's
    exception propagates from here."""
    # (_signal's C functions: a handler's traceback shows no frames of signal.py or enum.py)
    _signal.signal(_signal.SIGPIPE, _signal.getsignal(_signal.SIGPIPE))


def nap(secs):
    """Wait up to `secs` without CPU; returns early when a signal arrives, after its handler ran."""
    _k.sleep(secs)
    run_signal_handlers()


def _kernel_poll(subs, timeout):
    """[(fd, write?)...] -> [(ready, hup, errno)...]; timeout in seconds, None: no limit."""
    end = None if timeout is None else time.monotonic() + timeout
    while True:
        left = -1 if end is None else max(0, math.ceil((end - time.monotonic()) * 1000))
        r = json.loads(_k.poll(json.dumps(subs), left))
        if not isinstance(r, int):
            return r
        if -r != _WASI_EINTR:
            raise errno_error(-r)
        # A signal: its handler runs (its exception propagates; PEP 475: else retry).
        run_signal_handlers()
        if end is not None and time.monotonic() >= end:
            return [(0, 0, 0)] * len(subs)


def _fileno(obj):
    fd = obj if isinstance(obj, int) else obj.fileno()
    if not isinstance(fd, int):
        raise TypeError("fileno() returned a non-integer")
    if fd < 0:
        raise ValueError(f"file descriptor cannot be a negative integer ({fd})")
    return fd


def select(rlist, wlist, xlist, timeout=None):
    if timeout is not None:
        timeout = float(timeout)
        if timeout < 0:
            raise ValueError("timeout must be non-negative")
    rlist, wlist, xlist = list(rlist), list(wlist), list(xlist)
    subs = [(_fileno(o), 0) for o in rlist] + [(_fileno(o), 1) for o in wlist]
    for o in xlist:
        _fileno(o)
    res = _kernel_poll(subs, timeout)
    for (fd, _), (_, _, err) in zip(subs, res):
        if err:
            raise errno_error(err)
    n = len(rlist)
    # A hung-up pipe is readable (EOF), as on Linux.
    readable = [o for o, (ready, hup, _) in zip(rlist, res[:n]) if ready or hup]
    writable = [o for o, (ready, _, _) in zip(wlist, res[n:]) if ready]
    return readable, writable, []


class _Poll:
    """select.poll() over the kernel's POLL."""

    def __init__(self):
        self._fds = {}

    def register(self, fd, eventmask=_select.POLLIN | _select.POLLPRI | _select.POLLOUT):
        self._fds[_fileno(fd)] = eventmask & 0xFFFF

    def modify(self, fd, eventmask):
        fd = _fileno(fd)
        if fd not in self._fds:
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT))
        self._fds[fd] = eventmask & 0xFFFF

    def unregister(self, fd):
        del self._fds[_fileno(fd)]

    def poll(self, timeout=None):
        if timeout is not None:
            timeout = float(timeout)
            timeout = None if timeout < 0 else timeout / 1000
        subs, who = [], []
        for fd, mask in self._fds.items():
            if mask & (_select.POLLIN | _select.POLLPRI):
                subs.append((fd, 0))
                who.append((fd, _select.POLLIN))
            if mask & _select.POLLOUT:
                subs.append((fd, 1))
                who.append((fd, _select.POLLOUT))
            if not mask & (_select.POLLIN | _select.POLLPRI | _select.POLLOUT):
                subs.append((fd, 0))
                who.append((fd, 0))
        got = {}
        for (fd, bit), (ready, hup, err) in zip(who, _kernel_poll(subs, timeout)):
            ev = (bit if ready else 0) | (_select.POLLHUP if hup else 0)
            ev |= _select.POLLNVAL if err else 0
            if ev:
                got[fd] = got.get(fd, 0) | ev
        return list(got.items())


# termios on the kernel's terminal. Its line discipline has canonical mode, echo, signal
# keys, LF -> CRLF output and CR -> LF input (tty/tty.ts mode bits); the other flags a
# program sets are kept as it set them, and tcgetattr starts from a Linux pty's defaults.
_TTY_CANON, _TTY_ECHO, _TTY_ISIG, _TTY_RAW_OUTPUT, _TTY_ICRNL = 1, 2, 4, 8, 16
_T = termios
_tty_attrs = [
    _T.ICRNL | _T.IXON | getattr(_T, "IUTF8", 0),
    _T.OPOST | _T.ONLCR,
    _T.CS8 | _T.CREAD | _T.B38400,
    _T.ISIG | _T.ICANON | _T.ECHO | _T.ECHOE | _T.ECHOK | _T.ECHOCTL | _T.ECHOKE | _T.IEXTEN,
    _T.B38400,
    _T.B38400,
    [b"\0"] * _T.NCCS,
]
for _name, _key in (("VINTR", 3), ("VQUIT", 0x1C), ("VERASE", 0x7F), ("VKILL", 0x15), ("VEOF", 4),
                    ("VMIN", 1), ("VSTART", 0x11), ("VSTOP", 0x13), ("VSUSP", 0x1A),
                    ("VREPRINT", 0x12), ("VDISCARD", 0x0F), ("VWERASE", 0x17), ("VLNEXT", 0x16)):
    _tty_attrs[6][getattr(_T, _name)] = bytes([_key])


def _tty_error(n):
    return termios.error(n, os.strerror(n))


def _tty_mode(fd, mode=-1):
    r = _k.ttyMode(_fileno(fd), mode)
    if r < 0:
        # (errno is Linux's by now; the kernel's answer is Emscripten's number)
        raise _tty_error(errno.ENOTTY if -r == _WASI_ENOTTY else errno.EBADF)
    return r


def tcgetattr(fd):
    mode = _tty_mode(fd)
    iflag, oflag, cflag, lflag, ispeed, ospeed, cc = _tty_attrs
    lflag &= ~(_T.ICANON | _T.ECHO | _T.ISIG)
    lflag |= ((_T.ICANON if mode & _TTY_CANON else 0) | (_T.ECHO if mode & _TTY_ECHO else 0)
              | (_T.ISIG if mode & _TTY_ISIG else 0))
    if mode & _TTY_RAW_OUTPUT and oflag & _T.OPOST and oflag & _T.ONLCR:
        oflag &= ~_T.OPOST
    elif not mode & _TTY_RAW_OUTPUT:
        oflag |= _T.OPOST | _T.ONLCR
    cc = list(cc)
    if not lflag & _T.ICANON:
        # As CPython: VMIN and VTIME are numbers outside canonical mode.
        cc[_T.VMIN], cc[_T.VTIME] = cc[_T.VMIN][0], cc[_T.VTIME][0]
    return [iflag, oflag, cflag, lflag, ispeed, ospeed, cc]


def tcsetattr(fd, when, attributes):
    fd = _fileno(fd)
    if not isinstance(attributes, list) or len(attributes) != 7:
        raise TypeError("tcsetattr, arg 3: must be 7 element list")
    *flags, cc = attributes
    flags = [int(f) for f in flags]
    if not isinstance(cc, list) or len(cc) != _T.NCCS:
        raise TypeError(f"tcsetattr: attributes[6] must be {_T.NCCS} element list")
    chars = []
    for c in cc:
        if isinstance(c, bytes) and len(c) == 1:
            chars.append(c)
        elif isinstance(c, int):
            chars.append(bytes([c & 0xFF]))
        else:
            raise TypeError("tcsetattr: elements of attributes must be characters or integers")
    if when not in (_T.TCSANOW, _T.TCSADRAIN, _T.TCSAFLUSH):
        raise _tty_error(errno.EINVAL)
    iflag, oflag, lflag = flags[0], flags[1], flags[3]
    mode = ((_TTY_CANON if lflag & _T.ICANON else 0) | (_TTY_ECHO if lflag & _T.ECHO else 0)
            | (_TTY_ISIG if lflag & _T.ISIG else 0)
            | (0 if oflag & _T.OPOST and oflag & _T.ONLCR else _TTY_RAW_OUTPUT)
            | (_TTY_ICRNL if iflag & _T.ICRNL else 0))
    _tty_mode(fd, mode)
    _tty_attrs[:] = flags + [chars]


def _tty_check(fd, *args):
    _tty_mode(fd)


def tcgetwinsize(fd):
    _tty_mode(fd)
    cols, rows = json.loads(_k.winsize(_fileno(fd)))
    return rows, cols


def get_terminal_size(fd=1):
    r = json.loads(_k.winsize(_fileno(fd)))
    if isinstance(r, int):
        raise errno_error(-r)
    return os.terminal_size(r)


_ioctl = fcntl.ioctl


def ioctl(fd, request, arg=0, mutate_flag=True, /):
    """fcntl.ioctl: the terminal's size and pending input come from the kernel."""
    if request not in (_T.TIOCGWINSZ, _T.FIONREAD):
        return _ioctl(fd, request, arg, mutate_flag)
    fd = _fileno(fd)
    if request == _T.TIOCGWINSZ:
        r = json.loads(_k.winsize(fd))
        if isinstance(r, int):
            raise errno_error(-r)
        data = struct.pack("HHHH", r[1], r[0], 0, 0)
    else:
        # How many bytes a read would get at once: 1 when input is ready (the kernel keeps no count).
        ready, hup, err = _kernel_poll([(fd, 0)], 0)[0]
        if err:
            raise errno_error(err)
        data = struct.pack("i", 1 if ready and not hup else 0)
    if isinstance(arg, int):
        return struct.unpack("i", data[:4])[0] if request == _T.FIONREAD else 0
    if isinstance(arg, (bytes, str)):
        arg = arg.encode() if isinstance(arg, str) else arg
        return (data + arg[len(data):])[:len(arg)] if len(arg) >= len(data) else data[:len(arg)]
    buf = memoryview(arg).cast("B")
    n = min(len(buf), len(data))
    if mutate_flag:
        buf[:n] = data[:n]
        return 0
    return bytes(data[:n]) + bytes(buf[n:])


_faccessat = os.access


def _path_error(e, *names):
    """errno `e` (the kernel's) as C raises it for a call on paths `names`."""
    err = errno_error(e)
    if len(names) == 2:
        return type(err)(err.errno, err.strerror, names[0], None, names[1])
    return type(err)(err.errno, err.strerror, names[0])


def _abspath(p, what):
    if isinstance(p, int):
        raise TypeError(f"{what}: path should be string, bytes or os.PathLike, not int")
    return os.path.abspath(_fsdecode(os.fspath(p)))


def link(src, dst, *, src_dir_fd=None, dst_dir_fd=None, follow_symlinks=True):
    """os.link through the kernel (Emscripten has no linkat)."""
    if src_dir_fd is not None or dst_dir_fd is not None:
        raise NotImplementedError("link: src_dir_fd and dst_dir_fd unavailable on this platform")
    e = _k.link(_abspath(src, "link"), _abspath(dst, "link"), 1 if follow_symlinks else 0)
    if e:
        raise _path_error(e, src, dst)


_utime = os.utime


def utime(path, times=None, *, ns=None, dir_fd=None, follow_symlinks=True):
    """os.utime; follow_symlinks=False sets a symlink's own times (lutimes)."""
    if follow_symlinks or dir_fd is not None or isinstance(path, int):
        more = {} if ns is None else {"ns": ns}  # C's utime takes ns=None as given
        return _utime(path, times, dir_fd=dir_fd, follow_symlinks=follow_symlinks, **more)
    if times is not None and ns is not None:
        raise ValueError("utime: you may specify either 'times' or 'ns' but not both")
    if times is not None:
        if not isinstance(times, tuple) or len(times) != 2:
            raise TypeError("utime: 'times' must be either a tuple of two ints or None")
        atime, mtime = (t * 1000 for t in times)
    elif ns is not None:
        if not isinstance(ns, tuple) or len(ns) != 2:
            raise TypeError("utime: 'ns' must be a tuple of two ints")
        atime, mtime = (t / 1e6 for t in ns)
    else:
        atime = mtime = -1
    e = _k.lutimes(_abspath(path, "utime"), atime, mtime)
    if e:
        raise _path_error(e, path)


def access(path, mode, *, dir_fd=None, effective_ids=False, follow_symlinks=True):
    """os.access by the file's mode bits and the process's ids, as the kernel
    would check them (Emscripten's own answers yes for any existing file)."""
    if not _faccessat(path, os.F_OK, dir_fd=dir_fd, follow_symlinks=follow_symlinks):
        return False
    if mode & ~(os.R_OK | os.W_OK | os.X_OK):
        raise OSError(errno.EINVAL, os.strerror(errno.EINVAL))
    if mode == os.F_OK:
        return True
    try:
        st = os.stat(path, dir_fd=dir_fd, follow_symlinks=follow_symlinks)
    except OSError:
        return False
    ids = _ids()
    uid, gid = (ids[2], ids[3]) if effective_ids else (ids[0], ids[1])
    perm = st.st_mode & 0o777
    if uid == 0:
        # root: read and write anything; execute what someone may (or a directory).
        return not (mode & os.X_OK) or bool(perm & 0o111) or stat.S_ISDIR(st.st_mode)
    if st.st_uid == uid:
        bits = perm >> 6
    elif st.st_gid == gid:
        bits = perm >> 3
    else:
        bits = perm
    want = (4 if mode & os.R_OK else 0) | (2 if mode & os.W_OK else 0) | (1 if mode & os.X_OK else 0)
    return bits & want == want


def abort():
    """os.abort: SIGABRT's default action, through the kernel (C's abort()
    would be Pyodide's fatal error, with a stack dump on stdout)."""
    _k.sigaction(signal.SIGABRT, _DISP_DEFAULT)
    kill(os.getpid(), signal.SIGABRT)
    for _ in range(100):
        nap(0.05)  # the kernel ends the process
    os._exit(134)


def install(bridge, pids):
    global _k
    _k = bridge
    pid, ppid = pids
    os.getpid = lambda: pid
    os.getppid = lambda: ppid
    os.pipe = pipe
    os.waitpid = waitpid
    os.kill = kill
    os.killpg, os.getpgid, os.setpgid = killpg, getpgid, setpgid
    os.getpgrp = lambda: getpgid(0)
    os.setpgrp = lambda: setpgid(0, 0)
    os.umask = umask
    os.link, os.utime = link, utime
    os.supports_follow_symlinks.add(os.utime)
    os.supports_follow_symlinks.add(os.link)
    # Credentials as the kernel gives them (Emscripten says 0 and has no euid/egid/groups).
    os.getuid = lambda: _ids()[0]
    os.getgid = lambda: _ids()[1]
    os.geteuid = lambda: _ids()[2]
    os.getegid = lambda: _ids()[3]
    os.getgroups = lambda: [_ids()[1]]
    os.access = access
    os.abort = abort
    os.cpu_count = cpu_count
    if hasattr(os, "process_cpu_count"):
        os.process_cpu_count = cpu_count
    os.uname = uname
    os.sched_getaffinity, os.sysconf = sched_getaffinity, sysconf
    import socket

    socket.gethostname = lambda: uname().nodename
    os.system = system
    time.sleep = sleep
    time.tzset = tzset
    if os.environ.get("TZ"):
        tzset()  # (the interpreter starts at UTC, as the realm's clock)
    signal.signal = set_signal
    signal.raise_signal = raise_signal
    signal.alarm, signal.setitimer, signal.getitimer, signal.pause = alarm, setitimer, getitimer, pause
    # As CPython at start: a write to a closed pipe raises BrokenPipeError.
    set_signal(signal.SIGPIPE, signal.SIG_IGN)
    set_signal(signal.SIGXFSZ, signal.SIG_IGN)
    termios.tcgetattr, termios.tcsetattr, termios.tcgetwinsize = tcgetattr, tcsetattr, tcgetwinsize
    for n in ("tcdrain", "tcflush", "tcflow", "tcsendbreak"):
        setattr(termios, n, _tty_check)
    fcntl.ioctl = ioctl
    os.get_terminal_size = get_terminal_size
    _select.select = select
    _select.poll = _Poll
    selectors.PollSelector._selector_cls = _Poll
    selectors.DefaultSelector = selectors.PollSelector
    subprocess._can_fork_exec = True
    subprocess._USE_POSIX_SPAWN = False
    subprocess._USE_VFORK = False
    subprocess._fork_exec = _fork_exec
    ds = subprocess._del_safe
    ds.waitpid = waitpid
    for n in ("waitstatus_to_exitcode", "WIFSTOPPED", "WSTOPSIG", "WNOHANG", "ECHILD"):
        if hasattr(os, n):
            setattr(ds, n, getattr(os, n))
