# Where Pyodide's standard library differs from CPython's on Linux in ways
# scripts meet, installed by the driver before user code:
# - asyncio: Pyodide runs a browser event loop that needs JS stack switching
#   (asyncio.run fails). Here asyncio gets CPython's selector loop over the
#   kernel's POLL (selectors.PollSelector is kernelShim's), a pipe for its
#   wake-ups (no socketpair), signal handlers through signal.signal, and
#   child processes watched by polling waitpid (no threads, no pidfd).
# - concurrent.futures.ThreadPoolExecutor: there are no threads; its tasks
#   run at submit, in the caller (map, as_completed, asyncio's
#   run_in_executor and to_thread then work, one task at a time);
#   as_completed yields them in the order they would have ended on the
#   pool's workers (from each task's duration), not in submission order.
# - hashlib.pbkdf2_hmac: CPython takes it from OpenSSL, which Pyodide lacks.
# - resource (Pyodide has none): Linux's constants and usual limits.
# - pwd and grp (Pyodide has neither) read the sandbox's /etc/passwd and
#   /etc/group, made when first imported; pathlib's owner()/group() use them.
# - traceback.walk_stack (print_stack, extract_stack, logging's "Call stack:")
#   skips the frames of the driver and of Pyodide that run the program: the
#   program's outermost frame is the last one, as in CPython.
# - sys.platform is "linux" (the sandbox is a Linux to its programs; os.uname
#   says so too, kernelShim). What Pyodide's stdlib decided from "emscripten"
#   was decided at boot (subprocess, site, shutil are imported by then);
#   sysconfig finds its data under the Linux name.
import asyncio
import asyncio.unix_events
import concurrent.futures
import concurrent.futures.thread
import errno
import hashlib
import hmac
import itertools
import os
import selectors
import signal
import sys
import threading
import time


class _ChildWatcher:
    """Reaps one child per handler by polling (a 10 ms timer on the loop)."""

    def __init__(self, loop):
        self._loop = loop

    def add_child_handler(self, pid, callback, *args):
        def check():
            try:
                got, status = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                got, status = pid, 255 << 8
            if got == 0:
                self._loop.call_later(0.01, check)
            else:
                callback(pid, os.waitstatus_to_exitcode(status), *args)

        self._loop.call_soon(check)


class KernelEventLoop(asyncio.unix_events._UnixSelectorEventLoop):
    """CPython's Unix selector loop on the kernel's poll and a kernel pipe."""

    def __init__(self, selector=None):
        super().__init__(selector or selectors.PollSelector())
        self._watcher = _ChildWatcher(self)

    async def shutdown_default_executor(self, timeout=None):
        # CPython waits for the pool in a thread; the inline pool has nothing running.
        self._executor_shutdown_called = True
        if self._default_executor is not None:
            self._default_executor.shutdown(wait=True)

    def _make_self_pipe(self):
        self._ssock, self._csock = os.pipe()
        self._internal_fds += 1
        self._add_reader(self._ssock, self._read_from_self)

    def _read_from_self(self):
        # Only called when poll says the pipe is readable: one read does not block.
        try:
            self._process_self_data(os.read(self._ssock, 4096))
        except InterruptedError:
            pass

    def _write_to_self(self):
        if self._csock is None:
            return
        try:
            os.write(self._csock, b"\0")
        except OSError:
            pass

    def _close_self_pipe(self):
        self._remove_reader(self._ssock)
        os.close(self._ssock)
        os.close(self._csock)
        self._ssock = self._csock = None
        self._internal_fds -= 1

    def add_signal_handler(self, sig, callback, *args):
        if asyncio.coroutines.iscoroutine(callback) or asyncio.coroutines._iscoroutinefunction(callback):
            raise TypeError("coroutines cannot be used with add_signal_handler()")
        self._check_signal(sig)
        self._check_closed()
        handle = asyncio.Handle(callback, args, self, None)
        self._signal_handlers[sig] = handle
        signal.signal(sig, lambda signum, frame: self._add_callback_signalsafe(handle))

    def remove_signal_handler(self, sig):
        self._check_signal(sig)
        if self._signal_handlers.pop(sig, None) is None:
            return False
        signal.signal(sig, signal.default_int_handler if sig == signal.SIGINT else signal.SIG_DFL)
        return True


