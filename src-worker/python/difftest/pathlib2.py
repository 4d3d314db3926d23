# pathlib as scripts use it: construction and parts, globbing, walking, reading and writing, renames, errors.
import os, pathlib, tempfile, stat
from pathlib import Path, PurePosixPath
base = Path(tempfile.mkdtemp())
os.chdir(base)
p = PurePosixPath("/usr/local/lib/python3/site.tar.gz")
print(p.name, p.stem, p.suffix, p.suffixes, p.parent, list(p.parents)[:3], p.parts, p.anchor, p.root, p.is_absolute(), p.with_name("x.py"), p.with_stem("y") if hasattr(p, "with_stem") else "", p.with_suffix(""), p.relative_to("/usr"), p.match("*.gz"), p.match("lib/*/*.gz"), PurePosixPath("a") / "b" / "../c", PurePosixPath("a//b/./c"), str(PurePosixPath("")), PurePosixPath("/a", "/b"))
print(Path("x/y").as_posix(), Path("/").name == "", Path("~").expanduser() == Path.home(), Path.cwd() == base.resolve() or Path.cwd() == base, repr(PurePosixPath("a/b")), PurePosixPath("a") == PurePosixPath("a/"), PurePosixPath("b") > PurePosixPath("a"), hash(PurePosixPath("q")) == hash(PurePosixPath("q")))
(base / "src" / "pkg").mkdir(parents=True)
for rel, text in [("src/a.py", "print('a')\n"), ("src/b.txt", "bee\n"), ("src/pkg/__init__.py", ""), ("src/pkg/mod.py", "X = 1\n"), ("src/.hidden", "h"), ("README.md", "# readme\n")]:
    (base / rel).write_text(text)
print(sorted(str(x.relative_to(base)) for x in base.rglob("*.py")), sorted(x.name for x in base.glob("src/*")), sorted(str(x) for x in Path("src").glob("**/*.py")), sorted(x.name for x in Path("src").iterdir()))
print(sorted(str(x) for x in Path(".").glob("*")), sorted(x.name for x in Path("src").glob("[ab].*")), list(Path("src").glob("nothing*")), sorted(str(x) for x in Path(".").rglob("*.md")))
walked = []
for root, dirs, files in os.walk("src"):
    dirs.sort()
    walked.append((root, sorted(files)))
print(walked)
if hasattr(Path, "walk"):
    print(sorted((str(r), sorted(f)) for r, d, f in Path("src").walk()))
else:
    print(sorted((r, sorted(f)) for r, d, f in os.walk("src")))
f = Path("src/b.txt")
print(f.read_text(), f.read_bytes(), f.exists(), f.is_file(), f.is_dir(), f.stat().st_size, f.owner() == f.owner(), oct(f.stat().st_mode & 0o777), f.suffix)
with f.open("a") as fh:
    fh.write("more\n")
print(f.read_text().splitlines(), f.write_text("new"), f.write_bytes(b"bytes"), f.read_text())
g = f.rename("src/c.txt"); print(g, f.exists(), g.exists(), type(g).__name__)
h = g.replace(Path("src/d.txt")); print(h, sorted(x.name for x in Path("src").iterdir()))
Path("link.txt").symlink_to("src/d.txt"); print(Path("link.txt").is_symlink(), Path("link.txt").readlink() if hasattr(Path, "readlink") else os.readlink("link.txt"), Path("link.txt").resolve() == Path("src/d.txt").resolve(), Path("link.txt").read_text())
Path("dangling").symlink_to("nope"); print(Path("dangling").exists(), Path("dangling").is_symlink(), Path("dangling").lstat().st_size > 0)
Path("src/d.txt").chmod(0o600); print(oct(Path("src/d.txt").stat().st_mode & 0o777), stat.filemode(Path("src/d.txt").stat().st_mode))
print(Path("src/d.txt").samefile("link.txt"), Path("src/./d.txt").resolve() == (base / "src/d.txt").resolve(), Path("src/../README.md").resolve().name, Path("src/nope/../d.txt").resolve(strict=False).name)
for fn, arg in [(Path.read_text, "missing.txt"), (Path.mkdir, "src"), (Path.rmdir, "src"), (Path.unlink, "src"), (Path.iterdir, "README.md"), (Path.read_text, "src")]:
    try:
        r = fn(Path(arg))
        if hasattr(r, "__next__"):
            list(r)
        print("ok?", fn.__name__, arg)
    except OSError as e:
        print(fn.__name__, arg, type(e).__name__, e.errno, e.strerror, e.filename)
try:
    Path("missing.txt").resolve(strict=True)
except FileNotFoundError as e:
    print("strict", type(e).__name__, e.strerror)
Path("src/pkg/sub/deeper").mkdir(parents=True, exist_ok=True)
Path("src/pkg/sub/deeper").mkdir(parents=True, exist_ok=True)
try:
    Path("a/b/c").mkdir()
except FileNotFoundError as e:
    print("FileNotFoundError", e.strerror)
Path("empty").mkdir(); Path("empty").rmdir(); print(Path("empty").exists())
Path("t.txt").touch(); print(Path("t.txt").stat().st_size, Path("t.txt").is_file()); Path("t.txt").unlink(); print(Path("t.txt").exists())
print(Path("a/b.txt").with_suffix(".md"), Path("archive.tar.gz").with_suffix(".zip"), Path("/a/b").joinpath("c", "d"), Path("x") / Path("/abs"), Path("rel").absolute() == base / "rel" or Path("rel").absolute().name == "rel")
try:
    Path("a").with_suffix("md")
except ValueError as e:
    print("ValueError", e)
try:
    Path("a") / 5
except TypeError as e:
    print("TypeError", type(e).__name__)
print(sorted(p.name for p in Path("src").glob("*") if p.is_file()), max(Path("src").rglob("*"), key=lambda p: len(p.parts)).parts[-1], sum(p.stat().st_size for p in Path("src").rglob("*") if p.is_file()))
print(os.fspath(Path("q")), str(Path("q")), f"{Path('q/r')}", Path("q").__fspath__(), open(Path("README.md")).read().strip())
