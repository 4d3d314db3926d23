# tempfile as scripts use it: names, modes, cleanup, directories, spooled files, errors after cleanup.
import os, tempfile, stat, shutil
base = tempfile.mkdtemp(prefix="tf_")
print(os.path.basename(base).startswith("tf_"), oct(stat.S_IMODE(os.stat(base).st_mode)), os.path.dirname(base) == tempfile.gettempdir())
fd, path = tempfile.mkstemp(suffix=".dat", prefix="x_", dir=base, text=True)
print(isinstance(fd, int), os.path.basename(path).startswith("x_"), path.endswith(".dat"), oct(stat.S_IMODE(os.fstat(fd).st_mode)))
os.write(fd, b"data"); os.close(fd); print(open(path).read())
with tempfile.TemporaryFile(dir=base) as tf:
    tf.write(b"anon"); tf.seek(0); print(tf.read(), tf.mode, sorted(os.listdir(base)) == [os.path.basename(path)] or "named")
with tempfile.NamedTemporaryFile(mode="w+", dir=base, suffix=".txt", delete=False) as nt:
    nt.write("kept"); name = nt.name
print(os.path.exists(name), open(name).read(), nt.closed)
os.unlink(name)
with tempfile.TemporaryDirectory(dir=base, prefix="td_", suffix="_s") as td:
    n = os.path.basename(td)
    print(n.startswith("td_"), n.endswith("_s"), os.path.isdir(td))
    os.makedirs(os.path.join(td, "a/b"))
    open(os.path.join(td, "a/b/f"), "w").close()
    os.chmod(os.path.join(td, "a/b"), 0o500)
print(os.path.exists(td))
t = tempfile.TemporaryDirectory(dir=base)
p = t.name; t.cleanup(); print(os.path.exists(p)); t.cleanup()
t2 = tempfile.TemporaryDirectory(dir=base, ignore_cleanup_errors=True); shutil.rmtree(t2.name); t2.cleanup(); print("cleanup after rmtree ok")
sp = tempfile.SpooledTemporaryFile(max_size=10, mode="w+")
sp.write("short"); print(sp._rolled); sp.write("x" * 20); print(sp._rolled); sp.seek(0); print(len(sp.read())); sp.close()
print(tempfile.gettempprefix(), isinstance(tempfile.gettempdirb(), bytes), tempfile.tempdir)
try:
    tempfile.mkstemp(dir=os.path.join(base, "missing"))
except FileNotFoundError as e:
    print("FileNotFoundError", e.strerror)
try:
    tempfile.mkdtemp(dir=path)
except NotADirectoryError as e:
    print("NotADirectoryError", e.strerror)
names = {os.path.basename(tempfile.mktemp(dir=base)) for _ in range(5)}
print(len(names), all(len(n) == 11 and n.startswith("tmp") for n in names))
shutil.rmtree(base); print(os.path.exists(base))
