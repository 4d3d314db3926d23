# Threads in an interpreter that has one thread (Pyodide): installed by the
# driver before user code. A started threading.Thread waits until some code
# would wait for it (join, a lock, an Event or Queue, time.sleep, the end of
# the program) and then runs to its end on the waiting thread's stack, as
# current_thread(). Nothing can suspend a running thread, so a wait that no
# runnable thread can end is a deadlock: an emulated thread in it is parked
# (unwound by _Parked, is_alive() stays true, as a thread blocked for good);
# the main thread gets a RuntimeError saying so instead of hanging, unless a
# signal handler is set (a signal may end the wait: it waits for signals).
# A thread that runs on the stack of a wait with a deadline (time.sleep, a
# timeout) is preempted when its own wait would outlast that deadline: it is
# unwound (_Preempted) so the waiter below goes on at its time, as a thread
# looping with sleeps (a heartbeat, a poller stopped by an Event) would let
# it. A preempted thread stays alive; join() without a timeout takes it as
# ended (it would have seen its stop flag), and daemon ones die at exit.
# threading.local is kept per emulated thread (_threading_local).
# multiprocessing.pool.ThreadPool (and multiprocessing.dummy.Pool, and
# multiprocessing.Pool: there are no processes) run each task when it is
# given, in the caller, as ThreadPoolExecutor (stdlibShim).
import contextvars
import itertools
import os
import signal
import sys
import threading
import time

_pending = []  # started, not yet run (FIFO)
_running = []  # emulated threads on the stack now, innermost last
_state = {}  # Thread -> "pending" | "running" | "parked" | "preempted" | "done"
_deadlines = []  # monotonic deadlines (or None) of the waits running started threads now
_idents = itertools.count(1)
_SIGNAL_CHECK = 0.05  # seconds between looks at a wait a signal handler may end
_sleep = None  # time.sleep as kernelShim made it (waits its whole time)
_nap = None  # kernelShim.nap: waits at most its time, less when a signal arrives


class _Parked(BaseException):
    """Unwinds an emulated thread whose wait nothing can end."""


class _Preempted(BaseException):
    """Unwinds an emulated thread whose wait outlasts the deadline of a wait below it."""


def _below_deadline():
    """The earliest deadline of the waits under the running emulated thread (None: none)."""
    ds = [d for d in _deadlines if d is not None]
    return min(ds) if ds else None


def _run(t):
    _state[t] = "running"
    main_ident = threading.get_ident()
    outer = threading._active.get(main_ident)
    threading._active[main_ident] = t
    _running.append(t)
    try:
        try:
            t._context.run(t.run)
        except _Parked:
            _state[t] = "parked"
            return
        except _Preempted:
            _state[t] = "preempted"
            return
        except SystemExit:
            pass
        except BaseException as e:  # noqa: BLE001  (reported as CPython's thread bootstrap does)
            # No frame of ours: the traceback starts in Thread.run, as CPython's thread shows it.
            tb = e.__traceback__.tb_next if e.__traceback__ is not None else None
            e.__traceback__ = tb
            try:
                threading.excepthook(threading.ExceptHookArgs((type(e), e, tb, t)))
            except BaseException:  # noqa: BLE001
                pass
        _state[t] = "done"
        threading._active.pop(t._ident, None)
    finally:
        _running.pop()
        if outer is not None:
            threading._active[main_ident] = outer


def _run_pending(until=None, deadline=None):
    """Run started threads until `until()` holds or none is left; returns `until()`.
    `deadline`: when the waiting thread goes on anyway (threads it runs are preempted then)."""
    _deadlines.append(deadline)
    try:
        while _pending and not (until is not None and until()):
            _run(_pending.pop(0))
    finally:
        _deadlines.pop()
    return until() if until is not None else True


def _nap_until(end):
    """Nap until `end` (monotonic); an emulated thread is preempted at the deadline
    of a wait below it when that comes first."""
    bound = _below_deadline() if _running else None
    now = time.monotonic()
    if bound is not None and bound <= min(end, now):
        raise _Preempted
    if bound is not None and bound < end:
        _nap(bound - now)
        if time.monotonic() >= bound:
            raise _Preempted
        return
    _nap(max(0.0, end - now))


def _signal_may_wake():
    """A Python handler is set for some signal (besides Ctrl-C's default one)."""
    for s in signal.valid_signals():
        try:
            h = signal.getsignal(s)
        except (ValueError, OSError):
            continue
        if callable(h) and h is not signal.default_int_handler:
            return True
    return False


