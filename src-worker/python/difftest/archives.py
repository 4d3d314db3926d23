# tarfile/zipfile/gzip/bz2/lzma on sandbox files: members, modes, names, links, appends, errors, streams.
import bz2
import gzip
import io
import lzma
import os
import tarfile
import tempfile
import zipfile

d = os.path.realpath(tempfile.mkdtemp())
os.chdir(d)
os.makedirs("proj/pkg")
with open("proj/pkg/mod.py", "w") as f:
    f.write("print('hi')\n" * 50)
with open("proj/readme.md", "w") as f:
    f.write("# readme\n")
os.chmod("proj/readme.md", 0o600)
os.utime("proj/readme.md", (1_700_000_000, 1_700_000_000))
os.symlink("readme.md", "proj/link")
with tarfile.open("a.tar.gz", "w:gz") as t:
    t.add("proj")
with tarfile.open("a.tar.gz") as t:
    for m in sorted(t.getmembers(), key=lambda m: m.name):
        print(m.name, m.type, m.isdir(), m.isfile(), m.issym(), m.linkname, oct(m.mode), m.size if m.isfile() else "-")
    r = t.getmember("proj/readme.md")
    print(r.mtime, r.uid == os.getuid(), t.extractfile("proj/readme.md").read())
    try:
        t.getmember("nope")
    except KeyError as e:
        print("KeyError", e)
with tarfile.open("a.tar.gz", "r:gz") as t:
    t.extractall("out", filter="data")
print(sorted(os.listdir("out/proj")), os.readlink("out/proj/link"), oct(os.stat("out/proj/readme.md").st_mode & 0o777), os.stat("out/proj/readme.md").st_mtime)
with tarfile.open("b.tar", "w") as t:
    t.add("proj/readme.md", arcname="docs/README")
    data = b"generated content\n"
    info = tarfile.TarInfo("gen/data.txt")
    info.size = len(data)
    info.mtime = 1234567890
    info.mode = 0o644
    t.addfile(info, io.BytesIO(data))
    t.add("proj", arcname="filtered", filter=lambda ti: None if ti.name.endswith(".py") else ti)
with tarfile.open("b.tar", "a") as t:
    t.add("proj/pkg/mod.py", arcname="appended.py")
with tarfile.open("b.tar") as t:
    print(t.getnames())
    print(t.extractfile("gen/data.txt").read(), t.getmember("gen/data.txt").mtime)
print(tarfile.is_tarfile("b.tar"), tarfile.is_tarfile("proj/readme.md"))
try:
    tarfile.open("proj/readme.md")
except tarfile.ReadError as e:
    print("ReadError", str(e).splitlines()[0])  # 3.14 lists its zstd method too
for mode in ("w:bz2", "w:xz"):
    with tarfile.open("c.tar." + mode[2:], mode) as t:
        t.add("proj/pkg", arcname="pkg")
    with tarfile.open("c.tar." + mode[2:]) as t:
        print(mode, t.getnames())
buf = io.BytesIO()
with tarfile.open(fileobj=buf, mode="w|gz") as t:
    t.add("proj/readme.md", arcname="r")
buf.seek(0)
with tarfile.open(fileobj=buf, mode="r|gz") as t:
    for m in t:
        print("stream", m.name, t.extractfile(m).read())
evil = io.BytesIO()
with tarfile.open(fileobj=evil, mode="w") as t:
    ti = tarfile.TarInfo("../escape.txt")
    ti.size = 1
    t.addfile(ti, io.BytesIO(b"x"))
evil.seek(0)
with tarfile.open(fileobj=evil) as t:
    try:
        t.extractall("evil_out", filter="data")
    except tarfile.FilterError as e:
        print(type(e).__name__, str(e).replace(d, "D"))
with zipfile.ZipFile("z.zip", "w", zipfile.ZIP_DEFLATED) as z:
    z.write("proj/pkg/mod.py")
    z.write("proj/readme.md", arcname="README.md")
    z.writestr("notes/n.txt", "written from a string\n")
    z.writestr(zipfile.ZipInfo("fixed.txt", date_time=(2020, 1, 2, 3, 4, 6)), b"fixed")
    z.mkdir("emptydir") if hasattr(z, "mkdir") else z.writestr("emptydir/", "")
with zipfile.ZipFile("z.zip") as z:
    for i in z.infolist():
        print(i.filename, i.file_size, i.is_dir(), i.compress_type, i.date_time if i.filename == "fixed.txt" else "")
    print(z.namelist(), z.read("notes/n.txt"), z.testzip())
    with z.open("README.md") as f:
        print(f.read())
    print(oct(z.getinfo("README.md").external_attr >> 16))
    try:
        z.read("nope")
    except KeyError as e:
        print("KeyError", e)
    z.extractall("zout")
    z.extract("README.md", "zone")
print(sorted(os.listdir("zout")), open("zout/fixed.txt").read(), os.listdir("zone"))
with zipfile.ZipFile("z.zip", "a") as z:
    z.writestr("added.txt", "more")
print(zipfile.ZipFile("z.zip").namelist()[-1], zipfile.is_zipfile("z.zip"), zipfile.is_zipfile("b.tar"))
try:
    zipfile.ZipFile("b.tar")
except zipfile.BadZipFile as e:
    print("BadZipFile", e)
try:
    zipfile.ZipFile("nosuch.zip")
except FileNotFoundError as e:
    print("missing", e.errno, e.strerror, e.filename)
zp = zipfile.Path("z.zip")
print(sorted(p.name for p in zp.iterdir()), (zp / "notes" / "n.txt").read_text())
with gzip.open("g.txt.gz", "wt", encoding="utf-8") as f:
    f.write("line one\nline two \u2713\n")
with gzip.open("g.txt.gz", "rt", encoding="utf-8") as f:
    print(f.readlines())
with open("g.txt.gz", "rb") as f:
    print(f.read(2), gzip.decompress(open("g.txt.gz", "rb").read()))
with gzip.open("g.txt.gz", "ab") as f:
    f.write(b"appended member\n")
print(gzip.open("g.txt.gz").read())
print(gzip.decompress(gzip.compress(b"x" * 1000, mtime=0)) == b"x" * 1000, len(gzip.compress(b"", mtime=0)))
try:
    gzip.open("proj/readme.md").read()
except gzip.BadGzipFile as e:
    print("BadGzipFile", e)
with bz2.open("b.bz2", "wt") as f:
    f.write("bz2 text\n")
with lzma.open("l.xz", "wt") as f:
    f.write("xz text\n")
print(bz2.open("b.bz2", "rt").read(), lzma.open("l.xz", "rt").read(), open("l.xz", "rb").read(6))
try:
    lzma.decompress(b"not xz")
except lzma.LZMAError as e:
    print("LZMAError", e)