class InlineThreadPoolExecutor(concurrent.futures.Executor):
    """ThreadPoolExecutor's interface; each task runs when submitted."""

    def __init__(self, max_workers=None, thread_name_prefix="", initializer=None, initargs=()):
        if max_workers is not None and max_workers <= 0:
            raise ValueError("max_workers must be greater than 0")
        if initializer is not None and not callable(initializer):
            raise TypeError("initializer must be a callable")
        self._max_workers = max_workers or min(32, (os.cpu_count() or 1) + 4)
        self._thread_name_prefix = thread_name_prefix or f"ThreadPoolExecutor-{next(_pool_seq)}"
        self._init = (initializer, initargs) if initializer is not None else None
        self._broken = False
        self._shutdown = False
        # When each task would have ended with real workers: the caller's
        # clock without the time it spent running tasks, and the workers'
        # (as_completed yields by it: the shortest sleeper first).
        # The task runs as the worker that would take it: current_thread()
        # has that worker's name meanwhile (logging's threadName), as CPython
        # names them: prefix_0, prefix_1, ... (an idle worker is reused, a new
        # one started while none is idle and there is room).
        self._lag = 0.0
        self._free = []  # (when it is free, index) of each worker started

    def _run(self, future, fn, args, kwargs):
        t0 = time.monotonic()
        now = t0 - self._lag
        idle = [w for w in self._free if w[0] <= now]
        if idle or len(self._free) >= self._max_workers:
            free_at, worker = min(idle or self._free)
            self._free.remove((free_at, worker))
        else:
            free_at, worker = now, len(self._free)
        start = max(now, free_at)
        me = threading.current_thread()
        name, me.name = me.name, f"{self._thread_name_prefix}_{worker}"
        try:
            result = fn(*args, **kwargs)
        except Exception as e:
            future.set_exception(e)
        else:
            future.set_result(result)
        finally:
            me.name = name
        took = time.monotonic() - t0
        future._sg_done_at = (start + took, next(_task_seq))
        self._free.append((start + took, worker))
        self._lag += took

    def submit(self, fn, /, *args, **kwargs):
        if self._broken:
            raise concurrent.futures.thread.BrokenThreadPool(self._broken)
        if self._shutdown:
            raise RuntimeError("cannot schedule new futures after shutdown")
        if self._init is not None:
            initializer, initargs = self._init
            self._init = None
            try:
                initializer(*initargs)
            except BaseException:
                self._broken = "A thread initializer failed, the thread pool is not usable anymore"
                raise concurrent.futures.thread.BrokenThreadPool(self._broken) from None
        future = concurrent.futures.Future()
        future.set_running_or_notify_cancel()
        self._run(future, fn, args, kwargs)
        return future

    def shutdown(self, wait=True, *, cancel_futures=False):
        self._shutdown = True


class _RemoteTraceback(Exception):
    """The worker's traceback, the cause of an error a process pool's task raised."""

    def __init__(self, tb):
        self.tb = tb

    def __str__(self):
        return self.tb


_RemoteTraceback.__module__ = "concurrent.futures.process"


