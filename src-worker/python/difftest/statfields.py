# os.stat/lstat/fstat/scandir fields as scripts read them: mode bits, nlink, stable inodes, times after utime.
import os
import stat
import tempfile
import time

d = tempfile.mkdtemp()
f = os.path.join(d, "file")
with open(f, "w") as fh:
    fh.write("12345")
os.chmod(f, 0o754)
os.mkdir(os.path.join(d, "sub"))
os.mkdir(os.path.join(d, "sub", "inner"))
os.symlink("file", os.path.join(d, "link"))
os.symlink("nowhere", os.path.join(d, "dangling"))
st = os.stat(f)
print(oct(st.st_mode), stat.S_IFMT(st.st_mode) == stat.S_IFREG, oct(stat.S_IMODE(st.st_mode)), stat.filemode(st.st_mode))
print(bool(st.st_mode & stat.S_IXUSR), bool(st.st_mode & stat.S_IWGRP), bool(st.st_mode & stat.S_IROTH), st.st_size, st.st_nlink)
print(st.st_uid == os.getuid(), st.st_gid == os.getgid(), st.st_ino == os.stat(f).st_ino, st.st_dev == os.stat(d).st_dev)
print(st[stat.ST_SIZE], st[stat.ST_MODE] == st.st_mode, len(tuple(st)), type(st).__name__)
ds = os.stat(os.path.join(d, "sub"))
print(stat.filemode(ds.st_mode), stat.S_ISDIR(ds.st_mode), ds.st_nlink)
ls = os.lstat(os.path.join(d, "link"))
print(stat.filemode(ls.st_mode), stat.S_ISLNK(ls.st_mode), ls.st_size, os.stat(os.path.join(d, "link")).st_ino == st.st_ino)
print(os.stat(os.path.join(d, "link"), follow_symlinks=False).st_ino == ls.st_ino, ls.st_ino != st.st_ino)
try:
    os.stat(os.path.join(d, "dangling"))
except FileNotFoundError as e:
    print("dangling", e.errno, e.strerror)
print(stat.filemode(os.lstat(os.path.join(d, "dangling")).st_mode))
ino = st.st_ino
os.rename(f, os.path.join(d, "renamed"))
print("ino after rename", os.stat(os.path.join(d, "renamed")).st_ino == ino)
os.rename(os.path.join(d, "renamed"), f)
with open(f, "a") as fh:
    fh.write("more")
    print("fstat", os.fstat(fh.fileno()).st_ino == ino, os.fstat(fh.fileno()).st_size)
print("ino after write", os.stat(f).st_ino == ino, os.stat(f).st_size)
os.utime(f, (1_600_000_000, 1_700_000_000))
st = os.stat(f)
print(st.st_atime, st.st_mtime, st.st_atime_ns, st.st_mtime_ns, int(st.st_mtime) == st[stat.ST_MTIME])
os.utime(f, ns=(1_500_000_000_123_000_000, 1_500_000_001_987_000_000))
st = os.stat(f)
print(st.st_atime_ns, st.st_mtime_ns, st.st_mtime, os.path.getmtime(f), os.path.getatime(f))
os.utime(f, (1.5, 2.25))
print(os.stat(f).st_atime, os.stat(f).st_mtime)
before = time.time()
os.utime(f)
st = os.stat(f)
print("now", abs(st.st_mtime - before) < 5, abs(st.st_atime - before) < 5, abs(st.st_ctime - before) < 60)
os.utime(os.path.join(d, "link"), (100, 200), follow_symlinks=False)
print("link times", os.lstat(os.path.join(d, "link")).st_mtime, os.stat(f).st_mtime != 200)
try:
    os.utime(os.path.join(d, "missing"), (1, 1))
except FileNotFoundError as e:
    print(e.errno, e.strerror)
try:
    os.utime(f, (1, 1), ns=(1, 1))
except ValueError as e:
    print(e)
ents = sorted(os.scandir(d), key=lambda e: e.name)
for e in ents:
    print(e.name, e.is_file(), e.is_dir(), e.is_symlink(), e.is_file(follow_symlinks=False), e.path == os.path.join(d, e.name))
e = [e for e in ents if e.name == "file"][0]
print(e.stat().st_size, e.stat().st_mtime == os.stat(f).st_mtime, repr(e))
with os.scandir(d) as it:
    print(sorted(x.name for x in it if not x.name.startswith("d")))
with open(os.path.join(d, "exe"), "w"):
    pass
for mode in (0o4755, 0o2755, 0o1777, 0o000, 0o777, 0o644):
    os.chmod(os.path.join(d, "exe"), mode)
    m = os.stat(os.path.join(d, "exe")).st_mode
    print(oct(mode), stat.filemode(m), oct(stat.S_IMODE(m)), bool(m & stat.S_ISUID), bool(m & stat.S_ISVTX))
os.chmod(os.path.join(d, "exe"), 0o644)
os.chmod(os.path.join(d, "exe"), os.stat(os.path.join(d, "exe")).st_mode | stat.S_IXUSR | stat.S_IXGRP)
print(stat.filemode(os.stat(os.path.join(d, "exe")).st_mode), os.access(os.path.join(d, "exe"), os.X_OK))
print(stat.filemode(stat.S_IFCHR | 0o666), stat.filemode(stat.S_IFIFO | 0o600), stat.filemode(stat.S_IFSOCK | 0o755), stat.filemode(stat.S_IFBLK | 0o660))
dn = os.stat("/dev/null")
print(stat.S_ISCHR(dn.st_mode), stat.filemode(dn.st_mode), dn.st_size)
print(stat.S_ISDIR(os.stat("/").st_mode), os.stat("/").st_ino == os.stat("/.").st_ino, os.stat(d).st_ino == os.stat(d + "/sub/..").st_ino)
print(os.path.getsize(f), os.path.isfile(f), os.path.isdir(d), os.path.islink(os.path.join(d, "link")), os.path.exists(os.path.join(d, "dangling")), os.path.lexists(os.path.join(d, "dangling")))
print(os.path.samefile(f, os.path.join(d, "link")), os.path.samestat(os.stat(f), os.stat(os.path.join(d, "link"))))
