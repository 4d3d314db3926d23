# Pure computation: numbers, strings, containers, formatting.
import math, fractions, decimal, itertools, functools, collections, re, statistics
print(sum(i * i for i in range(1000)), 2 ** 100, 7 // -2, -7 % 3, divmod(17, 5))
print(math.factorial(20), math.gcd(48, 180), round(2.675, 2), f"{math.pi:.6f}", f"{1e21:g}")
print(fractions.Fraction(3, 4) + fractions.Fraction(1, 6), decimal.Decimal("1.1") + decimal.Decimal("2.2"))
print(list(itertools.permutations("abc", 2))[:4], functools.reduce(lambda a, b: a * b, range(1, 10)))
c = collections.Counter("mississippi")
print(sorted(c.items()), c.most_common(2))
print(re.findall(r"(\w)\1", "aabbcdd"), re.sub(r"\d+", lambda m: str(int(m[0]) * 2), "a1b22c333"))
print(statistics.mean([1, 2, 3, 4]), statistics.median([5, 1, 3]))
d = {"b": 2, "a": 1}
print(sorted(d), {k: v for k, v in sorted(d.items())}, "x".join(["1", "2"]), "ÄÖü".lower(), "straße".upper())
print(repr(b"\x00\xff"), bytes(range(5)).hex(), int("ff", 16), hex(255), oct(8), bin(5))
