# json edge cases: floats, specials, separators, sort_keys, non-str keys, hooks, errors, json.tool flags.
import json, subprocess, sys, tempfile, os, decimal, collections
print(json.dumps([1.0, 1e16, 1e-7, 0.1, -0.0, 2**64, 3.14159, 1e300 * 10, float("nan"), -float("inf")]))
print(json.dumps({"b": 1, "a": [1, 2, {"c": None}], 3: True, 2.5: "x", None: 0, False: 1}, sort_keys=False))
print(json.dumps({"b": 1, "a": 2}, sort_keys=True, indent=2))
print(json.dumps([1, [2, []], {}], indent=0))
print(json.dumps({"a": [1, 2]}, indent="\t"))
print(json.dumps({"a": [1, 2]}, separators=(",", ":")))
print(json.dumps("h\u00e9llo \u2603 \U0001f600 \x00\x1f\"\\/"), json.dumps("h\u00e9llo \U0001f600", ensure_ascii=False))
try:
    json.dumps({(1, 2): 3})
except TypeError as e:
    print("TypeError", e)
try:
    json.dumps(object())
except TypeError as e:
    print("TypeError", str(e).split(" at ")[0])
try:
    json.dumps(float("nan"), allow_nan=False)
except ValueError as e:
    print("ValueError", str(e).split(":")[0])
try:
    json.dumps({1, 2})
except TypeError as e:
    print("TypeError", e)
print(json.dumps({"s": {1, 2}}, default=sorted), json.dumps(decimal.Decimal("1.10"), default=str))
print(json.dumps({"a": 1, "b": 2}, skipkeys=True), json.dumps({(1,): 2, "k": 1}, skipkeys=True))
print(json.loads('[1, 1.5, 1e2, -0, -0.0, 1E-2, 12345678901234567890123, "\\u00e9\\ud83d\\ude00"]'))
print(json.loads("NaN"), json.loads("[Infinity, -Infinity]"), json.loads('"\\ud800"') == "\ud800")
print(json.loads('{"a": 1, "a": 2}'), json.loads('{"a": 1, "a": 2}', object_pairs_hook=list))
print(json.loads('{"x": 1.1}', parse_float=decimal.Decimal), json.loads('[1]', parse_int=float), json.loads('{"q": 1}', object_hook=lambda d: sorted(d.items())))
print(json.loads(b'{"bytes": true}'), json.loads('{"bom": 1}'.encode("utf-16")), json.loads(bytearray(b"[2]")))
for bad in ['', '{', '{"a" 1}', "{'a': 1}", '[1 2]', '"abc', 'tru', '01', '1.', '"\\x"', '[1]x', '{"a":\n  nul}', '\ufeff[1]', '"\t"', '-', '1e', '{"a":1 "b":2}', '[,1]']:
    try:
        json.loads(bad)
        print("ok?", repr(bad))
    except json.JSONDecodeError as e:
        print(repr(bad), "->", e, "|", e.msg, e.pos, e.lineno, e.colno)
try:
    json.loads(123)
except TypeError as e:
    print("TypeError", e)
class E(json.JSONEncoder):
    def default(self, o):
        if isinstance(o, complex):
            return [o.real, o.imag]
        return super().default(o)
print(json.dumps([1j, 2 + 3j], cls=E), E(indent=1, sort_keys=True).encode({"z": 1, "y": [1]}))
print(list(E().iterencode({"a": [1, 2]}))[:4])
d = json.JSONDecoder()
print(d.raw_decode('{"a": 1} tail'), d.raw_decode('  [1]'[2:]))
print(json.dumps(collections.OrderedDict([("z", 1), ("a", 2)])), json.dumps((1, 2)), json.dumps(True), json.dumps(None), json.dumps("x" * 3))
class Big(int):
    pass
class MyStr(str):
    pass
print(json.dumps([Big(5), MyStr("s"), 1.5e-10, 123456789.123]))
t = tempfile.mkdtemp()
p = os.path.join(t, "in.json")
with open(p, "w") as f:
    f.write('{"b": [1, 2, {"x": "\u00e9"}], "a": null}')
def tool(*args, stdin=None):
    r = subprocess.run([sys.executable, "-m", "json.tool", *args], capture_output=True, text=True, input=stdin)
    print([os.path.basename(a) for a in args], r.returncode, repr(r.stdout), repr(r.stderr))
tool(p)
tool("--sort-keys", p)
tool("--indent", "1", p)
tool("--tab", p)
tool("--compact", p)
tool("--no-ensure-ascii", p)
tool("--json-lines", stdin='{"a": 1}\n[2]\n\n3\n')
tool(stdin='{"a": [1,2]}')
tool(stdin='{"a": }')
tool(stdin='')
tool(p, os.path.join(t, "out.json"))
print(open(os.path.join(t, "out.json")).read())
