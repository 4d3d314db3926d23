# Linux errno numbers and texts, as a program on Linux sees them. Inside the
# interpreter's C code errno values are Emscripten's (WASI numbering: ENOENT
# is 44), and they stay so: the C library and CPython compare errno with
# those constants, and CPython picks an OSError's subclass from the number
# when C raises it (FileNotFoundError for 44). Python code sees Linux's:
# - the `errno` module's constants and `errorcode` are renumbered in place
#   (modules that imported it see the same object);
# - every OSError, when it is raised into a Python frame (sys.monitoring's
#   RAISE event), gets Linux's number and glibc's text in errno, strerror and
#   args: `str(e)` is `[Errno 2] No such file or directory: 'x'`, and
#   `e.errno == errno.ENOENT` holds;
# - os.strerror takes Linux numbers and gives glibc's texts.
# - the bare class picks its subclass by Linux's number when Python builds
#   it (`OSError(errno.ENOENT, "x")` is a FileNotFoundError) and by
#   Emscripten's when C raises it: CPython's errno -> subclass table (its
#   interpreter state, found at boot) has keys that tell the two apart by
#   C's errno, which holds the number only when C raises (see _Key).
# The shims keep raw kernel numbers apart (`wasi`, taken before renumbering)
# and build their errors with wasi_oserror.
import errno
import os

