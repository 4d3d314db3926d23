# decimal, fractions, random with a seed, statistics, math, textwrap, string, pprint, heapq, bisect, formatting.
import decimal, fractions, random, statistics, math, textwrap, string, pprint, heapq, bisect, operator
from decimal import Decimal as D
print(D("1.1") + D("2.2"), D("1") / D("3"), D("10").sqrt(), D("1.005").quantize(D("0.01")), D("1.005").quantize(D("0.01"), rounding=decimal.ROUND_HALF_UP), D(0.1), D("1e5").normalize(), D("-0"), D("NaN"), D("inf"))
ctx = decimal.getcontext(); print(ctx.prec, ctx.rounding)
decimal.getcontext().prec = 6; print(D(1) / D(7)); decimal.getcontext().prec = 28
try:
    D("abc")
except decimal.InvalidOperation as e:
    print("InvalidOperation", type(e).__name__, e.args[0] if e.args else "")
try:
    D(1) / D(0)
except decimal.DivisionByZero as e:
    print("DivisionByZero", e.args[0] if e.args else "")
print(f"{D('1234.5678'):,.2f}", f"{D('0.000012'):e}", round(D("2.675"), 2), int(D("7.9")), D("3.14").as_tuple(), D(5).compare(D(3)), sum([D("0.1")] * 10))
F = fractions.Fraction
print(F(1, 3) + F(1, 6), F("0.75"), F(0.5), F(3, -9), F(1, 3) ** 2, float(F(1, 3)), F(355, 113).limit_denominator(10), F(7, 2).__floor__(), round(F(7, 2)), F(1, 3) < 0.34, F(1.1).limit_denominator())
try:
    F(1, 0)
except ZeroDivisionError as e:
    print("ZeroDivisionError", e)
random.seed(42)
print(random.random(), random.randint(1, 100), random.choice("abcdef"), random.sample(range(100), 5), random.uniform(1, 2), random.randrange(0, 100, 5), random.getrandbits(32))
l = list(range(10)); random.shuffle(l); print(l, random.choices("abc", weights=[1, 2, 3], k=5), random.gauss(0, 1), random.triangular(), random.betavariate(2, 3), random.expovariate(1), random.normalvariate(0, 1))
random.seed("string seed"); print(random.random()); random.seed(b"bytes"); print(random.random())
r = random.Random(7); print(r.random(), r.randint(0, 9)); st = r.getstate(); a = r.random(); r.setstate(st); print(a == r.random())
print(random.Random(1).randbytes(8).hex())
data = [2.5, 3.1, 4.7, 1.2, 3.1, 9.0, 5.5]
print(statistics.mean(data), statistics.median(data), statistics.mode(data), statistics.stdev(data), statistics.pstdev(data), statistics.variance(data), statistics.median_low([1, 2, 3, 4]), statistics.median_high([1, 2, 3, 4]), statistics.quantiles(data, n=4), statistics.harmonic_mean([1, 2, 4]), statistics.geometric_mean([1, 2, 4]), statistics.multimode([1, 1, 2, 2]), statistics.fmean([1, 2]))
try:
    statistics.mean([])
except statistics.StatisticsError as e:
    print("StatisticsError", e)
print(statistics.correlation([1, 2, 3], [2, 4, 7]), statistics.linear_regression([1, 2, 3], [2, 4, 6]), round(statistics.NormalDist(0, 1).cdf(1.96), 12))
print(math.pi, math.e, math.tau, math.inf, math.nan, math.sqrt(2), math.factorial(20), math.comb(10, 3), math.perm(5, 2), math.gcd(12, 18), math.lcm(4, 6), math.isqrt(99), math.log(100, 10), math.log2(8), math.log10(0.001), math.exp(1), math.floor(-2.5), math.ceil(-2.5), math.trunc(-2.5), math.hypot(3, 4), math.dist((0, 0), (1, 1)), math.prod([1, 2, 3]), math.fsum([0.1] * 10), math.isclose(0.1 + 0.2, 0.3), math.copysign(1, -0.0), math.fmod(-7, 3), math.modf(2.5), math.frexp(8), math.ldexp(1, 3), math.degrees(math.pi), math.atan2(1, 1), math.sin(1), math.cosh(1), math.erf(1), math.gamma(5), math.lgamma(10))
for bad in ("math.factorial(-1)", "math.exp(1000)", "1/0", "2 ** 10000.0", "10.0 ** 400", "int('1' * 5000)"):
    try:
        eval(bad)
    except (ValueError, OverflowError, ZeroDivisionError) as e:
        print(bad, type(e).__name__, e)
