# Common standard library use: the output must be CPython's byte for byte.
import argparse, base64, collections, csv, dataclasses, datetime, decimal, enum, fractions, hashlib, heapq, io
import itertools, json, logging, math, operator, random, re, statistics, string, struct, sys, textwrap, typing, uuid, zlib
from zoneinfo import ZoneInfo
print(json.dumps({"b": [1, 2.5, None, True], "a": "é\n", "c": {}}, sort_keys=True), json.dumps([1, {"x": "ü"}], ensure_ascii=False, indent=2))
print(json.loads('{"n": 1e400, "m": -0.0, "big": 123456789012345678901234567890}'), json.dumps(float("nan")))
try:
    json.loads('{"a": 1 "b"}')
except json.JSONDecodeError as e:
    print("JSONDecodeError", e.msg, e.lineno, e.colno, str(e))
buf = io.StringIO()
w = csv.writer(buf)
w.writerows([["name", "note"], ["a,b", 'say "hi"'], ["multi\nline", ""]])
print(repr(buf.getvalue()))
print(list(csv.reader(io.StringIO(buf.getvalue()))))
print(list(csv.DictReader(io.StringIO("x;y\n1;2\n"), delimiter=";")))
print(re.match(r"(?P<y>\d{4})-(?P<m>\d\d)", "2024-05-06").groupdict(), re.split(r"\s*,\s*", "a , b,c"), re.sub(r"(\w+)@(\w+)", r"\2 at \1", "me@host"))
print(re.findall(r"\b\w+\b", "héllo wörld", re.ASCII), re.compile(r"a.c", re.S | re.I).fullmatch("A\nC") is not None)
d = datetime.datetime(2024, 2, 29, 13, 5, 9, 123456)
print(d.isoformat(), d.strftime("%A %d %B %Y %I:%M:%S %p %j %U %a %b"), d + datetime.timedelta(days=1, hours=12), d.date().isocalendar())
print(datetime.datetime.strptime("2023-12-31 23:59", "%Y-%m-%d %H:%M"), datetime.date(2024, 1, 1).weekday(), datetime.timedelta(seconds=100000))
utc = datetime.datetime(2024, 3, 31, 0, 30, tzinfo=datetime.timezone.utc)
print(utc.astimezone(ZoneInfo("Europe/Berlin")), utc.astimezone(ZoneInfo("America/Los_Angeles")).strftime("%Z %z"), datetime.datetime.fromtimestamp(0, datetime.timezone.utc))
print(datetime.datetime.fromisoformat("2024-01-02T03:04:05+01:00").utcoffset(), datetime.date.fromisoformat("2024-06-01").toordinal())
c = collections.Counter(w for w in "the cat the hat the end".split())
print(c.most_common(2), list(collections.OrderedDict(a=1, b=2).items()), collections.defaultdict(list, {"k": [1]}), collections.deque([1, 2, 3], maxlen=2))
Point = collections.namedtuple("Point", "x y")
print(Point(1, 2), Point(1, 2)._asdict(), collections.ChainMap({"a": 1}, {"a": 2, "b": 3})["b"])
print(list(itertools.accumulate([1, 2, 3, 4])), list(itertools.groupby("aabbbc")) and [(k, len(list(g))) for k, g in itertools.groupby("aabbbc")], list(itertools.product("ab", repeat=2)))
print(list(itertools.combinations(range(4), 2)), list(itertools.chain.from_iterable([[1], [2, 3]])), list(itertools.islice(itertools.count(10, 5), 3)), list(itertools.zip_longest("ab", "x", fillvalue="-")))
parser = argparse.ArgumentParser(prog="tool", description="Does things.")
parser.add_argument("files", nargs="+", help="input files")
parser.add_argument("-n", "--count", type=int, default=3, help="how many (default: %(default)s)")
parser.add_argument("-v", "--verbose", action="store_true")
parser.add_argument("--mode", choices=["fast", "slow"], default="fast")
print(parser.parse_args(["a", "b", "-n", "5", "-v"]))
print(parser.format_usage(), end="")
for bad in (["-n", "x", "f"], [], ["f", "--nope"], ["f", "-n"]):
    try:
        parser.parse_args(bad)
    except SystemExit as e:
        print("exit", e.code)
sys.stdout.flush()
logging.basicConfig(level=logging.INFO, format="%(levelname)s:%(name)s:%(message)s", stream=sys.stdout)
log = logging.getLogger("app")
log.info("started %d", 3); log.debug("hidden"); log.warning("warn %s", "x")
try:
    1 / 0
except ZeroDivisionError:
    log.error("failed", exc_info=False)
