# The python3 command line, run inside a fresh interpreter for one process.
# Parses CPython's options, sets argv/env/cwd/stdio as the process has them,
# runs the code as __main__, and returns the exit status as CPython would.
# Frames of this file never appear in tracebacks shown to the user.
import os
import sys

USAGE = """usage: python3 [option] ... [-c cmd | -m mod | file | -] [arg] ...
Options (and corresponding environment variables):
-B     : don't write .pyc files on import
-c cmd : program passed in as string (terminates option list)
-E     : ignore PYTHON* environment variables (such as PYTHONPATH)
-h     : print this help message and exit (also -? or --help)
-i     : inspect interactively after running script
-I     : isolate Python from the user's environment (implies -E and -s)
-m mod : run library module as a script (terminates option list)
-q     : don't print version and copyright messages on interactive startup
-s     : don't add user site directory to sys.path
-S     : don't imply 'import site' on initialization
-u     : force the stdout and stderr streams to be unbuffered
-V     : print the Python version number and exit (also --version)
-W arg : warning control
-X opt : set implementation-specific option
file   : program read from script file
-      : program read from stdin (default; interactive mode if a tty)
arg ...: arguments passed to program in sys.argv[1:]
"""


class _Usage(Exception):
    pass


def _parse(argv):
    """CPython's option scan: returns (opts, mode, target, rest)."""
    opts = {"u": False, "E": False, "I": False, "B": False, "q": False, "i": False, "W": [], "X": []}
    i = 1
    while i < len(argv):
        a = argv[i]
        if a == "--":
            i += 1
            break
        if a in ("--help", "-h", "-?"):
            return opts, "help", None, []
        if a == "--version":
            return opts, "version", None, []
        if not a.startswith("-") or a == "-":
            break
        j = 1
        while j < len(a):
            c = a[j]
            if c in "cmWX":
                val = a[j + 1 :]
                if not val:
                    i += 1
                    if i >= len(argv):
                        raise _Usage(f"Argument expected for the -{c} option")
                    val = argv[i]
                if c == "c":
                    return opts, "c", val, argv[i + 1 :]
                if c == "m":
                    return opts, "m", val, argv[i + 1 :]
                opts[c].append(val)
                break
            if c == "V":
                return opts, "version", None, []
            if c in ("h", "?"):
                return opts, "help", None, []
            if c == "O":
                opts["O"] = opts.get("O", 0) + 1
            elif c in "uEIBqisSdvbRP":
                opts[c] = True
            else:
                raise _Usage(f"Unknown option: -{c}")
            j += 1
        i += 1
    if i < len(argv) and argv[i] != "-":
        return opts, "file", argv[i], argv[i + 1 :]
    if i < len(argv):
        return opts, "stdin", "-", argv[i + 1 :]
    return opts, "stdin", None, []


def _user_tb(tb):
    """Skip our frames and runpy's, as CPython shows a script's error."""
    import runpy

    skip = {"<sandglass>", "<exec>", getattr(runpy, "__file__", None), "<frozen runpy>"}
    while tb is not None and tb.tb_frame.f_code.co_filename in skip:
        tb = tb.tb_next
    return tb


# The errno translation (linuxErrno.py) and the thread emulation (threadShim.py), installed with the shims.
_linux = None
_threads = None


def _flush_io():
    """CPython's flush_io: before it reports how a script file or stdin ended
    (-c and -m report first; stdout's buffer comes out at exit)."""
    for f in (sys.stderr, sys.stdout):
        try:
            f.flush()
        except Exception:
            pass


def _report(e, module_mode=False):
    import traceback

    if sys.excepthook is not sys.__excepthook__:
        # A program's own hook sees the uncaught exception, as in CPython.
        try:
            sys.excepthook(type(e), e, _user_tb(e.__traceback__))
            return
        except BaseException as hook_error:  # noqa: BLE001
            sys.stderr.write("Error in sys.excepthook:\n")
            sys.stderr.write("".join(traceback.format_exception(hook_error)))
            sys.stderr.write("\nOriginal exception was:\n")
    if sys.stderr is None:
        return  # stderr closed at start (`2>&-`): CPython's report goes nowhere
    te = traceback.TracebackException(type(e), e, _user_tb(e.__traceback__))
    # Our shims (time.sleep, subprocess) stand for C functions: no frames of theirs either.
    te.stack = traceback.StackSummary.from_list([f for f in te.stack if f.filename != "<sandglass>"])
    if module_mode:
        # `-m`: CPython shows its frozen runpy's two frames first.
        import runpy

        runpy_frames = []
        tb = e.__traceback__
        while tb is not None:
            code = tb.tb_frame.f_code
            if code.co_filename in (runpy.__file__, "<frozen runpy>") and code.co_name in ("_run_module_as_main", "_run_code"):
                runpy_frames.append(
                    traceback.FrameSummary("<frozen runpy>", tb.tb_lineno, code.co_name, lookup_line=False, line="")
                )
            tb = tb.tb_next
        te.stack = traceback.StackSummary.from_list(runpy_frames + list(te.stack))
    sys.stderr.write("".join(te.format()))