# name: (Linux number, glibc's strerror)
_LINUX = {
    "EPERM": (1, "Operation not permitted"),
    "ENOENT": (2, "No such file or directory"),
    "ESRCH": (3, "No such process"),
    "EINTR": (4, "Interrupted system call"),
    "EIO": (5, "Input/output error"),
    "ENXIO": (6, "No such device or address"),
    "E2BIG": (7, "Argument list too long"),
    "ENOEXEC": (8, "Exec format error"),
    "EBADF": (9, "Bad file descriptor"),
    "ECHILD": (10, "No child processes"),
    "EAGAIN": (11, "Resource temporarily unavailable"),
    "EWOULDBLOCK": (11, "Resource temporarily unavailable"),
    "ENOMEM": (12, "Cannot allocate memory"),
    "EACCES": (13, "Permission denied"),
    "EFAULT": (14, "Bad address"),
    "ENOTBLK": (15, "Block device required"),
    "EBUSY": (16, "Device or resource busy"),
    "EEXIST": (17, "File exists"),
    "EXDEV": (18, "Invalid cross-device link"),
    "ENODEV": (19, "No such device"),
    "ENOTDIR": (20, "Not a directory"),
    "EISDIR": (21, "Is a directory"),
    "EINVAL": (22, "Invalid argument"),
    "ENFILE": (23, "Too many open files in system"),
    "EMFILE": (24, "Too many open files"),
    "ENOTTY": (25, "Inappropriate ioctl for device"),
    "ETXTBSY": (26, "Text file busy"),
    "EFBIG": (27, "File too large"),
    "ENOSPC": (28, "No space left on device"),
    "ESPIPE": (29, "Illegal seek"),
    "EROFS": (30, "Read-only file system"),
    "EMLINK": (31, "Too many links"),
    "EPIPE": (32, "Broken pipe"),
    "EDOM": (33, "Numerical argument out of domain"),
    "ERANGE": (34, "Numerical result out of range"),
    "EDEADLK": (35, "Resource deadlock avoided"),
    "EDEADLOCK": (35, "Resource deadlock avoided"),
    "ENAMETOOLONG": (36, "File name too long"),
    "ENOLCK": (37, "No locks available"),
    "ENOSYS": (38, "Function not implemented"),
    "ENOTEMPTY": (39, "Directory not empty"),
    "ELOOP": (40, "Too many levels of symbolic links"),
    "ENOMSG": (42, "No message of desired type"),
    "EIDRM": (43, "Identifier removed"),
    "ECHRNG": (44, "Channel number out of range"),
    "EL2NSYNC": (45, "Level 2 not synchronized"),
    "EL3HLT": (46, "Level 3 halted"),
    "EL3RST": (47, "Level 3 reset"),
    "ELNRNG": (48, "Link number out of range"),
    "EUNATCH": (49, "Protocol driver not attached"),
    "ENOCSI": (50, "No CSI structure available"),
    "EL2HLT": (51, "Level 2 halted"),
    "EBADE": (52, "Invalid exchange"),
    "EBADR": (53, "Invalid request descriptor"),
    "EXFULL": (54, "Exchange full"),
    "ENOANO": (55, "No anode"),
    "EBADRQC": (56, "Invalid request code"),
    "EBADSLT": (57, "Invalid slot"),
    "EBFONT": (59, "Bad font file format"),
    "ENOSTR": (60, "Device not a stream"),
    "ENODATA": (61, "No data available"),
    "ETIME": (62, "Timer expired"),
    "ENOSR": (63, "Out of streams resources"),
    "ENONET": (64, "Machine is not on the network"),
    "ENOPKG": (65, "Package not installed"),
    "EREMOTE": (66, "Object is remote"),
    "ENOLINK": (67, "Link has been severed"),
    "EADV": (68, "Advertise error"),
    "ESRMNT": (69, "Srmount error"),
    "ECOMM": (70, "Communication error on send"),
    "EPROTO": (71, "Protocol error"),
    "EMULTIHOP": (72, "Multihop attempted"),
    "EDOTDOT": (73, "RFS specific error"),
    "EBADMSG": (74, "Bad message"),
    "EOVERFLOW": (75, "Value too large for defined data type"),
    "ENOTUNIQ": (76, "Name not unique on network"),
    "EBADFD": (77, "File descriptor in bad state"),
    "EREMCHG": (78, "Remote address changed"),
    "ELIBACC": (79, "Can not access a needed shared library"),
    "ELIBBAD": (80, "Accessing a corrupted shared library"),
    "ELIBSCN": (81, ".lib section in a.out corrupted"),
    "ELIBMAX": (82, "Attempting to link in too many shared libraries"),
    "ELIBEXEC": (83, "Cannot exec a shared library directly"),
    "EILSEQ": (84, "Invalid or incomplete multibyte or wide character"),
    "ERESTART": (85, "Interrupted system call should be restarted"),
    "ESTRPIPE": (86, "Streams pipe error"),
    "EUSERS": (87, "Too many users"),
    "ENOTSOCK": (88, "Socket operation on non-socket"),
    "EDESTADDRREQ": (89, "Destination address required"),
    "EMSGSIZE": (90, "Message too long"),
    "EPROTOTYPE": (91, "Protocol wrong type for socket"),
    "ENOPROTOOPT": (92, "Protocol not available"),
    "EPROTONOSUPPORT": (93, "Protocol not supported"),
    "ESOCKTNOSUPPORT": (94, "Socket type not supported"),
    "ENOTSUP": (95, "Operation not supported"),
    "EOPNOTSUPP": (95, "Operation not supported"),
    "EPFNOSUPPORT": (96, "Protocol family not supported"),
    "EAFNOSUPPORT": (97, "Address family not supported by protocol"),
    "EADDRINUSE": (98, "Address already in use"),
    "EADDRNOTAVAIL": (99, "Cannot assign requested address"),
    "ENETDOWN": (100, "Network is down"),
    "ENETUNREACH": (101, "Network is unreachable"),
    "ENETRESET": (102, "Network dropped connection on reset"),
    "ECONNABORTED": (103, "Software caused connection abort"),
    "ECONNRESET": (104, "Connection reset by peer"),
    "ENOBUFS": (105, "No buffer space available"),
    "EISCONN": (106, "Transport endpoint is already connected"),
    "ENOTCONN": (107, "Transport endpoint is not connected"),
    "ESHUTDOWN": (108, "Cannot send after transport endpoint shutdown"),
    "ETOOMANYREFS": (109, "Too many references: cannot splice"),
    "ETIMEDOUT": (110, "Connection timed out"),
    "ECONNREFUSED": (111, "Connection refused"),
    "EHOSTDOWN": (112, "Host is down"),
    "EHOSTUNREACH": (113, "No route to host"),
    "EALREADY": (114, "Operation already in progress"),
    "EINPROGRESS": (115, "Operation now in progress"),
    "ESTALE": (116, "Stale file handle"),
    "EUCLEAN": (117, "Structure needs cleaning"),
    "ENOTNAM": (118, "Not a XENIX named type file"),
    "ENAVAIL": (119, "No XENIX semaphores available"),
    "EISNAM": (120, "Is a named type file"),
    "EREMOTEIO": (121, "Remote I/O error"),
    "EDQUOT": (122, "Disk quota exceeded"),
    "ENOMEDIUM": (123, "No medium found"),
    "EMEDIUMTYPE": (124, "Wrong medium type"),
    "ECANCELED": (125, "Operation canceled"),
    "ENOKEY": (126, "Required key not available"),
    "EKEYEXPIRED": (127, "Key has expired"),
    "EKEYREVOKED": (128, "Key has been revoked"),
    "EKEYREJECTED": (129, "Key was rejected by service"),
    "EOWNERDEAD": (130, "Owner died"),
    "ENOTRECOVERABLE": (131, "State not recoverable"),
    "ERFKILL": (132, "Operation not possible due to RF-kill"),
    "EHWPOISON": (133, "Memory page has hardware error"),
}
# Where two names share a number, the one errno.errorcode gives on Linux.
_ERRORCODE = {11: "EAGAIN", 35: "EDEADLOCK", 95: "ENOTSUP"}

