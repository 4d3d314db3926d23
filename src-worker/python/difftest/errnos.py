# OSError numbers and texts as on Linux, consistent with errno and the subclasses.
import errno
import os
import pathlib
import shutil
import subprocess
import tempfile

try:
    open("/nonexistent/x")
except OSError as e:
    print(type(e).__name__, e.errno, e, repr(e), e.errno == errno.ENOENT, errno.errorcode[e.errno])
    print(os.strerror(e.errno), e.strerror, e.filename)
d = tempfile.mkdtemp()
try:
    os.mkdir(d)
except FileExistsError as e:
    print(e.errno, e.strerror, e.args)
try:
    os.rmdir(d + "/none")
except OSError as e:
    print(type(e).__name__, e.errno, errno.errorcode[e.errno])
f = os.path.join(d, "file")
open(f, "w").close()
for call in (lambda: os.listdir(f), lambda: open(d), lambda: os.rmdir(d), lambda: os.open(f, os.O_CREAT | os.O_EXCL)):
    try:
        call()
    except OSError as e:
        print(type(e).__name__, e.errno, errno.errorcode[e.errno], e.strerror)
try:
    subprocess.run(["nosuchcmd-x"])
except FileNotFoundError as e:
    print("subprocess:", e, e.errno, e.filename)
try:
    shutil.rmtree(d + "/none")
except FileNotFoundError as e:
    print("rmtree:", e.errno, e.strerror)
print(pathlib.Path(d, "none").exists(), errno.EAGAIN, errno.EWOULDBLOCK, errno.ENOENT, errno.EACCES)
print(FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), "f"))
print([os.strerror(n) for n in (1, 2, 13, 17, 20, 21, 22, 28, 32)])
try:
    os.kill(999999, 0)
except ProcessLookupError as e:
    print(e)
try:
    os.waitpid(-1, 0)
except ChildProcessError as e:
    print(e)
r, w = os.pipe()
os.close(r)
try:
    os.write(w, b"x")
except BrokenPipeError as e:
    print(e)
try:
    os.close(w)
    os.close(w)
except OSError as e:
    print(e)
shutil.rmtree(d)
p = subprocess.Popen(["true"])
os.waitpid(p.pid, 0)  # reaped behind Popen's back: ECHILD, which subprocess takes as status 0
print("poll", p.poll(), "wait", p.wait())
print(pathlib.Path("/nonexistent/x").exists(), pathlib.Path("/etc/hostname/x").exists(), pathlib.Path("/").is_dir())