print(textwrap.fill("The quick brown fox jumps over the lazy dog " * 3, width=30), textwrap.dedent("  a\n    b\n"), textwrap.shorten("Hello world, this is long", 15), sep="\n")
print(textwrap.indent("x\ny", "> "), textwrap.wrap("a b c d e f", 3))
print(hashlib.sha256(b"abc").hexdigest(), hashlib.md5(b"").hexdigest(), hashlib.sha1(b"x").hexdigest(), hashlib.blake2b(b"x", digest_size=8).hexdigest())
print(hashlib.sha3_256(b"").hexdigest()[:16], sorted(hashlib.algorithms_guaranteed)[:4])
import hmac
print(hmac.new(b"key", b"msg", "sha256").hexdigest()[:20], hmac.compare_digest("a", "a"))
print(base64.b64encode(b"hello\xff"), base64.b64decode("aGVsbG8="), base64.urlsafe_b64encode(b"\xfb\xff"), base64.b32encode(b"ab"), base64.b16encode(b"\x01"))
print(struct.pack("<IhB", 1, -2, 3), struct.unpack(">Q", b"\x00" * 7 + b"\x05"), struct.calcsize("@iq"), struct.calcsize("<iq"), struct.pack("!f", 1.5))
decimal.getcontext().prec = 10
print(decimal.Decimal(1) / decimal.Decimal(7), decimal.Decimal("1.005").quantize(decimal.Decimal("0.01"), rounding=decimal.ROUND_HALF_UP), decimal.Decimal("0.1") * 3)
print(fractions.Fraction("3/9"), fractions.Fraction(0.75), fractions.Fraction(1, 3) ** 2, float(fractions.Fraction(22, 7)))
@dataclasses.dataclass(frozen=True)
class Item:
    name: str
    tags: list = dataclasses.field(default_factory=list)
    price: float = 0.0
it = Item("pen", ["a"], 1.5)
print(it, dataclasses.asdict(it), dataclasses.replace(it, price=2), dataclasses.fields(Item)[0].name)
try:
    it.name = "x"
except dataclasses.FrozenInstanceError as e:
    print("frozen", e)
T = typing.TypeVar("T")
def first(xs: typing.List[T]) -> typing.Optional[T]:
    return xs[0] if xs else None
print(first([3]), typing.Optional[int] == typing.Union[int, None])
class Color(enum.Enum):
    RED = 1
    GREEN = 2
class Perm(enum.IntFlag):
    R = 4
    W = 2
print(Color.RED, Color(2), list(Color), Color["GREEN"].value, Perm.R | Perm.W, int(Perm.R | Perm.W))
print(f"{3.14159:.2f} {42:08b} {1234567:,} {0.25:.1%} {'x':>5}|{'y':<3}|{'z':^5}| {255:#x} {1e-7:e} {12345.678:_.1f}")
print("%5.1f|%-4d|%s|%r|%05d|%x|%c" % (2.25, 7, "s", "r", 42, 255, 65), "{0}{1}{0}".format("a", "b"), "{:>{w}}".format("r", w=4))
print(str(1 / 3), repr(0.1 + 0.2), 1e16, 1.5e-5, float("inf"), -0.0, 2 ** 0.5, round(0.5), round(1.5), round(-2.5), 10 / 4, 7 // 2)
print(string.ascii_letters[:5], string.Template("$who is $what").substitute(who="x", what="y"), "Hello".center(11, "*"), "a-b-c".rsplit("-", 1))
print(math.isclose(0.1 + 0.2, 0.3), math.comb(10, 3), math.perm(5, 2), math.prod([1, 2, 3]), math.isqrt(99), math.dist((0, 0), (3, 4)), math.log2(8), math.floor(-1.5))
print(statistics.stdev([1, 2, 3, 4]), statistics.mode([1, 1, 2]), statistics.quantiles([1, 2, 3, 4, 5], n=4))
random.seed(42)
print(random.random(), random.randint(1, 100), random.choice("abcdef"), random.sample(range(100), 3), random.uniform(1, 2))
random.seed("text")
x = list(range(10)); random.shuffle(x); print(x, random.gauss(0, 1))
print(heapq.nsmallest(2, [5, 1, 4]), sorted([("b", 2), ("a", 2), ("c", 1)], key=operator.itemgetter(1)), zlib.crc32(b"abc"), len(zlib.compress(b"a" * 1000)))
print(uuid.UUID("12345678123456781234567812345678"), uuid.uuid5(uuid.NAMESPACE_DNS, "python.org"), uuid.uuid4().version)
print(sorted({3, 1, 2}), {1: "a"} | {2: "b"}, [*range(3)], (lambda *a, **k: (a, k))(1, x=2), "abc"[::-1], list(map(str.upper, "ab")))
print(int("0x1f", 16), int("1_000"), format(-5, "+d"), divmod(-7, 2), pow(3, -1, 7), (255).to_bytes(2, "big"), int.from_bytes(b"\x01\x00", "little"), (10).bit_length())
print(bytes.fromhex("de ad"), bytearray(b"ab").upper(), memoryview(b"abc")[1:].tobytes(), b"a,b".split(b","), "ß".casefold(), "ǅ".lower(), "İ".lower().encode())