def _wait(ready, timeout, what):
    """Wait until `ready()`: run started threads, then sleep until the timeout
    (None: for ever) while signal handlers may make it ready."""
    end = None if timeout is None else time.monotonic() + max(0.0, timeout)
    if ready() or _run_pending(ready, end):
        return True
    if timeout is None:
        if _running:
            raise _Parked
        if not _signal_may_wake():
            raise RuntimeError(
                f"deadlock: {what} would wait forever (threads run one at a time in the sandbox "
                "and no started thread is left to run)"
            )
    while not ready():
        now = time.monotonic()
        left = _SIGNAL_CHECK if end is None else end - now
        if left <= 0:
            return False
        # A signal ends the nap and its handler runs at the next bytecodes; one that
        # runs just before the nap starts would be missed, hence the short naps.
        _nap_until(now + min(left, _SIGNAL_CHECK))
        _run_pending(ready, end)
    return True


class Lock:
    """threading.Lock for emulated threads (the waits above, no busy loop)."""

    __slots__ = ("_held", "__weakref__")

    def __init__(self):
        self._held = False

    def acquire(self, blocking=True, timeout=-1):
        if not blocking and timeout != -1:
            raise ValueError("can't specify a timeout for a non-blocking call")
        if timeout < 0 and timeout != -1:
            raise ValueError("timeout value must be a non-negative number")
        if self._held:
            if not blocking:
                return False
            if not _wait(lambda: not self._held, None if timeout == -1 else timeout, "acquiring a lock"):
                return False
        self._held = True
        return True

    acquire_lock = acquire

    def release(self):
        if not self._held:
            raise RuntimeError("release unlocked lock")
        self._held = False

    release_lock = release

    def locked(self):
        return self._held

    locked_lock = locked

    def __enter__(self):
        return self.acquire()

    def __exit__(self, *exc):
        self.release()

    def _at_fork_reinit(self):
        self._held = False

    def __repr__(self):
        return f"<{'locked' if self._held else 'unlocked'} _thread.lock object at {id(self):#x}>"


def _start(self):
    if not self._initialized:
        raise RuntimeError("thread.__init__() not called")
    if self._started.is_set() or self in _state:
        raise RuntimeError("threads can only be started once")
    if self._context is None:
        inherit = getattr(sys.flags, "thread_inherit_context", 0)
        self._context = contextvars.copy_context() if inherit else contextvars.Context()
    self._ident = threading.get_ident() + next(_idents)
    self._native_id = self._ident
    _state[self] = "pending"
    _pending.append(self)
    threading._active[self._ident] = self  # enumerate() and active_count() see it
    self._started.set()


def _join(self, timeout=None):
    if not self._initialized:
        raise RuntimeError("Thread.__init__() not called")
    if not self._started.is_set():
        raise RuntimeError("cannot join thread before it is started")
    if self is threading.current_thread():
        raise RuntimeError("cannot join current thread")
    if self not in _state:
        return
    if _state[self] == "preempted" and timeout is None:
        # It was looping with waits and would have ended (its stop flag is set by now).
        _state[self] = "done"
        threading._active.pop(self._ident, None)
        return
    _wait(lambda: _state[self] == "done", timeout, f"joining {self.name}")


_thread_is_alive = threading.Thread.is_alive


def _is_alive(self):
    if self in _state:
        return _state[self] != "done"
    return _thread_is_alive(self)


def _sleep_running_threads(secs):
    """time.sleep: in the main thread, started threads run meanwhile."""
    if not _pending and not _running:
        return _sleep(secs)
    if not isinstance(secs, (int, float)) or secs < 0:
        return _sleep(secs)  # its own TypeError/ValueError
    end = time.monotonic() + secs
    if _pending and not _running:
        # Only the main thread's sleep runs them: run from a thread's sleep, one that
        # waits for what that thread holds (a Semaphore, a Lock) would park for good.
        _run_pending(None, end)
    # Waits its whole time (a signal handler runs and the sleep goes on, PEP 475).
    while time.monotonic() < end:
        _nap_until(end)


def _queue_put(self, item, block=True, timeout=None):
    """queue.Queue.put: a blocking put on a full queue while other threads live
    puts its item anyway, past maxsize. On the one stack a consumer run from
    here would drain the queue and then park for good at its first empty get;
    run later (at a join), it sees every item in order."""
    if not block or self.maxsize <= 0 or not (_pending or _running):
        return _queue_put_one(self, item, block, timeout)
    if timeout is not None and timeout < 0:
        raise ValueError("'timeout' must be a non-negative number")
    with self.not_full:
        if getattr(self, "is_shutdown", False):
            raise sys.modules["queue"].ShutDown
        self._put(item)
        self.unfinished_tasks += 1
        self.not_empty.notify()


_queue_put_one = None


def shutdown():
    """At the end of the program, as CPython's threading._shutdown: started
    non-daemon threads run (daemon ones that never ran are dropped)."""
    for t in list(_pending):
        if not t.daemon and t in _pending:
            _pending.remove(t)
            _run(t)


