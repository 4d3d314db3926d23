# json and csv edge cases.
import csv
import io
import json
import math
from decimal import Decimal

print(json.dumps({"b": 1, "a": [1.0, 2.5e-10, None, True], "u": "é✓\n"}))
print(json.dumps({"b": 1, "a": 2}, sort_keys=True, indent=2, ensure_ascii=False))
print(json.dumps([1, {"x": "é"}], separators=(",", ":"), ensure_ascii=False))
print(json.dumps(float("nan")), json.dumps(float("inf")), json.dumps(-0.0), json.dumps(1e16), json.dumps(123456789012345678901234567890))
try:
    json.dumps({1, 2})
except TypeError as e:
    print(e)
print(json.dumps({1: "a", None: "b", 2.5: "c", True: "d"}))
for bad in ["[1, 2", "", "{'a': 1}", '{"a" 1}', "nan", "[1] x", '"\\x"']:
    try:
        json.loads(bad)
    except json.JSONDecodeError as e:
        print(repr(bad), e, e.pos, e.lineno, e.colno)
print(json.loads("NaN"), json.loads('{"a": 1, "a": 2}'), json.loads("1.5", parse_float=Decimal), json.loads('"\\ud83d\\ude00"'))
print(json.loads('[1, 2]', object_pairs_hook=None), json.loads('{"x": 1}', object_hook=lambda d: sorted(d)))
print(json.dumps(Decimal("1.1"), default=str), json.dumps("\u2028\x7f\x00"))
s = io.StringIO()
w = csv.writer(s)
w.writerow(["a", "b,c", 'd"e', "f\ng", None, 1.5, ""])
w.writerows([[1, 2], []])
print(repr(s.getvalue()))
rows = list(csv.reader(io.StringIO(s.getvalue())))
print(rows)
s = io.StringIO()
dw = csv.DictWriter(s, fieldnames=["x", "y"], extrasaction="ignore", quoting=csv.QUOTE_NONNUMERIC)
dw.writeheader()
dw.writerow({"x": 1, "y": "two", "z": 3})
print(repr(s.getvalue()))
print(list(csv.DictReader(io.StringIO("x;y\n1;2\n3\n"), delimiter=";")))
print(list(csv.reader(io.StringIO("a\tb\n'c d'\te\n"), delimiter="\t", quotechar="'")))
print(csv.Sniffer().sniff("a;b;c\n1;2;3\n").delimiter, csv.Sniffer().has_header("name,age\nbob,3\nann,4\n"))
try:
    list(csv.reader(io.StringIO('a,"b\n'), strict=True))
except csv.Error as e:
    print("csv error", e)
print(csv.list_dialects())
print(math.isclose(json.loads(json.dumps(0.1 + 0.2)), 0.30000000000000004))