class InlineProcessPoolExecutor(InlineThreadPoolExecutor):
    """ProcessPoolExecutor's interface; each task runs when submitted, in the
    caller, on a pickled copy of its function and arguments, and its result
    or error comes back through pickle, as from a worker process (what a task
    changes in its arguments is not seen by the caller; a lambda or an
    unpicklable argument fails as in CPython). Module globals a task changes
    are the caller's: there is no other process."""

    def __init__(self, max_workers=None, mp_context=None, initializer=None, initargs=(), *, max_tasks_per_child=None):
        if max_workers is not None and max_workers <= 0:
            raise ValueError("max_workers must be greater than 0")
        if max_tasks_per_child is not None and (not isinstance(max_tasks_per_child, int) or max_tasks_per_child <= 0):
            raise ValueError("max_tasks_per_child must be >= 1")
        super().__init__(max_workers or os.cpu_count() or 1, "", initializer, initargs)

    def _run(self, future, fn, args, kwargs):
        import pickle
        import traceback

        try:
            fn, args, kwargs = pickle.loads(pickle.dumps((fn, args, kwargs)))
        except Exception as e:
            future.set_exception(e)
            return
        inner = concurrent.futures.Future()
        super()._run(inner, fn, args, kwargs)
        future._sg_done_at = inner._sg_done_at
        e = inner.exception()
        if e is not None:
            tb = "".join(traceback.format_exception(type(e), e, e.__traceback__))
            e.__cause__ = _RemoteTraceback(f'\n"""\n{tb}"""')
            future.set_exception(e.with_traceback(None))
            return
        try:
            future.set_result(pickle.loads(pickle.dumps(inner.result())))
        except Exception as e:
            future.set_exception(e)

    def submit(self, fn, /, *args, **kwargs):
        try:
            return super().submit(fn, *args, **kwargs)
        except concurrent.futures.thread.BrokenThreadPool:
            from concurrent.futures.process import BrokenProcessPool

            raise BrokenProcessPool(
                "A child process terminated abruptly, the process pool is not usable anymore"
            ) from None

    def map(self, fn, *iterables, timeout=None, chunksize=1):
        if chunksize < 1:
            raise ValueError("chunksize must be >= 1.")
        return super().map(fn, *iterables, timeout=timeout)


_as_completed = concurrent.futures.as_completed
_task_seq = itertools.count()
_pool_seq = itertools.count()


def as_completed(fs, timeout=None):
    """concurrent.futures.as_completed: futures of the inline pool come in the
    order their tasks would have ended with real workers."""
    if isinstance(fs, (set, frozenset, list, tuple, dict)):
        futures = set(fs)
        if futures and all(f.done() and hasattr(f, "_sg_done_at") for f in futures):
            return iter(sorted(futures, key=lambda f: f._sg_done_at))
    return _as_completed(fs, timeout)


def patch_process_pool(module):
    """concurrent.futures.process, when imported: its executor is the inline one."""
    module.ProcessPoolExecutor = InlineProcessPoolExecutor


# time.strftime: the C library is musl's, whose strftime fails (CPython then
# returns "") on a conversion it lacks; glibc's extensions are rewritten into
# musl's and unknown ones are kept as text, as glibc keeps them.
_MUSL_CONVERSIONS = frozenset("aAbhBcCdDeFgGHIjmMnprRsStTuUVwWxXyYzZ%")
_strftime = time.strftime


def _strftime_piece(flags, width, conv, t):
    """One glibc conversion musl lacks (or a flag it lacks: ^ and #)."""
    base = {"k": "H", "l": "I", "P": "p"}.get(conv, conv)
    pad = "_" if conv in "kl" and not flags.strip("^#") else ""
    musl_flags = "".join(f for f in flags if f not in "^#")
    text = _strftime(f"%{musl_flags or pad}{width}{base}", t)
    if conv == "P":
        text = text.lower()
    if "^" in flags:
        text = text.upper()
    elif "#" in flags:
        text = text.lower() if conv in "pZ" else text.upper() if conv in "aAbBh" else text
    return text


def strftime(format, t=None):
    """time.strftime with glibc's conversions (%k %l %P, the ^ and # flags)."""
    if t is None:
        t = time.localtime()
    if not isinstance(format, str) or "%" not in format:
        return _strftime(format, t)
    out, i, n = [], 0, len(format)
    while i < n:
        j = format.find("%", i)
        if j < 0:
            out.append(format[i:])
            break
        out.append(format[i:j])
        k = j + 1
        while k < n and format[k] in "-_0^#+":
            k += 1
        flags = format[j + 1 : k]
        w = k
        while k < n and format[k].isdigit():
            k += 1
        width = format[w:k]
        if k < n and format[k] in "EO":
            k += 1
        if k >= n:
            out.append(format[j:])  # a lone % at the end stays
            break
        conv = format[k]
        spec = format[j : k + 1]
        if conv in "klP" or (conv in _MUSL_CONVERSIONS and set(flags) & {"^", "#"}):
            out.append(_strftime_piece(flags, width, conv, t))
        elif conv in _MUSL_CONVERSIONS:
            out.append(_strftime(spec, t) if conv != "%" else "%")
        else:
            out.append(spec)
        i = k + 1
    return "".join(out)


