# tempfile cleanup as agents rely on it: TemporaryDirectory with read-only trees, context exits by
# exception, mkstemp descriptors, NamedTemporaryFile delete=False, TMPDIR for children, SpooledTemporaryFile.
import os
import stat
import subprocess
import sys
import tempfile

root = os.path.realpath(tempfile.mkdtemp(prefix="root_"))
tempfile.tempdir = root


def rel(p):
    return os.path.relpath(p, root)


with tempfile.TemporaryDirectory(prefix="work_", suffix=".d") as td:
    print(rel(td).startswith("work_"), td.endswith(".d"), os.path.isdir(td))
    os.makedirs(os.path.join(td, "ro/deeper"))
    with open(os.path.join(td, "ro/deeper/f"), "w") as f:
        f.write("x")
    os.chmod(os.path.join(td, "ro/deeper/f"), 0o400)
    os.chmod(os.path.join(td, "ro/deeper"), 0o500)
    os.chmod(os.path.join(td, "ro"), 0o500)
print("read-only tree removed", not os.path.exists(td))
try:
    with tempfile.TemporaryDirectory() as td2:
        open(os.path.join(td2, "f"), "w").close()
        raise RuntimeError("boom")
except RuntimeError as e:
    print(e, os.path.exists(td2))
t = tempfile.TemporaryDirectory()
name = t.name
t.cleanup()
t.cleanup()
print("double cleanup ok", os.path.exists(name))
t = tempfile.TemporaryDirectory(ignore_cleanup_errors=True)
os.rmdir(t.name)
t.cleanup()
print("ignore_cleanup_errors ok")
fd, path = tempfile.mkstemp(suffix=".txt", prefix="ms_", text=True)
print(type(fd).__name__, rel(path).startswith("ms_"), path.endswith(".txt"), oct(stat.S_IMODE(os.stat(path).st_mode)))
os.write(fd, b"via fd\n")
os.close(fd)
print(open(path).read(), end="")
os.unlink(path)
dp = tempfile.mkdtemp(suffix="_x")
print(oct(stat.S_IMODE(os.stat(dp).st_mode)), dp.endswith("_x"))
os.rmdir(dp)
with tempfile.NamedTemporaryFile("w+", suffix=".csv", delete=False) as f:
    f.write("a,b\n1,2\n")
    keep = f.name
print("kept", os.path.exists(keep), open(keep).read().splitlines())
os.unlink(keep)
with tempfile.NamedTemporaryFile() as f:
    f.write(b"data")
    f.flush()
    print(f.mode, os.path.getsize(f.name), type(f.name).__name__, open(f.name, "rb").read())
    n = f.name
print("removed", os.path.exists(n))
f = tempfile.NamedTemporaryFile(mode="w")
n = f.name
f.write("x")
f.close()
print("closed removed", os.path.exists(n))
with tempfile.TemporaryFile() as f:
    f.write(b"anon")
    f.seek(0)
    print(f.read(), isinstance(f.name, int))
with tempfile.SpooledTemporaryFile(max_size=10, mode="w+") as s:
    s.write("short")
    print("rolled", s._rolled)
    s.write(" and now longer than ten")
    print("rolled", s._rolled)
    s.seek(0)
    print(s.read())
print(sorted(os.listdir(root)))
print(tempfile.gettempdir() == root, tempfile.gettempprefix())
tempfile.tempdir = None
env = dict(os.environ, TMPDIR=root)
r = subprocess.run([sys.executable, "-c", "import tempfile; print(tempfile.gettempdir())"], env=env, capture_output=True, text=True)
print("child TMPDIR", r.stdout.strip() == root)
env["TMPDIR"] = os.path.join(root, "missing")
r = subprocess.run([sys.executable, "-c", "import tempfile; print(tempfile.gettempdir())"], env=env, capture_output=True, text=True)
print("child missing TMPDIR", r.stdout.strip())
try:
    tempfile.mkstemp(dir=os.path.join(root, "nope"))
except FileNotFoundError as e:
    print("mkstemp", e.errno, e.strerror)
