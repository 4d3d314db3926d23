# Deterministic library output: seeded random, statistics, math, locale, sys facts scripts print.
import locale
import math
import os
import random
import statistics
import sys

random.seed(42)
print(random.random(), random.randint(1, 100), random.choice("abcdef"), random.sample(range(100), 5), random.uniform(1, 2))
r = random.Random("seed")
print(r.random(), r.getrandbits(70), r.randrange(0, 1000, 7), r.gauss(0, 1), r.shuffle(l := list(range(10))) or l)
print(random.Random(1).choices("abc", weights=[1, 2, 3], k=5), random.Random(2).triangular(), random.Random(3).betavariate(2, 3))
data = [2.5, 3.1, 4.7, 1.2, 9.9, 3.1]
print(statistics.mean(data), statistics.median(data), statistics.mode(data), statistics.stdev(data), statistics.pvariance(data), statistics.quantiles(data, n=4))
print(statistics.fmean([1, 2, 3]), statistics.geometric_mean([1, 2, 4]), statistics.harmonic_mean([1, 2, 4]), statistics.correlation([1, 2, 3], [2, 4, 7]))
print(math.pi, math.e, math.tau, math.inf, math.sqrt(2), math.log(10), math.log2(1024), math.log10(0.001), math.exp(1), math.sin(1), math.atan2(1, -1))
print(math.factorial(30), math.comb(50, 25), math.perm(10, 3), math.gcd(12, 18, 30), math.lcm(4, 6), math.isqrt(10**20 + 1), math.prod(range(1, 15)))
print(math.floor(-2.5), math.ceil(-2.5), math.trunc(-2.7), math.fsum([0.1] * 10), math.hypot(3, 4, 12), math.dist((0, 0), (3, 4)), math.copysign(1, -0.0))
print(math.frexp(10.0), math.ldexp(0.5, 4), math.modf(-3.25), math.fmod(-7, 3), math.remainder(7, 3), math.nextafter(1, 2), math.ulp(1.0), math.isnan(float("nan")))
for f, x in ((math.sqrt, -1), (math.log, 0)):
    try:
        f(x)
    except ValueError as e:
        print(type(e).__name__)
print(2 ** 100, 10 ** 20 // 7, -(2 ** 63), float(2 ** 63), int(1e20), 0.1 + 0.2, 1 / 3, 2 / 3, 1e-7, 123456789.123456789, 1.5e300 * 1e10)
print(sys.float_info.max, sys.float_info.epsilon, sys.int_info.bits_per_digit, sys.byteorder, sys.getrecursionlimit(), sys.getdefaultencoding(), sys.getfilesystemencoding())
print(locale.getpreferredencoding(False), locale.getencoding() if hasattr(locale, "getencoding") else "UTF-8")
print(locale.setlocale(locale.LC_ALL, "C"), locale.localeconv()["decimal_point"], locale.format_string("%.2f", 1234.5, grouping=True), f"{1234567:n}")
print(sorted(["b", "A", "a", "B", "é", "e"]), sorted(["b", "A", "a"], key=str.lower), sorted([(1, "b"), (1, "a"), (0, "z")]), "ß".upper(), "ǅ".lower(), "İ".lower(), len("İ".lower()))
print("%s %r %5.2f %-5d| %x %o %e %g %c %%" % ("s", "r", 3.14159, 42, 255, 8, 12345.678, 0.0001, 65))
print(str(10 ** 4299)[:5], len(str(10 ** 4299)))
try:
    str(10 ** 5000)
except ValueError as e:
    print(str(e)[:60])
print(hash(1), hash(-1), hash(None) != 0, hash(True), hash(1.0) == hash(1), hash("a") == hash("a"))
print(int("0x1f", 16), int("0b101", 0), int(" 42 "), float(" 1e3 "), float("inf"), complex(1, -2), (1 + 2j) * (3 - 1j), abs(3 + 4j), divmod(7.5, 2))
print(round(1.2345, 2), round(-0.5), round(1.5), round(12345, -2), format(0.1, ".20f"), repr(1e16), repr(1.0e-5), 1e15, 1e16, float("1.0000000000000002"))
print(os.path.normcase("A/B"), os.fspath(b"x"), type(sys.maxsize).__name__)