class _Policy(asyncio.events._BaseDefaultEventLoopPolicy):
    _loop_factory = KernelEventLoop


def pbkdf2_hmac(hash_name, password, salt, iterations, dklen=None):
    """PBKDF2 (RFC 8018) with HMAC-`hash_name`, as hashlib's."""
    if not isinstance(hash_name, str):
        raise TypeError(f"expected str, got {type(hash_name).__name__}")
    password, salt = bytes(memoryview(password)), bytes(memoryview(salt))
    if iterations < 1:
        raise ValueError("iteration value must be greater than 0.")
    keyed = hmac.new(password, None, hash_name)
    size = keyed.digest_size
    if dklen is None:
        dklen = size
    if dklen < 1:
        raise ValueError("key length must be greater than 0.")
    out = bytearray()
    block = 1
    while len(out) < dklen:
        mac = keyed.copy()
        mac.update(salt + block.to_bytes(4, "big"))
        u = mac.digest()
        acc = int.from_bytes(u, "big")
        for _ in range(iterations - 1):
            mac = keyed.copy()
            mac.update(u)
            u = mac.digest()
            acc ^= int.from_bytes(u, "big")
        out += acc.to_bytes(size, "big")
        block += 1
    return bytes(out[:dklen])


class _SysconfigDataAlias:
    """Finds sysconfig's `_sysconfigdata_..._linux_...` as the build's emscripten one."""

    def __init__(self, name, real):
        self.name, self.real = name, real

    def find_spec(self, name, path=None, target=None):
        if name != self.name:
            return None
        import importlib.util

        return importlib.util.spec_from_loader(name, self)

    def create_module(self, spec):
        import importlib

        return importlib.import_module(self.real)

    def exec_module(self, module):
        pass


def _struct_seq(module, name, fields):
    """A tuple type like CPython's struct sequences (pwd.struct_passwd...)."""

    def __repr__(self):
        return f"{module}.{name}(" + ", ".join(f"{f}={v!r}" for f, v in zip(fields, self)) + ")"

    ns = {"__slots__": (), "__module__": module, "__repr__": __repr__, "n_fields": len(fields),
          "n_sequence_fields": len(fields), "n_unnamed_fields": 0, "__match_args__": tuple(fields)}
    for i, f in enumerate(fields):
        ns[f] = property(lambda self, i=i: self[i])
    return type(name, (tuple,), ns)


def _entries(path, width):
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            lines = f.read().splitlines()
    except OSError:
        return []
    return [p for p in (line.split(":") for line in lines if line and not line.startswith("#")) if len(p) == width]


def _make_pwd():
    m = type(sys)("pwd")
    m.struct_passwd = st = _struct_seq("pwd", "struct_passwd",
                                       ("pw_name", "pw_passwd", "pw_uid", "pw_gid", "pw_gecos", "pw_dir", "pw_shell"))

    def getpwall():
        return [st((n, pw, int(u), int(g), ge, d, sh)) for n, pw, u, g, ge, d, sh in _entries("/etc/passwd", 7)]

    def getpwuid(uid):
        uid = uid.__index__()
        for e in getpwall():
            if e.pw_uid == uid:
                return e
        raise KeyError(f"getpwuid(): uid not found: {uid}")

    def getpwnam(name):
        if not isinstance(name, str):
            raise TypeError(f"getpwnam() argument must be str, not {type(name).__name__}")
        for e in getpwall():
            if e.pw_name == name:
                return e
        raise KeyError(f"getpwnam(): name not found: {name!r}")

    m.getpwall, m.getpwuid, m.getpwnam = getpwall, getpwuid, getpwnam
    return m


