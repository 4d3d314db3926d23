# The process as Python sees it: environment, cwd, umask, ids, argv, signals, time.
import os, signal, sys, time
print(sorted(k for k in os.environ if k in ("HOME", "PATH")), os.environ.get("NOPE_X"), os.getenv("NOPE_X", "dflt"))
os.environ["NEWVAR"] = "v1"
print(os.environ["NEWVAR"], os.getenv("NEWVAR"), "NEWVAR" in os.environ)
os.putenv("PUT", "1")
del os.environ["NEWVAR"]
print("NEWVAR" in os.environ, os.environb.get(b"NEWVAR"))
print(os.path.isabs(os.getcwd()), os.getcwd() == os.path.realpath("."))
old = os.umask(0o027)
print(oct(os.umask(old)))
os.umask(0o022)
print(os.getpid() > 0, os.getppid() > 0, os.getpid() != os.getppid())
print(type(os.getuid()), type(os.getgid()))
print(sys.argv[0].endswith("envproc.py"), len(sys.argv))
print(os.name, os.sep, os.linesep == "\n", os.pathsep)
print(sys.byteorder, sys.maxsize == 2 ** 63 - 1 or sys.maxsize == 2 ** 31 - 1)
print(sys.getdefaultencoding(), sys.getfilesystemencoding(), sys.stdout.encoding, sys.stdin.encoding, sys.stderr.errors)
print(sys.stdout.errors, sys.stdin.errors)
import locale
print(locale.getpreferredencoding(False))
got = []
def handler(sig, frame):
    got.append(sig)
old = signal.signal(signal.SIGUSR1, handler)
print(old == signal.SIG_DFL, signal.getsignal(signal.SIGUSR1) is handler)
os.kill(os.getpid(), signal.SIGUSR1)
time.sleep(0.05)
print("handled", got)
signal.signal(signal.SIGUSR1, signal.SIG_IGN)
os.kill(os.getpid(), signal.SIGUSR1)
print("ignored")
print(signal.Signals(2).name, signal.SIGTERM.value, int(signal.SIGKILL), signal.strsignal(signal.SIGINT))
print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)
def on_int(s, f):
    raise RuntimeError("from handler")
signal.signal(signal.SIGINT, on_int)
try:
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(1)
except RuntimeError as e:
    print("sigint handler", e)
signal.signal(signal.SIGINT, signal.default_int_handler)
try:
    signal.raise_signal(signal.SIGINT)
    time.sleep(1)
except KeyboardInterrupt:
    print("KeyboardInterrupt")
t = time.time()
print(abs(t - time.mktime(time.localtime(t))) < 1.5, time.gmtime(0)[:6], time.strftime("%Y", time.gmtime(86400 * 365)))
print(time.monotonic() <= time.monotonic(), time.perf_counter() > 0, time.process_time() >= 0, time.time_ns() > 0)
print(time.tzname[0] in ("UTC", "GMT"), time.timezone)
import tempfile
with tempfile.NamedTemporaryFile() as tf:
    st = os.stat(tf.name)
    print(st.st_uid == os.getuid() == os.geteuid(), st.st_gid == os.getgid() == os.getegid(), isinstance(os.getgroups(), list))
print(isinstance(os.cpu_count(), int) and os.cpu_count() >= 1, os.uname().nodename == __import__("platform").node() != "")