def _hide_shim_frames():
    """Tracebacks the program formats itself (traceback, logging, the REPL) show no
    frames of our shims either: they stand for C functions."""
    import traceback

    extract = traceback.StackSummary._extract_from_extended_frame_gen.__func__

    def user_frames(klass, frame_gen, **kw):
        return extract(klass, ((f, at) for f, at in frame_gen if f.f_code.co_filename != "<sandglass>"), **kw)

    traceback.StackSummary._extract_from_extended_frame_gen = classmethod(user_frames)


def _tty_input():
    """builtins.input on the terminal reads sys.stdin, as it does off the terminal:
    the C stdio line reader Pyodide's input() uses there never sees Ctrl-D's EOF."""
    import builtins

    builtin = builtins.input

    def input(prompt="", /):
        stdin, stdout = sys.stdin, sys.stdout
        try:
            tty = stdin.fileno() == 0 and stdout.fileno() == 1 and os.isatty(0) and os.isatty(1)
        except Exception:
            tty = False
        if not tty:
            return builtin(prompt)
        if sys.stderr is not None:
            sys.stderr.flush()
        stdout.write(str(prompt))
        stdout.flush()
        line = stdin.readline()
        if not line:
            raise EOFError
        return line[:-1] if line.endswith("\n") else line

    input.__module__, input.__doc__ = "builtins", builtin.__doc__
    builtins.input = input


def _exit_status(e):
    code = e.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    try:
        if sys.stderr is not None:
            print(code, file=sys.stderr)
    except Exception:
        pass
    return 1


def _stdio_codec(ioencoding):
    """(encoding, errors) of stdin/stdout as CPython takes them from PYTHONIOENCODING."""
    import codecs

    enc, _, errors = (ioencoding or "").partition(":")
    if enc:
        # An unknown name is a LookupError here; CPython stops at start for it too.
        return codecs.lookup(enc).name, errors or "strict"
    return sys.stdout.encoding, errors or sys.stdout.errors


def _setup_streams(job, unbuffered, ioencoding):
    import io

    tty_out = job["isatty"][1]
    enc, errors = _stdio_codec(ioencoding)
    if ioencoding:
        sys.stdin.reconfigure(encoding=enc, errors=errors)
    if unbuffered:
        sys.stdout = io.TextIOWrapper(open(1, "wb", 0, closefd=False), encoding=enc, errors=errors, write_through=True)
        sys.stderr = io.TextIOWrapper(
            open(2, "wb", 0, closefd=False), encoding=enc, errors="backslashreplace", write_through=True
        )
    else:
        # Block-buffered when not a terminal (one write, not one per line), as CPython.
        sys.stdout.reconfigure(line_buffering=tty_out, encoding=enc, errors=errors)
        if ioencoding:
            sys.stderr.reconfigure(encoding=enc, errors="backslashreplace")
    for name, is_open in zip(("stdin", "stdout", "stderr"), job.get("stdio", (True, True, True))):
        if not is_open:
            setattr(sys, name, None)  # as CPython for a descriptor closed at start (`>&-`)
    sys.__stdout__ = sys.stdout
    sys.__stderr__ = sys.stderr
    sys.__stdin__ = sys.stdin


class _Flags(tuple):
    """sys.flags as the command line set them (the snapshot froze the boot's)."""

    _fields = ()

    def __repr__(self):
        return "sys.flags(" + ", ".join(f"{n}={v!r}" for n, v in zip(self._fields, self)) + ")"


