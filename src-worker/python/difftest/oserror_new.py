# The bare OSError picks its subclass from the errno (CPython's table), for every errno;
# C-raised errors keep theirs.
import errno, os
for name in sorted(errno.errorcode.values()):
    code = getattr(errno, name)
    e = OSError(code, "x")
    if type(e) is not OSError:
        print(name, code, type(e).__name__, e.errno, e.strerror, str(e))
print(type(OSError(errno.ENOENT, "x", "f")).__name__, str(OSError(errno.ENOENT, "x", "f")))
print(type(OSError(errno.ENOENT)).__name__)
print(type(IOError(errno.EACCES, "y")).__name__, type(EnvironmentError(errno.EEXIST, "z")).__name__)
print(type(FileNotFoundError(errno.EEXIST, "w")).__name__)
e = OSError(errno.EAGAIN, "a"); print(type(e).__name__, isinstance(e, BlockingIOError))
print(repr(OSError(errno.ETIMEDOUT, "t")), repr(OSError(2, "No such file or directory", "p", None, "q")))
print(os.strerror(errno.ENOENT), errno.ENOENT, errno.EWOULDBLOCK == errno.EAGAIN, errno.errorcode[2])
try:
    open("/nonexistent/x")
except OSError as e:
    print(type(e).__name__, e.errno, e)
class My(OSError): pass
print(type(My(errno.ENOENT, "m")).__name__)
import sys
print("ctypes" in sys.modules)
import ctypes
print(ctypes.sizeof(ctypes.c_int))
try:
    raise OSError(errno.ENOENT, "x")
except FileNotFoundError as e:
    print("caught", e)
try:
    os.stat("/nonexistent")
except FileNotFoundError as e:
    print("caught", e, e.errno)
try:
    os.mkdir("/tmp")
except FileExistsError as e:
    print("exists", e.errno, e)
e = OSError(errno.EEXIST, "made")
print(type(e).__name__)
import subprocess
try:
    subprocess.run(["/nonexistent-prog"])
except FileNotFoundError as e:
    print("sub", e)