print(round(2.5), round(3.5), round(-0.5), round(1.2345, 2), round(1234.5, -2), divmod(-7, 2), -7 // 2, -7 % 2, 7 / 2, 2 ** -1, 10 ** 20, 0.1 + 0.2, 1e16, 1.5e-7, 123456789.123456789, float("1e500"), -float("inf"), 3 * 0.1, 1 / 3)
print(f"{1234567.891:,.2f} {0.5:.0%} {42:08b} {255:#x} {255:X} {3.14159:10.3f}| {'left':<8}| {'right':>8}| {'mid':^9}| {-5:+d} {5: d} {1e-5:g} {1e20:g} {123.456:e} {12:o} {'x'!r} {1_000_000:_}", format(0.1, ".20f"), "%5.2f|%-6d|%s|%r|%c|%x|%%" % (3.14159, 42, "s", "r", 65, 255))
print(int("0x1f", 16), int("0b101", 0), int(" 42 "), int("1_000"), float(" 1.5 "), float("-inf"), hex(-255), oct(8), bin(-5), (255).to_bytes(2, "big"), int.from_bytes(b"\x01\x00", "little"), (10).bit_length(), (-1) .bit_count() if hasattr(int, "bit_count") else "", complex(1, 2) * 1j, abs(-3 + 4j), 7 .__rtruediv__(2))
for bad in ("int('abc')", "float('x')", "int('1.5')", "int(None)", "complex('1+')"):
    try:
        eval(bad)
    except (ValueError, TypeError) as e:
        print(bad, type(e).__name__, e)
text = "The quick brown fox jumps over the lazy dog. " * 4
print(textwrap.fill(text, 30))
print(textwrap.wrap(text, 25)[:3], textwrap.shorten(text, 40), textwrap.shorten("short", 40))
print(textwrap.indent("a\nb\n\nc", "> "), textwrap.dedent("   x\n     y\n   z"), textwrap.fill("word " * 10, 20, initial_indent="* ", subsequent_indent="  "))
print(textwrap.TextWrapper(width=10, break_long_words=False).wrap("supercalifragilistic word"), textwrap.wrap("a-b-c-d-e-f", 4), textwrap.fill("tabs\there", 20, expand_tabs=True))
print(string.ascii_letters, string.digits, string.punctuation, string.hexdigits, repr(string.whitespace), string.capwords("hello  world-x"), string.Template("$a ${b}x $$").substitute(a=1, b=2), string.Template("$a $c").safe_substitute(a=1))
try:
    string.Template("$missing").substitute()
except KeyError as e:
    print("KeyError", e)
print(string.Formatter().format("{0}-{x}", 1, x=2), "{:>{w}}".format("r", w=5), "{0[1]} {1.real}".format([5, 6], 3j), "{!s:^7}".format(None))
obj = {"name": "example", "list": list(range(30)), "nested": {"a": [1, 2, {"deep": ("t", "u")}], "b": None}, "s": "x" * 60, "set": {3, 1, 2}, "fs": frozenset([1])}
pprint.pprint(obj)
pprint.pprint(obj, width=40, depth=2, compact=True)
print(pprint.pformat(list(range(5)), width=5), pprint.pformat({"b": 1, "a": 2}), pprint.pformat({"b": 1, "a": 2}, sort_dicts=False), pprint.isreadable([1]), pprint.saferepr({"r": [1, {2}]}))
pprint.pp({"z": 1, "a": 2})
h = [5, 1, 8, 3, 2]; heapq.heapify(h); print(h, heapq.heappop(h), heapq.heappushpop(h, 0), heapq.nlargest(2, [1, 5, 3]), heapq.nsmallest(2, [4, 1, 3], key=lambda x: -x), list(heapq.merge([1, 4], [2, 3])), heapq.heapreplace(h, 10), h)
pq = []; [heapq.heappush(pq, (p, t)) for p, t in [(2, "b"), (1, "a"), (3, "c"), (1, "z")]]; print([heapq.heappop(pq) for _ in range(4)])
a = [1, 2, 2, 4, 8]; print(bisect.bisect_left(a, 2), bisect.bisect_right(a, 2), bisect.bisect(a, 5), bisect.bisect_left(a, 3, key=None)); bisect.insort(a, 3); print(a, bisect.bisect([{"k": 1}, {"k": 5}], 3, key=lambda d: d["k"]))
print(sorted(["b", "A", "c"], key=str.lower), sorted([(1, "b"), (1, "a")], reverse=True), sorted("hello"), max("abc", key=ord), min([], default=0), sorted([3, 1, 2], key=operator.neg), list(reversed([1, 2])), operator.itemgetter(1, 0)([7, 8]), operator.attrgetter("real")(3))