def _make_grp():
    m = type(sys)("grp")
    m.struct_group = st = _struct_seq("grp", "struct_group", ("gr_name", "gr_passwd", "gr_gid", "gr_mem"))

    def getgrall():
        return [st((n, pw, int(g), [u for u in mem.split(",") if u])) for n, pw, g, mem in _entries("/etc/group", 4)]

    def getgrgid(gid):
        gid = gid.__index__()
        for e in getgrall():
            if e.gr_gid == gid:
                return e
        raise KeyError(f"getgrgid(): gid not found: {gid}")

    def getgrnam(name):
        if not isinstance(name, str):
            raise TypeError(f"getgrnam() argument must be str, not {type(name).__name__}")
        for e in getgrall():
            if e.gr_name == name:
                return e
        raise KeyError(f"getgrnam(): name not found: {name!r}")

    m.getgrall, m.getgrgid, m.getgrnam = getgrall, getgrgid, getgrnam
    return m


# Linux's resource numbers and a Linux process's usual limits (soft, hard).
_RLIMITS = {
    "RLIMIT_CPU": (0, -1, -1), "RLIMIT_FSIZE": (1, -1, -1), "RLIMIT_DATA": (2, -1, -1),
    "RLIMIT_STACK": (3, 8388608, -1), "RLIMIT_CORE": (4, 0, -1), "RLIMIT_RSS": (5, -1, -1),
    "RLIMIT_NPROC": (6, 63703, 63703), "RLIMIT_NOFILE": (7, 1024, 1048576),
    "RLIMIT_MEMLOCK": (8, 8388608, 8388608), "RLIMIT_AS": (9, -1, -1), "RLIMIT_LOCKS": (10, -1, -1),
    "RLIMIT_SIGPENDING": (11, 63703, 63703), "RLIMIT_MSGQUEUE": (12, 819200, 819200),
    "RLIMIT_NICE": (13, 0, 0), "RLIMIT_RTPRIO": (14, 0, 0), "RLIMIT_RTTIME": (15, -1, -1),
}
_RUSAGE_FIELDS = ("ru_utime", "ru_stime", "ru_maxrss", "ru_ixrss", "ru_idrss", "ru_isrss", "ru_minflt", "ru_majflt",
                  "ru_nswap", "ru_inblock", "ru_oublock", "ru_msgsnd", "ru_msgrcv", "ru_nsignals", "ru_nvcsw",
                  "ru_nivcsw")


def _make_resource():
    """`resource` (Pyodide has none): Linux's constants, the usual limits of a
    Linux process (setrlimit keeps them for the process, checked as the
    kernel checks them), getrusage from the process's CPU time and heap."""
    m = type(sys)("resource")
    m.error = OSError
    m.RLIM_INFINITY = -1
    m.RUSAGE_SELF, m.RUSAGE_CHILDREN, m.RUSAGE_THREAD = 0, -1, 1
    limits = {}
    for name, (num, soft, hard) in _RLIMITS.items():
        setattr(m, name, num)
        limits[num] = (soft, hard)
    m.struct_rusage = st = _struct_seq("resource", "struct_rusage", _RUSAGE_FIELDS)

    def _resource(r):
        r = r.__index__()
        if r not in limits:
            raise ValueError("invalid resource specified")
        return r

    def getrlimit(resource):
        return limits[_resource(resource)]

    def setrlimit(resource, limits_):
        r = _resource(resource)
        soft, hard = (int(v) for v in limits_)
        big = 2**64
        if (soft % big) > (hard % big):
            raise ValueError("current limit exceeds maximum limit")
        if (hard % big) > (limits[r][1] % big) and os.geteuid() != 0:
            raise ValueError("not allowed to raise maximum limit")
        limits[r] = (soft, hard)

    def prlimit(pid, resource, limits_=None):
        if pid not in (0, os.getpid()):
            raise ProcessLookupError(errno.ESRCH, os.strerror(errno.ESRCH))
        old = getrlimit(resource)
        if limits_ is not None:
            setrlimit(resource, limits_)
        return old

    def getrusage(who):
        if who not in (0, -1, 1):
            raise ValueError("invalid who parameter")
        if who == -1:
            return st((0.0, 0.0) + (0,) * 14)
        import ctypes

        heap_kb = ctypes.CDLL(None).emscripten_get_heap_size() // 1024
        return st((time.process_time(), 0.0, heap_kb) + (0,) * 13)

    m.getrlimit, m.setrlimit, m.prlimit, m.getrusage = getrlimit, setrlimit, prlimit, getrusage
    m.getpagesize = lambda: 4096
    return m