class InlineThreadPool:
    """multiprocessing.pool.ThreadPool's interface; each task runs when given."""

    def __init__(self, processes=None, initializer=None, initargs=()):
        if processes is not None and processes < 1:
            raise ValueError("Number of processes must be at least 1")
        if initializer is not None and not callable(initializer):
            raise TypeError("initializer must be a callable")
        self._state = "RUN"
        if initializer is not None:
            initializer(*initargs)

    def _check(self):
        if self._state != "RUN":
            raise ValueError("Pool not running")

    def apply(self, func, args=(), kwds={}):
        self._check()
        return func(*args, **kwds)

    def map(self, func, iterable, chunksize=None):
        self._check()
        return [func(x) for x in iterable]

    def starmap(self, func, iterable, chunksize=None):
        self._check()
        return [func(*x) for x in iterable]

    def imap(self, func, iterable, chunksize=1):
        self._check()
        return (func(x) for x in list(iterable))

    imap_unordered = imap

    def _async(self, run, callback, error_callback):
        self._check()
        r = _AsyncResult()
        try:
            r._value, r._ok = run(), True
        except Exception as e:
            r._value, r._ok = e, False
        if r._ok and callback is not None:
            callback(r._value)
        if not r._ok and error_callback is not None:
            error_callback(r._value)
        return r

    def apply_async(self, func, args=(), kwds={}, callback=None, error_callback=None):
        return self._async(lambda: func(*args, **kwds), callback, error_callback)

    def map_async(self, func, iterable, chunksize=None, callback=None, error_callback=None):
        return self._async(lambda: [func(x) for x in iterable], callback, error_callback)

    def starmap_async(self, func, iterable, chunksize=None, callback=None, error_callback=None):
        return self._async(lambda: [func(*x) for x in iterable], callback, error_callback)

    def close(self):
        self._state = "CLOSE"

    def terminate(self):
        self._state = "TERMINATE"

    def join(self):
        if self._state == "RUN":
            raise ValueError("Pool is still running")

    def __enter__(self):
        self._check()
        return self

    def __exit__(self, *exc):
        self.terminate()


class _AsyncResult:
    _value = None
    _ok = False

    def ready(self):
        return True

    def successful(self):
        return self._ok

    def wait(self, timeout=None):
        pass

    def get(self, timeout=None):
        if self._ok:
            return self._value
        raise self._value


def _patch_pool(module):
    module.ThreadPool = InlineThreadPool


def _patch_context(module):
    # No processes: multiprocessing.Pool runs its tasks as ThreadPool does here
    # (in the caller; what they change is seen by the caller, unlike with processes).
    def Pool(self, processes=None, initializer=None, initargs=(), maxtasksperchild=None):
        return InlineThreadPool(processes, initializer, initargs)

    module.BaseContext.Pool = Pool


def _patch_dummy(module):
    module.Pool = lambda processes=None, initializer=None, initargs=(): InlineThreadPool(
        processes, initializer, initargs
    )


class _AfterImport:
    """Patches a module when it is first imported (nothing is imported early)."""

    patches = {
        "multiprocessing.pool": _patch_pool,
        "multiprocessing.dummy": _patch_dummy,
        "multiprocessing.context": _patch_context,
    }

    def find_spec(self, name, path=None, target=None):
        patch = self.patches.get(name)
        if patch is None:
            return None
        import importlib.machinery

        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is not None and spec.loader is not None:
            spec.loader = _PatchingLoader(spec.loader, patch)
        return spec


class _PatchingLoader:
    """The module's own loader (often shared by a whole zip), then the patch."""

    def __init__(self, loader, patch):
        self._loader, self._patch = loader, patch

    def __getattr__(self, name):
        return getattr(self._loader, name)

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        self._loader.exec_module(module)
        self._patch(module)


def install(nap, patches=None):
    """`patches`: more modules to patch when first imported (name -> function)."""
    global _sleep, _nap
    _sleep, _nap = time.sleep, nap
    time.sleep = _sleep_running_threads
    threading.Lock = threading._allocate_lock = Lock
    threading.Thread.start = _start
    threading.Thread.join = _join
    threading.Thread.is_alive = _is_alive
    import _threading_local
    import queue

    global _queue_put_one
    _queue_put_one = queue.Queue.put
    queue.Queue.put = _queue_put

    threading.local = _threading_local.local
    # Linux has native thread ids (Pyodide's threading leaves them out): the
    # main thread's is the pid, as on Linux; an emulated thread's, its ident.
    if not hasattr(threading.Thread, "native_id"):
        threading.Thread.native_id = property(lambda self: getattr(self, "_native_id", None))
        threading.get_native_id = lambda: threading.current_thread().native_id
    threading.main_thread()._native_id = os.getpid()
    _AfterImport.patches.update(patches or {})
    sys.meta_path.insert(0, _AfterImport())
