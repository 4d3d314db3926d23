# os as scripts use it: listdir order, stat fields, chmod/umask, pids, kill self, terminal size off a tty.
import os
import signal
import stat
import sys
import tempfile
import time

d = tempfile.mkdtemp()
for n in ["b", "a", "c10", "c2", "B"]:
    open(os.path.join(d, n), "w").close()
print(sorted(os.listdir(d)), len(os.listdir(d)))
print(sorted(e.name for e in os.scandir(d)), all(e.is_file() for e in os.scandir(d)))
old = os.umask(0o077)
p = os.path.join(d, "secret")
with open(p, "w") as f:
    f.write("x" * 10)
st = os.stat(p)
print(oct(stat.S_IMODE(st.st_mode)), st.st_size, stat.S_ISREG(st.st_mode), stat.filemode(st.st_mode))
os.mkdir(os.path.join(d, "sub"))
print(oct(stat.S_IMODE(os.stat(os.path.join(d, "sub")).st_mode)))
os.umask(old)
print(oct(os.umask(old)))
os.chmod(p, 0o640)
print(stat.filemode(os.stat(p).st_mode), os.access(p, os.R_OK), os.access(p, os.X_OK))
os.chmod(p, 0o644)
print(type(st.st_mtime).__name__, type(st.st_mtime_ns).__name__, st.st_nlink, abs(st.st_mtime - time.time()) < 60)
os.utime(p, (1000000000, 1000000000))
print(os.stat(p).st_mtime, os.path.getmtime(p))
print(os.getpid() > 0, os.getppid() > 0, os.getpid() != os.getppid())
try:
    os.get_terminal_size()
except OSError as e:
    print(type(e).__name__, e.errno, e)
print(os.isatty(0), os.isatty(1), sys.stdout.isatty())
got = []
signal.signal(signal.SIGUSR1, lambda s, f: got.append(s))
os.kill(os.getpid(), signal.SIGUSR1)
time.sleep(0.01)
print("usr1", got == [signal.SIGUSR1])
print(os.path.join("a", "/b", "c"), os.path.normpath("a//b/../c/."), os.path.relpath("/a/b/c", "/a/d"))
print(os.path.splitext("x.tar.gz"), os.path.basename("/x/y/"), os.path.dirname("/x/y/"), os.path.expanduser("~") == os.environ.get("HOME"))
os.makedirs(os.path.join(d, "x/y/z"), exist_ok=True)
try:
    os.makedirs(os.path.join(d, "x/y"))
except FileExistsError as e:
    print("exists", e.strerror)
try:
    os.rmdir(os.path.join(d, "x"))
except OSError as e:
    print(type(e).__name__, e.errno, e.strerror)
try:
    os.remove(os.path.join(d, "x"))
except OSError as e:
    print(type(e).__name__, e.errno, e.strerror)
os.rename(p, os.path.join(d, "moved"))
print(os.path.exists(p), os.path.isfile(os.path.join(d, "moved")))
os.symlink("moved", os.path.join(d, "link"))
print(os.readlink(os.path.join(d, "link")), os.path.islink(os.path.join(d, "link")), os.path.realpath(os.path.join(d, "link")) == os.path.realpath(os.path.join(d, "moved")))
print(os.cpu_count() >= 1, os.sep, os.linesep == "\n", os.name, sys.platform)
print(os.environ.get("NOPE", "default"), "PATH" in os.environ)
os.environ["NEWVAR"] = "v1"
print(os.popen("echo $NEWVAR").read().strip(), os.getenv("NEWVAR"))
fd = os.open(os.path.join(d, "fdfile"), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
print(os.write(fd, b"abc"), os.lseek(fd, 0, os.SEEK_CUR))
os.close(fd)
try:
    os.open(os.path.join(d, "fdfile"), os.O_WRONLY | os.O_CREAT | os.O_EXCL)
except FileExistsError as e:
    print("excl", e.errno)
try:
    os.close(fd)
except OSError as e:
    print(e)
