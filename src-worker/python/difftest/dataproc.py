# Data processing as agents write it: csv, json, re, collections, itertools, statistics.
import csv
import io
import itertools
import json
import re
import statistics
from collections import Counter, OrderedDict, defaultdict, deque, namedtuple

raw = """name,dept,salary,start
Alice,eng,120000,2019-03-01
Bob,eng,95000,2020-07-15
Carol,sales,70000,2018-01-20
Dan,sales,82000.50,2021-11-02
Eve,ops,,2022-05-05
"""
rows = list(csv.DictReader(io.StringIO(raw)))
by_dept = defaultdict(list)
for r in rows:
    if r["salary"]:
        by_dept[r["dept"]].append(float(r["salary"]))
for dept, vals in sorted(by_dept.items()):
    print(f"{dept:<6}{len(vals):>3}{statistics.mean(vals):>12.2f}{statistics.median(vals):>12.1f}")
print(statistics.stdev([1, 2, 3, 4, 10]), statistics.pvariance([2, 4, 4, 4, 5, 5, 7, 9]))
print(statistics.mode("aabbbc"), statistics.quantiles(range(1, 101), n=4), statistics.fmean([1, 2.5]))
out = io.StringIO()
w = csv.writer(out, quoting=csv.QUOTE_MINIMAL)
w.writerow(["a,b", 'say "hi"', 3, None, 1.5])
w.writerows([[1, 2], ["x\ny", ""]])
print(repr(out.getvalue()))
dw = csv.DictWriter(out := io.StringIO(), fieldnames=["k", "v"], lineterminator="\n")
dw.writeheader()
dw.writerow({"k": 1, "v": "two"})
print(out.getvalue(), end="")
print(list(csv.reader(["a;b;'c;d'"], delimiter=";", quotechar="'")))
print(csv.Sniffer().sniff("a;b;c\n1;2;3\n").delimiter)
data = {"users": [{"id": 1, "tags": ["x", "y"], "score": 9.5, "ok": True, "n": None}], "é": "ünï"}
print(json.dumps(data))
print(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False))
print(json.dumps(data, separators=(",", ":")), json.loads('{"a": [1, 2.0, 1e3, -0]}'))
try:
    json.loads('{"a": 1 "b"}')
except json.JSONDecodeError as e:
    print("JSONDecodeError:", e, e.lineno, e.colno, e.pos)
print(json.dumps(float("nan")), json.dumps({1: 2, "b": (1, 2)}), json.dumps("\u2603\n"))
log = """2024-01-02 10:00:01 ERROR db timeout after 30s
2024-01-02 10:00:05 INFO ok
2024-01-02 10:01:00 WARN disk 91% full
2024-01-02 10:02:13 ERROR api 500 on /v1/items
"""
pat = re.compile(r"^(?P<date>\S+) (?P<time>\S+) (?P<level>[A-Z]+) (?P<msg>.*)$", re.M)
for m in pat.finditer(log):
    print(m.group("level"), m["time"], m.groupdict()["msg"][:12], m.span())
print(Counter(m["level"] for m in pat.finditer(log)).most_common())
print(re.sub(r"(\d+)", lambda m: str(int(m[1]) * 2), "a1 b22 c333"), re.split(r"[,;]\s*", "a, b;c ,d"))
print(re.findall(r"\b\w+@\w+\.\w+\b", "x a@b.co y c@d.org"), re.fullmatch(r"\d{3}-\d{4}", "555-1234") is not None)
print(re.sub(r"\s+", " ", "  many   spaces\there\n").strip(), re.escape("a.b*c"), re.IGNORECASE | re.M)
c = Counter("mississippi")
print(c, c.most_common(2), c["z"], sorted(c.elements())[:4], c + Counter("ss"), c - Counter("ssss"))
od = OrderedDict(a=1, b=2)
od.move_to_end("a")
print(dict(od), list(od.items()))
dq = deque(range(5), maxlen=3)
dq.appendleft(9)
dq.rotate(1)
print(dq, dq.maxlen)
P = namedtuple("P", "x y", defaults=[0])
print(P(1), P(1, 2)._replace(y=5), P._fields, P(3, 4)._asdict())
print(list(itertools.islice(itertools.count(10, 5), 4)), list(itertools.accumulate([1, 2, 3, 4])))
print(list(itertools.chain.from_iterable([[1], [2, 3]])), list(itertools.product("ab", repeat=2)))
print(list(itertools.permutations([1, 2, 3], 2))[:4], list(itertools.combinations("abcd", 2)))
print([(k, list(g)) for k, g in itertools.groupby(sorted("aabbbcd"))], list(itertools.zip_longest("ab", "xyz", fillvalue="-")))
print(list(itertools.starmap(pow, [(2, 3), (3, 2)])), list(itertools.takewhile(lambda v: v < 3, [1, 2, 5, 1])))
print(sorted(rows, key=lambda r: (r["dept"], r["name"]), reverse=True)[0]["name"], max(rows, key=lambda r: r["start"])["name"])
print(f"{1234567.891:,.2f} {0.1234:.1%} {42:08b} {255:#x} {3.14159:e} {'x':^7}| {-5:+d} {1e20:g} {2/3!r}")