_strerror = os.strerror  # musl's texts for Emscripten's numbers
# Emscripten's numbers by name, as the C side and the kernel use them.
wasi = type(os)("_sandglass_wasi_errno")
_by_number = {}  # Emscripten number -> (Linux number, glibc's text)
_text = {}  # Linux number -> glibc's text


def _tables():
    if _by_number:
        return
    for name in dir(errno):
        if name.startswith("E"):
            setattr(wasi, name, getattr(errno, name))
    for name, (num, text) in _LINUX.items():
        own = getattr(errno, name, None)
        if own is not None and own not in _by_number:
            _by_number[own] = (num, text)
        _text.setdefault(num, text)


def linux_errno(n):
    """The Linux number of Emscripten's errno `n` (unknown numbers unchanged)."""
    _tables()
    t = _by_number.get(n)
    return t[0] if t else n


def strerror(code):
    """os.strerror for Linux numbers: glibc's texts."""
    code = code.__index__()
    _tables()
    return _text.get(code) or f"Unknown error {code}"


def to_linux(e):
    """Give OSError `e`, as C made it (Emscripten's number and musl's text), Linux's."""
    n = e.errno
    if type(n) is not int:
        return
    t = _by_number.get(n)
    if t is None or e.strerror != _strerror(n):
        return  # Linux's already (or a program's own text)
    num, text = t
    args = e.args
    e.errno, e.strerror = num, text
    if len(args) >= 2 and args[0] == n:
        e.args = (num, text) + args[2:]


# CPython's errno -> OSError subclass table on Linux (Objects/exceptions.c).
_SUBCLASS = {
    "EAGAIN": BlockingIOError,
    "EALREADY": BlockingIOError,
    "EINPROGRESS": BlockingIOError,
    "EWOULDBLOCK": BlockingIOError,
    "EPIPE": BrokenPipeError,
    "ESHUTDOWN": BrokenPipeError,
    "ECHILD": ChildProcessError,
    "ECONNABORTED": ConnectionAbortedError,
    "ECONNREFUSED": ConnectionRefusedError,
    "ECONNRESET": ConnectionResetError,
    "EEXIST": FileExistsError,
    "ENOENT": FileNotFoundError,
    "EISDIR": IsADirectoryError,
    "ENOTDIR": NotADirectoryError,
    "EINTR": InterruptedError,
    "EACCES": PermissionError,
    "EPERM": PermissionError,
    "ESRCH": ProcessLookupError,
    "ETIMEDOUT": TimeoutError,
}
_c_subclass = {}  # Emscripten number -> subclass, as C's table has them


class _Key:
    """A key of CPython's errno -> subclass table for a number whose subclass
    differs between Emscripten's numbering (C raising, errno holds the number)
    and Linux's (Python code building an OSError). Dict lookups compare the
    stored key with the number: __eq__ decides which entry applies."""

    cell = None  # C's errno (a ctypes c_int at its address)
    active = False  # Linux numbering is on (install ran)

    __slots__ = ("n", "from_c")

    def __init__(self, n, from_c):
        self.n, self.from_c = n, from_c

    def __hash__(self):
        return hash(self.n)

    def __eq__(self, other):
        if type(other) is not int or other != self.n:
            return NotImplemented if type(other) is not int else False
        if not _Key.active:
            return self.from_c
        raised_by_c = _Key.cell.value == other
        return raised_by_c if self.from_c else not raised_by_c