def _xoptions(opts, ignore_env):
    """sys._xoptions from -X (and the PYTHON* variables CPython reads for some)."""
    xo = {}
    for x in opts["X"]:
        name, eq, value = x.partition("=")
        xo[name] = value if eq else True
    sys._xoptions.clear()
    sys._xoptions.update(xo)
    env = {} if ignore_env else os.environ
    utf8 = xo.get("utf8", env.get("PYTHONUTF8") or None)
    dev = "dev" in xo or bool(env.get("PYTHONDEVMODE"))
    opt = opts.get("O", 0)
    if not opt and env.get("PYTHONOPTIMIZE"):
        v = env["PYTHONOPTIMIZE"]
        opt = int(v) if v.isdigit() else 1
    opts["O"] = opt
    flags = {"utf8_mode": 0 if utf8 in (None, "0") else 1, "dev_mode": dev, "optimize": opt}
    digits = _int_max_str_digits(env.get("PYTHONINTMAXSTRDIGITS"), xo.get("int_max_str_digits"))
    if digits is not None:
        sys.set_int_max_str_digits(digits)
        flags["int_max_str_digits"] = digits
    return flags


class _InitError(Exception):
    """A setting CPython's start-up refuses ("Fatal Python error: <where>: <message>")."""


def _int_max_str_digits(env_value, x_value):
    """The int/str conversion limit from PYTHONINTMAXSTRDIGITS, then -X
    int_max_str_digits (which wins), checked as CPython's start-up does."""
    digits = None
    for where, value in (("PYTHONINTMAXSTRDIGITS", env_value), ("-X int_max_str_digits", x_value)):
        if value is None:
            continue
        text = value.lstrip() if isinstance(value, str) else ""  # strtol's form: spaces, a sign, digits
        unsigned = text[1:] if text[:1] in ("+", "-") else text
        n = int(text) if unsigned.isdigit() else -1
        if n != 0 and n < 640:
            raise _InitError(
                f"config_init_int_max_str_digits: {where}: invalid limit; must be >= 640 or 0 for unlimited."
            )
        digits = n
    return digits


def _set_flags(opts, more):
    changes = dict(more)
    if opts["I"]:
        changes.update(isolated=1, ignore_environment=1, no_user_site=1, safe_path=True)
    # Only the options the driver acts on (-v, -b, -d, -S are accepted but do nothing here).
    for opt, name in (("E", "ignore_environment"), ("B", "dont_write_bytecode"), ("q", "quiet"),
                      ("s", "no_user_site")):
        if opts.get(opt):
            changes[name] = 1
    if opts["i"]:
        changes.update(inspect=1, interactive=1)
    if opts.get("P"):
        changes["safe_path"] = True
    old = sys.flags
    names = type(old).__match_args__
    if not any(getattr(old, n) != v for n, v in changes.items()):
        return
    cls = type("flags", (_Flags,), {"_fields": names, "__module__": "sys", "__slots__": ()})
    for i, n in enumerate(names):
        setattr(cls, n, property(lambda self, i=i: self[i]))
    sys.flags = cls(changes.get(n, getattr(old, n)) for n in names)


def _banner():
    return (
        f"Python {sys.version} on {sys.platform}\n"
        'Type "help", "copyright", "credits" or "license" for more information.'
    )


def _run_startup():
    """$PYTHONSTARTUP in __main__ before the REPL, as CPython's pymain_run_startup
    (an error in it is reported and the REPL starts anyway)."""
    path = None if sys.flags.ignore_environment else os.environ.get("PYTHONSTARTUP")
    if not path:
        return
    try:
        with open(path, "rb") as f:
            code = compile(f.read(), path, "exec")
    except OSError as e:
        print(f"Could not open PYTHONSTARTUP\n{type(e).__name__}: {e}", file=sys.stderr)
        return
    except SyntaxError as e:
        _report(e)
        return
    try:
        exec(code, sys.modules["__main__"].__dict__)
    except SystemExit:
        raise
    except BaseException as e:  # noqa: BLE001
        _report(e)


def _interact(quiet, startup=False):
    """CPython 3.13+'s REPL on a terminal: _pyrepl (line editing, history, multi-line
    blocks), over the kernel's termios (kernelShim.py); the basic REPL with
    PYTHON_BASIC_REPL or where pyrepl cannot drive the terminal."""
    import code

    sys.ps1 = ">>> "
    sys.ps2 = "... "
    basic = not sys.flags.ignore_environment and os.environ.get("PYTHON_BASIC_REPL")
    if not quiet:
        print(_banner(), file=sys.stderr)
    if startup:
        _run_startup()
    if not basic:
        from _pyrepl import main as pyrepl

        if pyrepl.CAN_USE_PYREPL:
            pyrepl.interactive_console(sys.modules["__main__"])
            return
        print(pyrepl.FAIL_REASON, file=sys.stderr)

    class Console(code.InteractiveConsole):
        # Lines come from the terminal's line discipline (erase, kill, Ctrl-D);
        # an empty read is end of input.
        def raw_input(self, prompt=""):
            sys.stdout.write(prompt)
            sys.stdout.flush()
            line = sys.stdin.readline()
            if not line:
                raise EOFError
            return line.rstrip("\n")

    Console(locals=sys.modules["__main__"].__dict__).interact(banner="", exitmsg="")


