# shutil as agents use it: copytree with ignore/dirs_exist_ok, rmtree errors, move across and onto
# directories, make_archive/unpack_archive in every format, copy metadata, which.
import os
import shutil
import stat
import tempfile

base = os.path.realpath(tempfile.mkdtemp())
os.chdir(base)


def tree(top):
    out = []
    for root, dirs, files in os.walk(top):
        dirs.sort()
        rel = os.path.relpath(root, top)
        for f in sorted(files):
            out.append(os.path.normpath(os.path.join(rel, f)))
        if not dirs and not files:
            out.append(rel + "/")
    return out


for p in ("src/a.txt", "src/b.log", "src/sub/c.txt", "src/sub/deep/d.py", "src/__pycache__/x.pyc", "src/.git/HEAD"):
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(p * 3)
os.makedirs("src/empty")
os.utime("src/a.txt", (1_000_000, 1_000_000_000))
os.chmod("src/a.txt", 0o640)
print(shutil.copytree("src", "dst") == "dst", tree("dst"))
print(oct(stat.S_IMODE(os.stat("dst/a.txt").st_mode)), os.stat("dst/a.txt").st_mtime)
shutil.copytree("src", "filtered", ignore=shutil.ignore_patterns("*.log", "__pycache__", ".git"))
print(tree("filtered"))
seen = []


def ign(dirname, names):
    seen.append((os.path.relpath(dirname, base), sorted(names)))
    return [n for n in names if n.startswith("d")]


shutil.copytree("src", "custom", ignore=ign)
print(tree("custom"), sorted(seen)[:2])
try:
    shutil.copytree("src", "dst")
except FileExistsError as e:
    print("exists", e.errno, e.strerror, e.filename)
with open("src/new.txt", "w") as f:
    f.write("new")
shutil.copytree("src", "dst", dirs_exist_ok=True)
print("merged", "new.txt" in os.listdir("dst"))
shutil.copytree("src", "plain", copy_function=shutil.copy)
print("copy_function mtime kept", os.stat("plain/a.txt").st_mtime == 1_000_000_000)
try:
    shutil.copytree("nosuch", "x")
except FileNotFoundError as e:
    print("missing src", e.errno, e.strerror, e.filename)
print(shutil.move("dst/a.txt", "moved.txt"), os.path.exists("dst/a.txt"), open("moved.txt").read()[:5])
os.mkdir("into")
print(shutil.move("moved.txt", "into"), os.listdir("into"))
print(shutil.move("dst", "into"), sorted(os.listdir("into")))
print(shutil.move("into/dst", "renamed_dir"), len(tree("renamed_dir")))
with open("clash", "w") as f:
    f.write("old")
with open("incoming", "w") as f:
    f.write("new")
shutil.move("incoming", "clash")
print(open("clash").read())
os.makedirs("target/moved.txt")
try:
    shutil.move("into/moved.txt", "target")
except shutil.Error as e:
    print("shutil.Error", str(e).replace(base, "B"))
try:
    shutil.move("nosuch", "x")
except FileNotFoundError as e:
    print("move missing", e.errno, e.strerror)
try:
    shutil.move("renamed_dir", "renamed_dir/sub")
except shutil.Error as e:
    print("into itself", str(e).replace(base, "B"))
try:
    shutil.rmtree("nosuch")
except FileNotFoundError as e:
    print("rmtree missing", e.errno, e.strerror, e.filename)
shutil.rmtree("nosuch", ignore_errors=True)
try:
    shutil.rmtree("clash")
except NotADirectoryError as e:
    print("rmtree file", e.errno, e.strerror)
shutil.rmtree("custom")
print(os.path.exists("custom"))
for fmt in ("zip", "tar", "gztar", "bztar", "xztar"):
    name = shutil.make_archive(os.path.join(base, "arch", "pkg"), fmt, root_dir="src", base_dir=".")
    out = os.path.join(base, "out_" + fmt)
    shutil.unpack_archive(name, out)
    print(fmt, os.path.relpath(name, base), tree(out) == tree("src"), len(tree(out)))
name = shutil.make_archive("flat", "gztar", root_dir=base, base_dir="src/sub")
shutil.unpack_archive(name, "flat_out", "gztar")
print(os.path.relpath(name, base), tree("flat_out"))
# (3.14 adds zstdtar)
print(sorted(f[0] for f in shutil.get_archive_formats() if f[0] != "zstdtar"), sorted(f[0] for f in shutil.get_unpack_formats() if f[0] != "zstdtar"))
try:
    shutil.make_archive("x", "rar", "src")
except ValueError as e:
    print(e)
try:
    shutil.unpack_archive("clash")
except shutil.ReadError as e:
    print("ReadError", str(e).replace(base, "B"))
with open("m1", "w") as f:
    f.write("x")
os.chmod("m1", 0o600)
os.utime("m1", (5, 6))
open("m2", "w").close()
shutil.copymode("m1", "m2")
print(oct(stat.S_IMODE(os.stat("m2").st_mode)), os.stat("m2").st_mtime != 6)
shutil.copystat("m1", "m2")
print(os.stat("m2").st_mtime, os.stat("m2").st_atime)
shutil.copyfile("m1", "m3")
print(oct(stat.S_IMODE(os.stat("m3").st_mode)) != "0o600" or os.umask(0o022) == 0o077)
try:
    shutil.copyfile("m1", "m1")
except shutil.SameFileError as e:
    print("SameFileError", str(e).replace(base, "B"))
try:
    shutil.copyfile("src", "m4")
except IsADirectoryError as e:
    print("copy dir", e.errno, e.strerror)
print(shutil.copy("m1", "into"), shutil.copy2("m1", "m5"), os.stat("m5").st_mtime)
with open("big", "wb") as f:
    f.write(os.urandom(300_000))
with open("big", "rb") as a, open("big2", "wb") as b:
    shutil.copyfileobj(a, b, 1000)
print(open("big", "rb").read() == open("big2", "rb").read())
print(shutil.which("sh") is not None, shutil.which("definitely-not-here"), shutil.which("sh", path="/nonexistent"))
print(shutil.get_terminal_size((77, 21)))
