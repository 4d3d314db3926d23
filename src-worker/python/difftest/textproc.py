# Text processing as agents' scripts do it: word counts, log parsing, CSV aggregation, JSON transforms, reports to files.
import collections, csv, io, json, os, re, statistics, tempfile, string
d = tempfile.mkdtemp(); os.chdir(d)
log = """2024-03-01 12:00:01 INFO  [web] GET /index.html 200 12ms
2024-03-01 12:00:02 WARN  [web] GET /missing 404 3ms
2024-03-01 12:00:05 ERROR [db] connection refused (retry 1)
2024-03-01 12:01:00 INFO  [web] POST /api/items 201 45ms
2024-03-01 12:01:30 ERROR [web] GET /api/items 500 120ms
2024-03-01 12:02:00 INFO  [worker] job 17 done in 3.5s
"""
with open("app.log", "w") as f:
    f.write(log)
pat = re.compile(r"^(?P<date>\S+) (?P<time>\S+) (?P<level>\w+)\s+\[(?P<comp>\w+)\] (?P<msg>.*)$")
levels = collections.Counter()
by_comp = collections.defaultdict(list)
with open("app.log") as f:
    for lineno, line in enumerate(f, 1):
        m = pat.match(line.rstrip("\n"))
        if not m:
            print("no match", lineno)
            continue
        levels[m["level"]] += 1
        by_comp[m["comp"]].append(m["msg"])
print(levels.most_common(), dict(sorted(by_comp.items())))
times = [int(x) for x in re.findall(r"(\d+)ms", log)]
print(times, statistics.mean(times), statistics.median(times), max(times), f"{statistics.pstdev(times):.3f}")
status = collections.Counter(re.findall(r" (\d{3}) ", log))
print(sorted(status.items()), [l for l in log.splitlines() if "ERROR" in l][0][20:])
text = "It was the best of times, it was the worst of times; it was the age of wisdom. " * 3
words = re.findall(r"[a-z']+", text.lower())
freq = collections.Counter(words)
print(len(words), len(freq), freq.most_common(5), sorted(w for w, c in freq.items() if c == 3))
print(text.translate(str.maketrans("", "", string.punctuation))[:40], text.title()[:30], text.swapcase()[:10], text.count("was"), text.find("worst"), text.rfind("times"))
rows = [("region", "product", "units", "price"), ("north", "apple", "10", "1.5"), ("south", "apple", "4", "1.5"), ("north", "pear", "7", "2.25"), ("south", "pear", "", "2.25"), ("east", "fig", "3", "4")]
with open("sales.csv", "w", newline="") as f:
    csv.writer(f).writerows(rows)
totals = collections.defaultdict(float)
skipped = 0
with open("sales.csv", newline="") as f:
    for r in csv.DictReader(f):
        try:
            totals[r["region"]] += int(r["units"]) * float(r["price"])
        except ValueError:
            skipped += 1
print(dict(totals), skipped, round(sum(totals.values()), 2))
with open("report.txt", "w") as f:
    f.write(f"{'Region':<10}{'Revenue':>10}\n")
    f.write("-" * 20 + "\n")
    for region, rev in sorted(totals.items(), key=lambda kv: -kv[1]):
        f.write(f"{region:<10}{rev:>10.2f}\n")
print(open("report.txt").read(), end="")
data = {"users": [{"name": "ann", "age": 31, "tags": ["a", "b"]}, {"name": "bob", "age": 25, "tags": []}, {"name": "cy", "age": 40, "tags": ["b"]}]}
with open("users.json", "w") as f:
    json.dump(data, f, indent=2)
with open("users.json") as f:
    loaded = json.load(f)
older = [u["name"] for u in loaded["users"] if u["age"] > 30]
tags = sorted({t for u in loaded["users"] for t in u["tags"]})
print(older, tags, json.dumps({u["name"]: len(u["tags"]) for u in loaded["users"]}, sort_keys=True))
with open("users.jsonl", "w") as f:
    for u in loaded["users"]:
        f.write(json.dumps(u) + "\n")
print([json.loads(l)["age"] for l in open("users.jsonl")])
lines = ["  keep  ", "", "# comment", "value=1", "  key = two words  ", "bad line"]
conf = {}
for l in lines:
    l = l.strip()
    if not l or l.startswith("#"):
        continue
    if "=" not in l:
        print("skip", repr(l))
        continue
    k, _, v = l.partition("=")
    conf[k.strip()] = v.strip()
print(conf)
src = "alpha\nbeta\ngamma\n"
with open("in.txt", "w") as f:
    f.write(src)
with open("in.txt") as fin, open("out.txt", "w") as fout:
    for i, line in enumerate(fin, 1):
        fout.write(f"{i:03d}: {line}")
print(open("out.txt").read().splitlines())
with open("in.txt", "r+") as f:
    content = f.read()
    f.seek(0)
    f.write(content.replace("beta", "BETA"))
    f.truncate()
print(repr(open("in.txt").read()))
print("\n".join(f"{k:>6}|{'#' * v}" for k, v in sorted(levels.items())))
table = [["name", "qty"], ["apples", 3], ["kiwis", 12]]
widths = [max(len(str(r[i])) for r in table) for i in range(2)]
for r in table:
    print(" | ".join(str(c).ljust(w) for c, w in zip(r, widths)))
print(re.sub(r"(\d{4})-(\d{2})-(\d{2})", r"\3/\2/\1", "on 2024-03-01 and 2023-12-31"), re.sub(r"\s+", " ", "  too   many\tspaces \n"), "snake_case_name".title().replace("_", ""), re.sub(r"(?<!^)(?=[A-Z])", "_", "CamelCaseName").lower())