def _fresh_main():
    import types

    m = types.ModuleType("__main__")
    import builtins

    m.__dict__["__builtins__"] = builtins
    sys.modules["__main__"] = m
    return m


def _executable(default, argv0):
    """sys.executable as CPython finds it from argv[0] (`python` is /usr/bin/python)."""
    name = os.path.basename(argv0)
    if not name.startswith("python"):
        return default
    if "/" in argv0:
        return os.path.abspath(argv0)
    return os.path.join(os.path.dirname(default), name)


def _run_file(target, path, main_mod, optimize=-1):
    """Run a script file as __main__ (directories and zips through runpy)."""
    import runpy
    from pkgutil import get_importer

    if get_importer(path) is not None:
        runpy.run_path(target, run_name="__main__")
        return
    # In the real __main__, with __file__ and traceback paths absolute
    # (CPython 3.9+), sys.argv[0] as typed.
    import importlib.machinery

    if optimize == -1:
        code = runpy._get_code_from_file(path)
    else:
        import io

        with io.open_code(path) as f:
            code = compile(f.read(), path, "exec", optimize=optimize)
    main_mod.__dict__.update(
        __file__=path,
        __cached__=None,
        __loader__=importlib.machinery.SourceFileLoader("__main__", path),
    )
    exec(code, main_mod.__dict__)


def _unhook_logging():
    """The boot imported logging (asyncio does), which registered its atexit
    shutdown; a CPython program that never used logging has no such hook,
    and its flush of stderr would put stderr's last partial line before
    stdout's buffer. The driver calls it after the atexit functions when the
    program made handlers."""
    logging = sys.modules.get("logging")
    if logging is not None:
        import atexit

        atexit.unregister(logging.shutdown)


def _logging_shutdown():
    logging = sys.modules.get("logging")
    if logging is not None and any(r() is not logging.lastResort for r in logging._handlerList):
        logging.shutdown()


def _finalize(main_mod):
    """What a program sees of CPython's finalize_modules: the globals of its
    own modules (last imported first, then __main__'s) are set to None, so
    objects only they hold are freed: `__del__` methods run and files left
    open are flushed and closed, as when CPython exits. The standard
    library's modules stay (the shims and the exit path use them)."""
    import gc

    mods = [m for n, m in reversed(list(sys.modules.items())) if n != "__main__" and _own_module(m)]
    for m in mods + [main_mod]:
        d = getattr(m, "__dict__", None)
        if d is None:
            continue
        # _PyModule_ClearDict's order: names with one leading underscore first.
        for first in (True, False):
            for k in list(d):
                if isinstance(k, str) and k != "__builtins__" and k.startswith("_") == first:
                    try:
                        d[k] = None
                    except Exception:
                        pass
    # Young cycles among what was just released (older generations: 0.5-2 ms more per exit).
    gc.collect(0)


def _own_module(m):
    f = getattr(m, "__file__", None)
    return isinstance(f, str) and not f.startswith("/lib/")


def _hide_depth(extra):
    """The program's first frame counts as depth 1 for the recursion limit, as
    in CPython: the limit is raised by the frames of the driver and Pyodide
    under it (plus `extra` of the driver between here and the program), and
    sys.getrecursionlimit/setrecursionlimit give and take the program's number."""
    depth = extra
    f = sys._getframe(1)
    while f is not None:
        depth += 1
        f = f.f_back
    get, set_ = sys.getrecursionlimit, sys.setrecursionlimit

    def getrecursionlimit():
        return get() - depth

    def setrecursionlimit(limit):
        if type(limit) is int and limit >= 1:
            limit += depth
        set_(limit)

    getrecursionlimit.__doc__, setrecursionlimit.__doc__ = get.__doc__, set_.__doc__
    set_(get() + depth)
    sys.getrecursionlimit, sys.setrecursionlimit = getrecursionlimit, setrecursionlimit