class _MadeModules:
    """Finds `pwd`, `grp` and `resource` (built here when first imported)."""

    makers = {"pwd": _make_pwd, "grp": _make_grp, "resource": _make_resource}

    def find_spec(self, name, path=None, target=None):
        if name not in self.makers:
            return None
        import importlib.util

        return importlib.util.spec_from_loader(name, self, origin="sandglass")

    def create_module(self, spec):
        return self.makers[spec.name]()

    def exec_module(self, module):
        pass


def _path_owner(self, *, follow_symlinks=True):
    import pwd

    return pwd.getpwuid(self.stat(follow_symlinks=follow_symlinks).st_uid).pw_name


def _hardlink_to(self, target):
    """Make this path a hard link to the same file as target."""
    os.link(target, self)


def _path_group(self, *, follow_symlinks=True):
    import grp

    return grp.getgrgid(self.stat(follow_symlinks=follow_symlinks).st_gid).gr_name


def _hidden_frame(frame):
    name = frame.f_code.co_filename
    return name == "<sandglass>" or name.startswith(_PYODIDE_DIR)


_PYODIDE_DIR = os.path.dirname(os.__file__) + "/_pyodide/"


def _walk_stack(f):
    """traceback.walk_stack without the frames that run the program."""
    if f is None:
        f = sys._getframe().f_back

    def walk(frame):
        while frame is not None:
            if not _hidden_frame(frame):
                yield frame, frame.f_lineno
            frame = frame.f_back

    return walk(f)


def _linux_platform():
    if sys.platform == "linux":
        return
    multiarch = getattr(sys.implementation, "_multiarch", "")
    real = f"_sysconfigdata_{sys.abiflags}_{sys.platform}_{multiarch}"
    sys.platform = "linux"
    sys.meta_path.append(_SysconfigDataAlias(f"_sysconfigdata_{sys.abiflags}_linux_{multiarch}", real))
    platform = sys.modules.get("platform")
    if platform is not None:
        platform._uname_cache = None


def install():
    _linux_platform()
    import traceback

    traceback.walk_stack = _walk_stack
    sys.meta_path.append(_MadeModules())
    pathlib = sys.modules.get("pathlib")
    if pathlib is not None:
        pathlib.Path.owner, pathlib.Path.group = _path_owner, _path_group
        # pathlib chose at import, when os had no link (the kernel shim's came later).
        pathlib.Path.hardlink_to = _hardlink_to
    # Pyodide's browser loop is set running at boot and its asyncio.run wraps CPython's.
    asyncio.events._set_running_loop(None)
    webloop = __import__("sys").modules.get("pyodide.webloop")
    if webloop is not None and getattr(webloop, "_orig_run", None) is not None:
        asyncio.run = webloop._orig_run
    asyncio.events._set_event_loop_policy(_Policy())
    asyncio.SelectorEventLoop = asyncio.EventLoop = KernelEventLoop
    concurrent.futures.ThreadPoolExecutor = InlineThreadPoolExecutor
    concurrent.futures.as_completed = concurrent.futures._base.as_completed = as_completed
    concurrent.futures.thread.ThreadPoolExecutor = InlineThreadPoolExecutor
    concurrent.futures.ProcessPoolExecutor = InlineProcessPoolExecutor
    time.strftime = strftime
    import shutil

    # Pyodide registers its wheel format; CPython's shutil knows no "whl".
    for unregister in (shutil.unregister_archive_format, shutil.unregister_unpack_format):
        try:
            unregister("whl")
        except (KeyError, shutil.RegistryError):
            pass
    if "concurrent.futures.process" in sys.modules:
        patch_process_pool(sys.modules["concurrent.futures.process"])
    if not hasattr(hashlib, "pbkdf2_hmac"):
        hashlib.pbkdf2_hmac = pbkdf2_hmac
