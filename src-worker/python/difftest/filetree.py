# File trees: os.walk, pathlib, glob, shutil, tempfile, zipfile, tarfile, gzip on sandbox files.
import filecmp
import glob
import gzip
import hashlib
import io
import os
import pathlib
import shutil
import stat
import tarfile
import tempfile
import zipfile

root = pathlib.Path(tempfile.mkdtemp(prefix="tree"))
for rel, text in {
    "src/main.py": "print('hi')\n",
    "src/util/helpers.py": "X = 1\n",
    "src/util/__init__.py": "",
    "docs/readme.md": "# Title\n\nbody\n",
    "data/a.csv": "a,b\n1,2\n",
    "data/deep/b.json": '{"k": 1}\n',
    ".hidden/x.txt": "secret\n",
}.items():
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)
for dirpath, dirnames, filenames in os.walk(root):
    dirnames.sort()
    rel = os.path.relpath(dirpath, root)
    print(rel, sorted(dirnames), sorted(filenames))
print([str(p.relative_to(root)) for p in sorted(root.rglob("*.py"))])
print(sorted(str(p.relative_to(root)) for p in root.glob("**/*.json")), sorted(p.name for p in root.iterdir()))
print(sorted(os.path.relpath(p, root) for p in glob.glob(str(root / "**" / "*"), recursive=True))[:6])
print(sorted(glob.glob("*.md", root_dir=root / "docs")), glob.escape("a[b]"))
total = sum(p.stat().st_size for p in root.rglob("*") if p.is_file())
print("bytes", total, (root / "src/main.py").read_text().strip(), (root / "src").is_dir(), (root / "nope").exists())
p = root / "docs/readme.md"
print(p.suffix, p.stem, p.name, p.parent.name, p.with_suffix(".txt").name, p.parts[-2:], p.match("*.md"))
shutil.copytree(root / "src", root / "src_copy")
shutil.copy2(root / "data/a.csv", root / "data/a2.csv")
print(filecmp.cmp(root / "data/a.csv", root / "data/a2.csv", shallow=False), sorted(os.listdir(root / "src_copy")))
shutil.move(str(root / "src_copy"), str(root / "moved"))
print((root / "moved/util/helpers.py").exists(), (root / "src_copy").exists())
os.chmod(root / "src/main.py", 0o750)
print(oct(stat.S_IMODE(os.stat(root / "src/main.py").st_mode)), stat.filemode(os.stat(root / "src/main.py").st_mode))
arch = shutil.make_archive(str(root / "out"), "zip", root / "data")
with zipfile.ZipFile(arch) as z:
    print(sorted(z.namelist()), z.read("a.csv"), z.testzip())
zp = root / "made.zip"
with zipfile.ZipFile(zp, "w", compression=zipfile.ZIP_DEFLATED) as z:
    z.writestr("hello.txt", "hello " * 100)
    z.write(root / "docs/readme.md", arcname="docs/readme.md")
with zipfile.ZipFile(zp) as z:
    info = z.getinfo("hello.txt")
    print([i.filename for i in z.infolist()], info.file_size, info.compress_size < info.file_size)
    z.extractall(root / "unz")
print(sorted(str(p.relative_to(root / "unz")) for p in (root / "unz").rglob("*")))
tp = root / "t.tar.gz"
with tarfile.open(tp, "w:gz") as t:
    t.add(root / "data", arcname="data")
with tarfile.open(tp) as t:
    print(sorted(m.name for m in t.getmembers()), t.extractfile("data/a.csv").read())
    t.extractall(root / "untar", filter="data")
print((root / "untar/data/deep/b.json").read_text().strip())
gz = root / "x.gz"
with gzip.open(gz, "wt") as g:
    g.write("line\n" * 3)
with gzip.open(gz, "rt") as g:
    print(g.read().splitlines(), gzip.decompress(gzip.compress(b"abc")))
print(hashlib.sha256((root / "data/a.csv").read_bytes()).hexdigest()[:16], hashlib.md5(b"x").hexdigest())
with tempfile.TemporaryDirectory() as td:
    fp = os.path.join(td, "f")
    with open(fp, "w") as f:
        f.write("x")
    print(os.path.exists(fp))
print(os.path.exists(td))
with tempfile.NamedTemporaryFile("w+", suffix=".txt", delete=True) as nt:
    nt.write("data")
    nt.seek(0)
    print(nt.read(), nt.name.endswith(".txt"))
sp = tempfile.SpooledTemporaryFile(max_size=10)
sp.write(b"0123456789abc")
sp.seek(0)
print(sp.read())
b = io.BytesIO()
with zipfile.ZipFile(b, "w") as z:
    z.writestr("m.txt", "mem")
print(zipfile.ZipFile(io.BytesIO(b.getvalue())).read("m.txt"), zipfile.is_zipfile(zp), tarfile.is_tarfile(tp))
usage = shutil.disk_usage(root)
print(usage.total >= usage.used >= 0)
shutil.rmtree(root)
print(root.exists())