def _install_shims(boot, pids):
    global _linux, _threads
    from _pyodide._importhook import jsfinder

    _linux = {"__name__": "_sandglass_linux_errno"}
    exec(boot.errno, _linux)
    kernel = {"__name__": "_sandglass_kernel_shim"}
    exec(boot.shim, kernel)
    kernel["_oserror"] = _linux["wasi_oserror"]
    kernel["install"](jsfinder.jsproxies.pop("_sandglass_kernel"), pids)
    stdlib = {"__name__": "_sandglass_stdlib_shim"}
    exec(boot.stdlib, stdlib)
    stdlib["install"]()
    _threads = {"__name__": "_sandglass_thread_shim"}
    exec(boot.threads, _threads)
    _threads["install"](kernel["nap"], {"concurrent.futures.process": stdlib["patch_process_pool"]})
    net = {"__name__": "_sandglass_net_shim"}
    exec(boot.net, net)
    net["install"](jsfinder.jsproxies.pop("_sandglass_net"), kernel["errno_error"])
    # Last: the shims above took the Emscripten numbers they compare kernel answers with.
    _linux["install"](getattr(boot, "oserror_keys", None))
    _name_shims()


def _name_shims():
    """Shims are pickled by reference, by the name of the function they stand for
    (`pickle.dumps(os.system)` works as in CPython)."""
    import fcntl
    import select
    import signal
    import subprocess
    import termios
    import time

    for mod in (os, time, signal, select, termios, fcntl, subprocess):
        for name, f in list(vars(mod).items()):
            code = getattr(f, "__code__", None)
            if code is not None and code.co_filename == "<sandglass>" and not name.startswith("_"):
                f.__module__, f.__qualname__ = mod.__name__, name


