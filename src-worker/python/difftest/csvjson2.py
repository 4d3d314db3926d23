# csv and json round trips on files as agents write them: DictWriter/DictReader, quoting, embedded
# newlines, newline='' (and the doubled \r without it), json indent/ensure_ascii, JSON lines, errors.
import csv
import json
import os
import tempfile

d = tempfile.mkdtemp()
rows = [
    {"id": 1, "name": "Ann", "note": 'says "hi"', "score": 9.5},
    {"id": 2, "name": "Bob, Jr.", "note": "two\nlines", "score": None},
    {"id": 3, "name": "Zo\u00eb \u2713", "note": "", "score": 0},
]
p = os.path.join(d, "data.csv")
with open(p, "w", newline="", encoding="utf-8") as f:
    w = csv.DictWriter(f, fieldnames=["id", "name", "note", "score"])
    w.writeheader()
    w.writerows(rows)
print(open(p, "rb").read())
with open(p, newline="", encoding="utf-8") as f:
    back = list(csv.DictReader(f))
print(back)
print([r["note"] for r in back] == [r["note"] for r in rows])
with open(p, "w", encoding="utf-8") as f:
    csv.writer(f).writerow(["a", "b\nc"])
print("without newline=''", open(p, "rb").read())
with open(p, "w", newline="") as f:
    w = csv.writer(f, quoting=csv.QUOTE_NONNUMERIC)
    w.writerow(["x", 1, 2.5, None, -0.0])
    w = csv.writer(f, quoting=csv.QUOTE_ALL, lineterminator="\n")
    w.writerow(["x", 1])
    w = csv.writer(f, delimiter="\t", quoting=csv.QUOTE_MINIMAL, escapechar="\\")
    w.writerow(["tab\there", "plain", ""])
print(open(p, "rb").read())
with open(p, newline="") as f:
    print(next(csv.reader(f, quoting=csv.QUOTE_NONNUMERIC)))
try:
    csv.writer(open(os.devnull, "w"), quoting=csv.QUOTE_NONE).writerow(["a,b"])
except csv.Error as e:
    print("csv.Error", e)
with open(p, "w", newline="") as f:
    f.write('a,b\n1,"unterminated\n')
try:
    with open(p, newline="") as f:
        r = csv.reader(f, strict=True)
        for row in r:
            print(row, r.line_num)
except csv.Error as e:
    print("csv.Error", e)
with open(p, "w", newline="") as f:
    f.write("name,age\nann,30,extra\nbob\n")
with open(p, newline="") as f:
    for r in csv.DictReader(f, restkey="rest", restval="?"):
        print(r)
try:
    csv.DictWriter(open(os.devnull, "w"), ["a"]).writerow({"a": 1, "b": 2})
except ValueError as e:
    print(e)
j = os.path.join(d, "data.json")
with open(j, "w", encoding="utf-8") as f:
    json.dump(rows, f, indent=2, ensure_ascii=False)
print(open(j, encoding="utf-8").read())
with open(j, encoding="utf-8") as f:
    print(json.load(f) == rows)
with open(j, "w") as f:
    json.dump({"b": 1, "a": [1, {"z": None, "y": 1.0}], "u": "\u00e9"}, f, sort_keys=True, indent="\t")
print(open(j, "rb").read())
jl = os.path.join(d, "events.jsonl")
with open(jl, "w") as f:
    for i in range(3):
        f.write(json.dumps({"n": i, "sq": i * i}) + "\n")
with open(jl, "a") as f:
    f.write("{bad json}\n\n")
good, bad = [], []
with open(jl) as f:
    for ln, line in enumerate(f, 1):
        if not line.strip():
            continue
        try:
            good.append(json.loads(line))
        except json.JSONDecodeError as e:
            bad.append((ln, e.msg, e.lineno, e.colno, e.pos, str(e)))
print(good, bad)
# (a trailing comma has its own message from 3.13 on)
for text in ("[1, 2", '{"a" 1}', "", "nan", '"\\x"', '{"a": 1} extra', "\ufeff{}"):
    try:
        print(json.loads(text))
    except json.JSONDecodeError as e:
        print(repr(text), "->", e)
with open(j, "wb") as f:
    f.write(b'\xef\xbb\xbf{"bom": true}')
try:
    json.load(open(j, encoding="utf-8"))
except json.JSONDecodeError as e:
    print(e)
print(json.load(open(j, encoding="utf-8-sig")), json.loads(open(j, "rb").read()))
try:
    json.dumps({"s": {1, 2}})
except TypeError as e:
    print(e)
print(json.dumps({"s": {1, 2}}, default=sorted), json.dumps([1e100, 1.5, -0.0, 10**20]), json.dumps("\u2028\x00\x1f"))
print(json.dumps({1: "a", None: "b", True: "c", 2.5: "d"}))
try:
    json.dumps({(1, 2): "x"})
except TypeError as e:
    print(e)
try:
    json.dumps(float("nan"), allow_nan=False)
except ValueError as e:
    print(str(e).split(":")[0])  # 3.13 appends the value
print(json.loads('{"a": 1, "a": 2}'), json.loads("1e400"), json.loads("[1.0, 10000000000000000000000]"))
csvp = os.path.join(d, "from_json.csv")
with open(csvp, "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=sorted({k for r in rows for k in r}), extrasaction="ignore")
    w.writeheader()
    for r in rows:
        w.writerow(r)
with open(csvp, newline="") as f:
    print(json.dumps(list(csv.DictReader(f)), indent=1))
print(csv.Sniffer().sniff("a;b;c\n1;2;3\n").delimiter, csv.Sniffer().has_header("name,age\nann,30\nbob,41\n"))
print(csv.list_dialects(), csv.field_size_limit())
