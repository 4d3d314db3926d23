# Links as scripts make them: os.link/symlink/readlink, relative and dangling links, loops, realpath,
# hard link counts, unlink/rename of links, shutil and pathlib on links.
import os
import pathlib
import shutil
import stat
import tempfile

d = os.path.realpath(tempfile.mkdtemp())
os.chdir(d)


def show(x):
    return x.replace(d, "D") if isinstance(x, str) else x


with open("target", "w") as f:
    f.write("data\n")
os.link("target", "hard")
print("nlink", os.stat("target").st_nlink, os.stat("hard").st_nlink, os.stat("hard").st_ino == os.stat("target").st_ino)
with open("hard", "a") as f:
    f.write("via hard\n")
print(repr(open("target").read()))
os.unlink("target")
print("after unlink", os.stat("hard").st_nlink, repr(open("hard").read()))
os.rename("hard", "target")
try:
    os.link("target", "target")
except FileExistsError as e:
    print("link exists", e.errno, e.strerror, e.filename, e.filename2)
try:
    os.link("missing", "x")
except FileNotFoundError as e:
    print("link missing", e.errno, e.filename, e.filename2)
os.mkdir("dir")
try:
    os.link("dir", "dirlink")
except PermissionError as e:
    print("link dir", e.errno, e.strerror)
os.symlink("target", "rel")
os.symlink(os.path.join(d, "target"), "abs")
os.symlink("dir", "dlink", target_is_directory=True)
os.symlink("../target", "dir/up")
os.symlink("nope", "dangling")
os.symlink("loop1", "loop2")
os.symlink("loop2", "loop1")
for n in ("rel", "abs", "dlink", "dir/up", "dangling", "loop1"):
    print(n, show(os.readlink(n)), os.path.islink(n), os.path.exists(n), os.path.lexists(n), show(os.path.realpath(n)))
print(open("dir/up").read().splitlines(), sorted(os.listdir("dlink")))
try:
    open("loop1")
except OSError as e:
    print("loop", type(e).__name__, e.errno, e.strerror)
try:
    os.stat("loop1")
except OSError as e:
    print("stat loop", e.errno, e.strerror)
try:
    os.readlink("target")
except OSError as e:
    print("readlink file", e.errno, e.strerror)
try:
    os.symlink("x", "rel")
except FileExistsError as e:
    print("symlink exists", e.errno, e.strerror, e.filename, e.filename2)
try:
    pathlib.Path("loop1").resolve(strict=True)
except (OSError, RuntimeError) as e:
    print("resolve loop")  # RuntimeError in 3.11, OSError (ELOOP) from 3.13 on
try:
    pathlib.Path("dangling").resolve(strict=True)
except FileNotFoundError as e:
    print("resolve dangling", e.errno)
print(show(str(pathlib.Path("dangling").resolve())), show(str(pathlib.Path("dir/up").resolve())))
p = pathlib.Path("plink")
p.symlink_to("target")
print(p.is_symlink(), str(p.readlink()), p.read_text().splitlines(), p.lstat().st_mode & 0o170000 == stat.S_IFLNK)
pathlib.Path("phard").hardlink_to("target")
print(os.stat("target").st_nlink, pathlib.Path("phard").samefile("target"))
with open("dangling", "w") as f:
    f.write("created through the link")
print("dangling now", os.path.exists("dangling"), open("nope").read())
os.rename("rel", "rel2")
print(os.readlink("rel2"), open("rel2").read().splitlines())
os.replace("rel2", "abs")
print(os.readlink("abs"))
os.unlink("abs")
print(os.path.exists("target"), os.path.lexists("abs"))
os.chmod("plink", 0o600)
print(oct(stat.S_IMODE(os.stat("target").st_mode)))
shutil.copy("plink", "copied")
shutil.copy("plink", "copied_link", follow_symlinks=False)
shutil.copy2("dlink/up", "copied2")
print(os.path.islink("copied"), os.path.islink("copied_link"), os.readlink("copied_link"), open("copied2").read().splitlines())
shutil.copytree("dir", "treecopy", symlinks=True)
shutil.copytree("dir", "treefollow")
print(os.path.islink("treecopy/up"), os.path.islink("treefollow/up"))
try:
    shutil.rmtree("dlink")
except OSError as e:
    print("rmtree link", type(e).__name__, e.errno)  # 3.13 sets the path as filename
os.unlink("dlink")
print(os.path.isdir("dir"), sorted(os.listdir("dir")))
walked = []
os.symlink("dir", "dlink2")
for root, dirs, files in os.walk("."):
    dirs.sort()
    walked.append((root, sorted(dirs), sorted(files)))
print(walked[0])
print([w[0] for w in walked])
print([w[0] for w in sorted(os.walk(".", followlinks=True))])
try:
    os.unlink("dir")
except IsADirectoryError as e:
    print("unlink dir", e.errno, e.strerror)
try:
    os.rmdir("dlink2")
except NotADirectoryError as e:
    print("rmdir link", e.errno, e.strerror)
os.remove("dlink2")
print(sorted(os.listdir(".")))
