# os/shutil/pathlib on files: stat fields, scandir, replace, symlinks, copytree/rmtree/move, errors.
import os, shutil, stat, tempfile, pathlib, errno, glob, fnmatch
d = tempfile.mkdtemp()
os.chdir(d)
os.umask(0o022)
with open("a.txt", "w") as f:
    f.write("hello\n")
st = os.stat("a.txt")
print(oct(st.st_mode), stat.S_ISREG(st.st_mode), stat.filemode(st.st_mode), st.st_size, st.st_nlink, type(st.st_mtime).__name__, type(st.st_mtime_ns).__name__, st.st_mtime_ns // 10**9 == int(st.st_mtime))
print(st.st_uid == os.getuid(), st.st_gid == os.getgid(), len(st), st[6] == st.st_size, st.st_blksize > 0, st.st_blocks >= 0, st.st_ino > 0, st.st_dev >= 0)
os.mkdir("sub"); os.makedirs("sub/deep/er"); os.makedirs("sub/deep", exist_ok=True)
print(oct(os.stat("sub").st_mode), stat.filemode(os.stat("sub").st_mode))
try:
    os.makedirs("sub/deep")
except FileExistsError as e:
    print(e.errno, e.strerror, e.filename)
try:
    os.mkdir("nope/x")
except FileNotFoundError as e:
    print(e)
try:
    os.rmdir("sub")
except OSError as e:
    print(type(e).__name__, e)
try:
    os.remove("sub")
except OSError as e:
    print(type(e).__name__, e)
try:
    open("sub")
except OSError as e:
    print(type(e).__name__, e)
try:
    os.listdir("a.txt")
except OSError as e:
    print(type(e).__name__, e)
try:
    os.rename("a.txt", "sub/deep/er/../../../missing/x")
except OSError as e:
    print(type(e).__name__, e.errno, e.strerror, e.filename, e.filename2)
os.symlink("a.txt", "link"); os.symlink("missing", "dangling"); os.symlink("sub", "dirlink")
print(os.readlink("link"), os.path.islink("link"), os.path.exists("dangling"), os.path.lexists("dangling"), os.path.isdir("dirlink"), os.path.realpath("link") == os.path.join(d, "a.txt"))
print(stat.S_ISLNK(os.lstat("link").st_mode), os.lstat("link").st_size, stat.filemode(os.lstat("link").st_mode))
try:
    os.stat("dangling")
except FileNotFoundError as e:
    print(e)
try:
    os.readlink("a.txt")
except OSError as e:
    print(type(e).__name__, e)
with os.scandir(".") as it:
    for e in sorted(it, key=lambda e: e.name):
        print(e.name, e.path, e.is_file(), e.is_dir(), e.is_symlink(), e.is_file(follow_symlinks=False), e.is_dir(follow_symlinks=False), e.inode() > 0, repr(e))
print(sorted(os.listdir()), sorted(os.listdir(b".")))
os.replace("a.txt", "b.txt"); print(os.path.exists("a.txt"), open("b.txt").read())
with open("c.txt", "w") as f: f.write("c")
os.replace("c.txt", "b.txt"); print(open("b.txt").read())
try:
    os.replace("b.txt", "sub")
except OSError as e:
    print(type(e).__name__, e)
os.chmod("b.txt", 0o640); print(oct(os.stat("b.txt").st_mode & 0o777), stat.filemode(os.stat("b.txt").st_mode))
os.chmod("b.txt", stat.S_IRUSR | stat.S_IWUSR | stat.S_IXUSR); print(os.access("b.txt", os.X_OK), os.access("b.txt", os.R_OK), os.access("zz", os.F_OK))
os.utime("b.txt", (1000000000, 1200000000)); s2 = os.stat("b.txt"); print(s2.st_atime, s2.st_mtime, os.path.getmtime("b.txt"), os.path.getsize("b.txt"))
os.utime("b.txt", ns=(1, 1500000000123456789)); print(os.stat("b.txt").st_mtime_ns // 1000000)
with open("sub/deep/f1", "w") as f: f.write("1")
with open("sub/deep/er/f2", "w") as f: f.write("22")
os.symlink("../f1", "sub/deep/er/ln")
shutil.copytree("sub", "copy")
for root, dirs, files in os.walk("copy"):
    dirs.sort()
    print(root, sorted(dirs), sorted(files))
print(os.path.islink("copy/deep/er/ln"))
shutil.copytree("sub", "copy2", symlinks=True, ignore=shutil.ignore_patterns("f2"))
print(sorted(str(p) for p in pathlib.Path("copy2").rglob("*")), os.path.islink("copy2/deep/er/ln"))
try:
    shutil.copytree("sub", "copy")
except FileExistsError as e:
    print(e)
shutil.copytree("sub", "copy", dirs_exist_ok=True)
print(shutil.copy("b.txt", "sub"), shutil.copy2("b.txt", "b2.txt"), oct(os.stat("b2.txt").st_mode & 0o777), os.stat("b2.txt").st_mtime == os.stat("b.txt").st_mtime)
print(shutil.copyfile("b.txt", "b3.txt"), oct(os.stat("b3.txt").st_mode & 0o777))
try:
    shutil.copyfile("b.txt", "b.txt")
except shutil.SameFileError as e:
    print("SameFileError", e)
try:
    shutil.copy("missing", "x")
except FileNotFoundError as e:
    print(e)
print(shutil.move("b3.txt", "sub/deep"), shutil.move("copy2", "moved"), sorted(os.listdir("moved")), shutil.move("b2.txt", "renamed.txt"))
try:
    shutil.move("renamed.txt", "sub/deep/er/f2/x")
except OSError as e:
    print(type(e).__name__, e)
shutil.rmtree("copy"); print(os.path.exists("copy"))
try:
    shutil.rmtree("copy")
except FileNotFoundError as e:
    print(e)
shutil.rmtree("copy", ignore_errors=True)
errs = []
try:
    shutil.rmtree("dirlink")
except OSError as e:
    print(type(e).__name__, os.path.isdir("sub"))
try:
    shutil.rmtree("renamed.txt")
except NotADirectoryError as e:
    print(type(e).__name__, e)
p = pathlib.Path("pl")
p.mkdir(); (p / "x.py").write_text("print(1)\n"); (p / "y.txt").write_bytes(b"\x00\x01")
print(sorted(p.iterdir()), sorted(p.glob("*.py")), p.joinpath("x.py").read_text(), (p / "y.txt").stat().st_size, p.resolve() == pathlib.Path(d, "pl").resolve())
print(pathlib.Path("pl/x.py").suffix, pathlib.Path("a/b.tar.gz").suffixes, pathlib.Path("a/b.tar.gz").stem, pathlib.PurePosixPath("/a/b/../c").parts, pathlib.Path("a").with_suffix(".txt"), pathlib.Path("/x/y").relative_to("/x"))
try:
    pathlib.Path("/x/y").relative_to("/z")
except ValueError as e:
    print("ValueError", str(e).split(" OR ")[0])
try:
    pathlib.Path("nofile").read_text()
except FileNotFoundError as e:
    print(e)
try:
    p.rmdir()
except OSError as e:
    print(type(e).__name__, e)
(p / "y.txt").unlink(); (p / "y.txt").unlink(missing_ok=True)
try:
    (p / "y.txt").unlink()
except FileNotFoundError as e:
    print(e)
(p / "y.txt").touch(); (p / "y.txt").touch(exist_ok=True)
try:
    (p / "y.txt").touch(exist_ok=False)
except FileExistsError as e:
    print(e)
print(sorted(glob.glob("**/*", recursive=True)), sorted(glob.glob("s*/*")), glob.glob("none*"), sorted(glob.glob("*.txt")), glob.escape("a[b]*"))
print(fnmatch.fnmatch("a.TXT", "*.txt"), fnmatch.fnmatchcase("a.TXT", "*.txt"), fnmatch.filter(["a.py", "b.c", ".x.py"], "*.py"), fnmatch.translate("a*b?[!c]").rstrip("zZ"))
print(os.path.join("a", "/b", "c"), os.path.normpath("a//b/./c/../d"), os.path.splitext("x.tar.gz"), os.path.split("/a/b/"), os.path.basename("/a/b/"), os.path.commonpath(["/a/b/c", "/a/b/d"]), os.path.relpath("/a/b", "/a/c/d"), os.path.expanduser("~") == os.environ.get("HOME"), os.path.isabs("a"))
fd = os.open("fd.bin", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
print(os.write(fd, b"abc"), os.lseek(fd, 0, os.SEEK_CUR), os.fstat(fd).st_size, oct(os.fstat(fd).st_mode & 0o777)); os.close(fd)
try:
    os.open("fd.bin", os.O_WRONLY | os.O_CREAT | os.O_EXCL)
except FileExistsError as e:
    print(e)
try:
    os.close(fd)
except OSError as e:
    print(type(e).__name__, e)
try:
    os.write(999, b"x")
except OSError as e:
    print(type(e).__name__, e)
fd = os.open("fd.bin", os.O_RDWR); os.lseek(fd, 1, 0); print(os.read(fd, 10), os.pread(fd, 2, 0) if hasattr(os, "pread") else ""); os.ftruncate(fd, 1); os.close(fd); print(open("fd.bin", "rb").read())
os.truncate("fd.bin", 4); print(open("fd.bin", "rb").read())
print(os.path.samefile("b.txt", "link") if os.path.exists("link") else "", os.stat(".").st_nlink >= 2)
with tempfile.TemporaryDirectory() as td:
    print(os.path.isdir(td), os.path.dirname(td) == tempfile.gettempdir())
print(os.path.isdir(td))
with tempfile.NamedTemporaryFile("w+", suffix=".log", prefix="pre", delete=True) as nt:
    nt.write("data"); nt.flush(); nt.seek(0); print(nt.read(), os.path.basename(nt.name).startswith("pre"), nt.name.endswith(".log"))
print(os.path.exists(nt.name))
fd, path = tempfile.mkstemp(dir="."); os.close(fd); print(oct(os.stat(path).st_mode & 0o777), os.path.dirname(path) == os.getcwd() or os.path.dirname(path) == ".")
print(oct(os.stat(tempfile.mkdtemp()).st_mode & 0o777), tempfile.gettempdir(), tempfile.gettempprefix())
