# Odds and ends agents use: dataclasses, enum, pprint, textwrap, decimal, fractions, random, struct, sqlite3, uuid, base64.
import base64
import dataclasses
import enum
import fractions
import hashlib
import math
import pprint
import random
import sqlite3
import string
import struct
import textwrap
import uuid
from decimal import ROUND_HALF_UP, Decimal, getcontext


@dataclasses.dataclass(order=True)
class Item:
    name: str
    price: float = 0.0
    tags: list = dataclasses.field(default_factory=list)


items = [Item("b", 2.5, ["x"]), Item("a", 1.0), Item("c", 3.0)]
print(sorted(items)[0], dataclasses.asdict(items[0]), dataclasses.astuple(items[1]), Item("a") == Item("a"))
print(dataclasses.replace(items[0], price=9), [f.name for f in dataclasses.fields(Item)])


class Color(enum.Enum):
    RED = 1
    GREEN = 2


class Perm(enum.IntFlag):
    R = 4
    W = 2
    X = 1


print(Color.RED, Color(2).name, Color["GREEN"].value, list(Color), int(Perm.R | Perm.W), Perm.R in (Perm.R | Perm.X))
data = {"users": [{"id": i, "name": f"user{i}", "roles": ["admin", "dev"][: i % 3]} for i in range(4)], "meta": {"n": 4}}
pprint.pprint(data, width=60)
print(pprint.pformat(list(range(30)), compact=True, width=40))
text = "The quick brown fox jumps over the lazy dog. " * 3
print(textwrap.fill(text, width=30))
print(textwrap.shorten(text, width=40), repr(textwrap.dedent("    a\n      b\n")), textwrap.indent("x\ny", "> "))
getcontext().prec = 30
print(Decimal(1) / Decimal(7), Decimal("2.675").quantize(Decimal("0.01"), rounding=ROUND_HALF_UP), Decimal("0.1") + Decimal("0.2"))
print(fractions.Fraction(3, 4) + fractions.Fraction(1, 6), fractions.Fraction("0.125"), fractions.Fraction(1.5).limit_denominator())
print(round(2.675, 2), round(0.5), round(1.5), math.isclose(0.1 + 0.2, 0.3), math.fsum([0.1] * 10), 0.1 + 0.2)
print(math.comb(10, 3), math.perm(5, 2), math.gcd(12, 18), math.lcm(4, 6), math.isqrt(99), math.factorial(20), math.prod([1, 2, 3]))
print(f"{math.pi:.10f} {math.e:.5g} {math.inf} {-math.inf} {math.nan} {math.log2(1024)} {math.hypot(3, 4)}")
rng = random.Random(42)
print(rng.random(), rng.randint(1, 100), rng.choice("abcdef"), rng.sample(range(100), 5), rng.uniform(1, 2))
lst = list(range(10))
rng.shuffle(lst)
print(lst, rng.choices("abc", weights=[1, 2, 3], k=5), rng.gauss(0, 1), rng.getrandbits(16))
random.seed(7)
print(random.random(), random.randrange(0, 100, 5))
print(struct.pack("<IhB", 1, -2, 3), struct.unpack(">HH", b"\x00\x01\x00\x02"), struct.calcsize("<qd?"))
con = sqlite3.connect(":memory:")
con.execute("create table t (id integer primary key, name text, score real)")
con.executemany("insert into t (name, score) values (?, ?)", [("a", 1.5), ("b", 3.0), ("c", None)])
print(con.execute("select name, score from t order by score desc nulls last").fetchall())
print(con.execute("select count(*), avg(score), group_concat(name, '|') from t").fetchone())
con.row_factory = sqlite3.Row
r = con.execute("select * from t where name = ?", ("b",)).fetchone()
print(dict(r), r.keys())
try:
    con.execute("select * from missing")
except sqlite3.OperationalError as e:
    print("OperationalError:", e)
print(uuid.UUID("12345678123456781234567812345678"), uuid.uuid5(uuid.NAMESPACE_DNS, "example.com"), len(uuid.uuid4().hex))
print(base64.b64encode(b"hello world"), base64.urlsafe_b64encode(b"\xff\xfe"), base64.b32encode(b"ab"), base64.b16decode("4142"))
print(hashlib.sha1(b"abc").hexdigest(), hashlib.blake2b(b"abc", digest_size=8).hexdigest(), hashlib.sha3_256(b"").hexdigest()[:8])
print(string.ascii_letters[:5], string.Template("$a-${b}").substitute(a=1, b=2), "{:>5}|{:<5}|{:^5}".format("a", "b", "c"))
print(sorted({3, 1, 2}), {**{"a": 1}, "b": 2}, [*range(3), *"ab"], divmod(-7, 2), -7 // 2, -7 % 2, 2 ** -1, 10 ** 20)
print(int("ff", 16), int("0b101", 0), bin(10), oct(8), hex(255), float("1e-3"), int(-3.7), abs(-2), pow(3, 4, 5))