def prepare():
    """At boot (so the memory snapshot keeps it): rewrite CPython's errno ->
    subclass table with _Key entries where the two numberings disagree.
    Returns _Key (install turns it on), or None where the table is not found."""
    import ctypes
    import gc
    import sys

    table = None
    for d in gc.get_referrers(FileNotFoundError):
        if type(d) is dict and d.get(errno.ENOENT) is FileNotFoundError and d.get(errno.EACCES) is PermissionError:
            table = d
            break
    if table is None or errno.ENOENT == 2:
        return None
    # Rewritten already (a snapshot made from other realm sources compiles the shims again at boot).
    for k in table:
        if type(k) is not int:
            return type(k)
    loc = ctypes.CDLL(None).__errno_location
    loc.restype = ctypes.POINTER(ctypes.c_int)
    _Key.cell = ctypes.c_int.from_address(ctypes.addressof(loc().contents))
    # A program starts without ctypes imported, as in CPython (the cell keeps what it needs).
    for name in [m for m in sys.modules if m == "ctypes" or m.startswith(("ctypes.", "_ctypes"))]:
        del sys.modules[name]
    # C's own entries (the table may be one an earlier boot of this code
    # prepared: a snapshot's, when the shims are compiled afresh at boot).
    c_side = {}
    for k, v in table.items():
        if type(k) is int:
            c_side[k] = v
        elif getattr(k, "from_c", False):
            c_side[k.n] = v
    py_side = {}
    for name, cls in _SUBCLASS.items():
        py_side[_LINUX[name][0]] = cls
    table.clear()
    for n in sorted(set(c_side) | set(py_side)):
        c, py = c_side.get(n), py_side.get(n)
        if c is py:
            table[n] = c
            continue
        if c is not None:
            table[_Key(n, True)] = c
        if py is not None:
            table[_Key(n, False)] = py
    return _Key


def wasi_oserror(n, message):
    """OSError for Emscripten's errno `n` (a shim's kernel answer), with the
    subclass C would give it; raised, it gets Linux's number (to_linux)."""
    _tables()
    if not _c_subclass:
        for name, cls in _SUBCLASS.items():
            if hasattr(wasi, name):
                _c_subclass[getattr(wasi, name)] = cls
    return _c_subclass.get(n, OSError)(n, message)


_TOOL = 4  # sys.monitoring tool id (0-2 and 5 are the debugger's, coverage's, profiler's, optimizer's)


def _errno_args_to_linux(exc):
    """An error C made from errno that is no OSError (float's `**` overflow is
    `OverflowError(34, 'Numerical result out of range')` on Linux)."""
    args = exc.args
    if len(args) == 2 and type(args[0]) is int:
        _tables()
        t = _by_number.get(args[0])
        if t is not None and args[1] == _strerror(args[0]):
            exc.args = t


def _on_raise(code, offset, exc):
    if isinstance(exc, ArithmeticError):
        _errno_args_to_linux(exc)
    elif isinstance(exc, OSError):
        to_linux(exc)
        if _Key.cell is not None:
            # C's errno stays as its last failure left it: a later OSError built
            # from Python must not take that number for a C raise (_Key).
            _Key.cell.value = 0


def _renumber_copies(sys):
    """Modules the boot imported that copied errno's numbers (`from errno import *`,
    socket's EBADF/EAGAIN, subprocess's ECHILD) get Linux's too."""
    holders = []
    for name in ("pathlib", "pathlib._os", "socket", "subprocess"):
        m = sys.modules.get(name)
        if m is not None:
            holders.append(m)
            if name == "subprocess" and hasattr(m, "_del_safe"):
                holders.append(m._del_safe)
    for m in holders:
        d = vars(m)
        for name, (num, _) in _LINUX.items():
            if name in d and d[name] == getattr(wasi, name, None):
                setattr(m, name, num)
    socket = sys.modules.get("socket")
    if socket is not None and hasattr(socket, "_blocking_errnos"):
        socket._blocking_errnos = {socket.EAGAIN, socket.EWOULDBLOCK}


def install(keys=None):
    """Renumber the errno module and watch raised OSErrors (once per interpreter).
    `keys`: what prepare() returned at boot."""
    import sys

    _tables()
    if errno.ENOENT == 2:
        return
    global _Key
    if keys is not None:
        _Key = keys  # the class the table's keys are instances of (this module is a fresh exec)
        keys.active = True
    renamed = {}
    for name in list(vars(errno)):
        if not name.startswith("E"):
            continue
        linux = _LINUX.get(name)
        if linux is None:
            delattr(errno, name)  # no such error on Linux (ENOTCAPABLE)
        else:
            setattr(errno, name, linux[0])
            renamed.setdefault(linux[0], name)
    errno.errorcode.clear()
    errno.errorcode.update(renamed)
    errno.errorcode.update(_ERRORCODE)
    os.strerror = strerror
    _renumber_copies(sys)
    mon = sys.monitoring
    mon.use_tool_id(_TOOL, "sandglass")
    mon.register_callback(_TOOL, mon.events.RAISE, _on_raise)
    mon.set_events(_TOOL, mon.events.RAISE)