def main(boot, job):
    """`boot`: the driver's and shims' code compiled at boot; `job`: the process."""
    argv = job["argv"]
    os.environ.clear()
    os.environ.update(job["env"])
    _install_shims(boot, job["pids"])
    import faulthandler

    # Pyodide's boot turned it on; CPython starts with it off (-X faulthandler below).
    faulthandler.disable()
    _unhook_logging()
    if job.get("sigintIgnored"):
        import signal

        signal.signal(signal.SIGINT, signal.SIG_IGN)
    _hide_shim_frames()
    if job["isatty"][0]:
        _tty_input()
    # Pyodide installs traceback.print_exception; CPython starts with its own hook.
    sys.excepthook = sys.__excepthook__
    # The interpreter may come from a memory snapshot: what seeded itself at
    # boot is seeded again, from the kernel's /dev/urandom.
    if "random" in sys.modules:
        sys.modules["random"].seed()
    try:
        opts, mode, target, rest = _parse(argv)
    except _Usage as u:
        print(f"{u}\n{USAGE.splitlines()[0]}\nTry `python -h' for more information.", file=sys.stderr)
        return 2
    if mode == "version":
        v = sys.version_info
        print(f"Python {v.major}.{v.minor}.{v.micro}")
        return 0
    if mode == "help":
        print(USAGE, end="")
        return 0
    isolated = opts["I"]
    ignore_env = opts["E"] or isolated
    # Imports of the program's own modules write __pycache__ as CPython's do (the boot wrote none).
    no_pyc = bool(opts["B"] or (not ignore_env and os.environ.get("PYTHONDONTWRITEBYTECODE")))
    sys.dont_write_bytecode = no_pyc
    unbuffered = opts["u"] or (not ignore_env and bool(os.environ.get("PYTHONUNBUFFERED")))
    ioencoding = None if ignore_env else os.environ.get("PYTHONIOENCODING")
    try:
        _setup_streams(job, unbuffered, ioencoding)
    except LookupError as e:
        print(
            "Fatal Python error: init_stdio_encoding: failed to get the Python codec name of the stdio encoding\n"
            f"Python runtime state: core initialized\nLookupError: {e}",
            file=sys.stderr,
        )
        return 1
    try:
        more_flags = _xoptions(opts, ignore_env)
    except _InitError as e:
        print(f"Fatal Python error: {e}\nPython runtime state: preinitialized\n", file=sys.stderr)
        return 1
    _set_flags(opts, {**more_flags, "dont_write_bytecode": int(no_pyc)})
    if sys.flags.dev_mode:
        import warnings

        warnings.simplefilter("default")
    if sys.flags.dev_mode or "faulthandler" in sys._xoptions or (not ignore_env and os.environ.get("PYTHONFAULTHANDLER")):
        try:
            import faulthandler

            faulthandler.enable()
        except Exception:
            pass
    # -O: asserts and `if __debug__` go from the main program (imports keep theirs).
    optimize = opts["O"] or -1
    sys.executable = sys._base_executable = _executable(job["executable"], argv[0] if argv else "")
    sys.orig_argv = list(argv)
    if opts["W"]:
        import warnings

        for w in opts["W"]:
            sys.warnoptions.append(w)
        warnings._processoptions(opts["W"])
    # sys.path: the stdlib entries stay; the first entry is the script's directory (or cwd).
    base = [p for p in sys.path if p.startswith("/lib/")]
    extra = []
    if not ignore_env and os.environ.get("PYTHONPATH"):
        extra = [p for p in os.environ["PYTHONPATH"].split(":") if p]
    first = []
    safe_path = isolated or opts.get("P") or (not ignore_env and bool(os.environ.get("PYTHONSAFEPATH")))
    if not safe_path:
        if mode == "file":
            first = [os.path.dirname(os.path.abspath(target))]
        else:
            first = [os.getcwd() if mode == "m" else ""]
    sys.path[:] = first + extra + base
    # Finders of sandbox directories (none in a fresh interpreter, but the
    # snapshot's boot may have made some) would hold stale listings. Not
    # importlib.invalidate_caches(): it imports importlib.metadata (~20 ms).
    for p in [p for p in sys.path_importer_cache if not p.startswith("/lib/")]:
        del sys.path_importer_cache[p]
    main_mod = _fresh_main()
    _hide_depth(1 if mode == "file" else 0)
    status = 0
    flush_first = mode in ("file", "stdin")
    try:
        if mode == "c":
            sys.argv = ["-c"] + list(rest)
            code = compile(target, "<string>", "exec", optimize=optimize)
            # CPython 3.13+ keeps -c's source for tracebacks (gh-67224).
            import linecache

            linecache._register_code(code, target, "<string>")
            exec(code, main_mod.__dict__)
        elif mode == "m":
            import runpy

            sys.argv = [target] + list(rest)
            runpy._run_module_as_main(target, alter_argv=True)
        elif mode == "file":
            import runpy

            sys.argv = [target] + list(rest)
            path = os.path.abspath(target)
            try:
                _run_file(target, path, main_mod, optimize)
            except OSError as e:
                if e.filename in (target, path) or not os.path.exists(target):
                    name = os.path.basename(argv[0]) or "python3"
                    print(
                        f"{name}: can't open file {os.path.abspath(target)!r}: [Errno {e.errno}] {e.strerror}",
                        file=sys.stderr,
                    )
                    return 2
                raise
        else:
            sys.argv = [target or ""] + list(rest)
            if target is None and job["isatty"][0]:
                _interact(opts["q"], startup=True)
            else:
                src = sys.stdin.read()
                exec(compile(src, "<stdin>", "exec", optimize=optimize), main_mod.__dict__)
        if opts["i"] and job["isatty"][0]:
            _interact(True)
    except SystemExit as e:
        if flush_first:
            _flush_io()
        status = _exit_status(e)
    except KeyboardInterrupt as e:
        if flush_first:
            _flush_io()
        _report(e, mode == "m")
        # CPython ends itself with SIGINT (the realm does: 130 in a shell).
        status = -2
    except BaseException as e:  # noqa: BLE001  (CPython reports every uncaught exception)
        if flush_first:
            _flush_io()
        _report(e, mode == "m")
        status = 1
    try:
        # As CPython's threading._shutdown: started non-daemon threads end first.
        _threads["shutdown"]()
    except SystemExit as e:
        _flush_io()
        status = _exit_status(e)
    except BaseException as e:  # noqa: BLE001
        _flush_io()
        _report(e, mode == "m")
        status = 1
    try:
        import atexit

        atexit._run_exitfuncs()
        _logging_shutdown()
    except BaseException:
        pass
    for s in (sys.stdout, sys.stderr):
        try:
            if s is not None and not s.closed:
                s.flush()
        except Exception as e:
            if status != 0:
                # After an error report stdout's buffer is left as it was: nothing more to say.
                continue
            status = 120
            if s is sys.stdout:
                # CPython 3.14's words for it (an unraisable exception at shutdown).
                import traceback

                try:
                    sys.stderr.write("Exception ignored while flushing sys.stdout:\n")
                    sys.stderr.write("".join(traceback.format_exception_only(e)))
                    sys.stderr.flush()
                except Exception:
                    pass
    try:
        _finalize(main_mod)
    except BaseException:  # noqa: BLE001
        pass
    for s in (sys.__stdout__, sys.__stderr__):
        try:
            if s is not None and not s.closed:
                s.flush()
        except Exception:
            pass
    return status
