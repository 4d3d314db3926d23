# Small tasks agents script: walk a tree, summarise files, regex, collections, itertools, dataclasses, enum, typing.
import collections
import dataclasses
import enum
import functools
import glob
import itertools
import os
import re
import shutil
import tempfile
from pathlib import Path

root = Path(tempfile.mkdtemp())
for i, name in enumerate(["src/a.py", "src/b.py", "src/sub/c.txt", "README.md", "data/x.csv", "data/y.csv"]):
    p = root / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(f"line {i}\n" * (i + 1) + ("TODO: fix\n" if i % 2 else ""))
print(sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()))
print(sorted(os.path.relpath(p, root) for p in glob.glob(str(root / "**/*.py"), recursive=True)))
for dirpath, dirnames, filenames in sorted(os.walk(root)):
    dirnames.sort()
    print(os.path.relpath(dirpath, root), sorted(dirnames), sorted(filenames))
todos = {str(p.relative_to(root)): n for p in sorted(root.rglob("*")) if p.is_file() and (n := p.read_text().count("TODO"))}
print(todos)
sizes = collections.Counter(p.suffix for p in sorted(root.rglob("*")) if p.is_file())
print(sorted(sizes.items()), sizes.most_common(1))
shutil.copytree(root / "src", root / "copy")
print(sorted(p.name for p in (root / "copy").rglob("*")))
shutil.rmtree(root / "copy")
shutil.move(str(root / "README.md"), str(root / "docs.md"))
print((root / "docs.md").exists(), (root / "README.md").exists())
arch = shutil.make_archive(str(root / "arch"), "zip", root / "data")
print(os.path.basename(arch), sorted(__import__("zipfile").ZipFile(arch).namelist()))
print(shutil.disk_usage(root).total > 0)
print(re.findall(r"(\w+)=(\d+)", "a=1 b=22 c=x"), re.sub(r"(?P<w>\w+)@", r"<\g<w>>", "me@ you@"), re.split(r"[,;]\s*", "a, b;c"))
m = re.match(r"(?P<y>\d{4})-(?P<m>\d\d)", "2024-05-x")
print(m.groupdict(), m.span(), m.group(0), bool(re.fullmatch(r"\d+", "12a")))
try:
    re.compile("(unclosed")
except re.error as e:
    print("re error:", e)


@dataclasses.dataclass(order=True)
class Item:
    name: str
    qty: int = 0
    tags: list = dataclasses.field(default_factory=list)


items = [Item("b", 2), Item("a", 5, ["x"])]
print(sorted(items), dataclasses.asdict(items[1]), dataclasses.replace(items[0], qty=9))


class Color(enum.Enum):
    RED = 1
    GREEN = 2


class Perm(enum.IntFlag):
    R = 4
    W = 2
    X = 1


print(Color.RED, repr(Color.GREEN), Color(2).name, list(Color), Perm.R | Perm.W, repr(Perm(7)), str(Perm(6)))
print(list(itertools.islice(itertools.cycle("ab"), 5)), list(itertools.accumulate([1, 2, 3])), list(itertools.pairwise("abc")), list(itertools.batched(range(5), 2)) if hasattr(itertools, "batched") else [(0, 1), (2, 3), (4,)])
print([(k, len(list(g))) for k, g in itertools.groupby("aaabcc")], list(itertools.product("ab", repeat=2))[:3], list(itertools.combinations(range(4), 2))[-1])


@functools.lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


print(fib(80), fib.cache_info(), functools.reduce(lambda a, b: a * b, range(1, 10)))
print(list(collections.OrderedDict(a=1, b=2).items()), collections.defaultdict(list, {"x": [1]}), collections.deque(range(5), maxlen=3), collections.namedtuple("P", "x y")(1, 2))
print(collections.ChainMap({"a": 1}, {"a": 2, "b": 3})["b"], sorted(collections.Counter("hello").elements()))
