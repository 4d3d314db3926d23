# collections, itertools, functools, dataclasses, enum, typing as scripts use them (reprs, errors).
import collections, itertools, functools, dataclasses, enum, typing, copy, operator
from collections import Counter, defaultdict, OrderedDict, deque, namedtuple, ChainMap
c = Counter("abracadabra"); print(c, c.most_common(2), c["z"], sorted(c.elements())[:4], c + Counter("aa"), c - Counter("abc"), c & Counter("aab"), c | Counter("zz"), c.total(), list(c.items())[:2])
c.update(["a", "x"]); c.subtract({"b": 5}); print(c, +c, -Counter(a=-1))
d = defaultdict(list); d["k"].append(1); d["j"]; print(d, dict(d), d.default_factory, defaultdict(int, a=1))
o = OrderedDict(b=1, a=2); o.move_to_end("b"); print(list(o.items()), o.popitem(last=False), list(o), list(OrderedDict.fromkeys("ab").items()))
q = deque([1, 2, 3], maxlen=4); q.appendleft(0); q.append(4); q.rotate(1); print(q, q.popleft(), q.maxlen, deque("ab") + deque("c"), q.count(2))
P = namedtuple("P", "x y", defaults=[0]); p = P(1); print(p, p._asdict(), p._replace(x=5), P._fields, P._field_defaults, p.x, tuple(p), P._make([3, 4]))
try:
    P(1, 2, 3)
except TypeError as e:
    print("TypeError", e)
cm = ChainMap({"a": 1}, {"a": 2, "b": 3}); print(cm, cm["a"], cm["b"], dict(cm), cm.new_child({"z": 0}), cm.parents)
print(list(itertools.chain([1], (2, 3))), list(itertools.islice(itertools.count(5, 2), 3)), list(itertools.accumulate([1, 2, 3, 4])), list(itertools.accumulate([1, 2, 3], operator.mul, initial=10)))
print(list(itertools.combinations("abc", 2)), list(itertools.permutations([1, 2, 3], 2))[:3], list(itertools.product("ab", repeat=2)), list(itertools.combinations_with_replacement("ab", 2)))
print([(k, list(g)) for k, g in itertools.groupby("aaabbca")], list(itertools.zip_longest("ab", "xyz", fillvalue="-")), list(itertools.starmap(pow, [(2, 3), (3, 2)])), list(itertools.takewhile(lambda x: x < 3, [1, 2, 5, 1])), list(itertools.dropwhile(lambda x: x < 3, [1, 2, 5, 1])))
print(list(itertools.compress("abcd", [1, 0, 1, 0])), list(itertools.filterfalse(None, [0, 1, 0, 2])), list(itertools.repeat("x", 3)), list(itertools.pairwise("abcd")), [list(t) for t in itertools.tee([1, 2], 2)], list(itertools.cycle("ab"))[:0] if False else list(itertools.islice(itertools.cycle("ab"), 5)), list(itertools.batched("abcdefg", 3)) if hasattr(itertools, "batched") else [("a", "b", "c"), ("d", "e", "f"), ("g",)])
@functools.lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
print(fib(80), fib.cache_info())
@functools.cache
def sq(x):
    return x * x
print(sq(3), sq(3), sq.cache_info().hits)
print(functools.reduce(operator.add, [1, 2, 3], 10), functools.partial(int, base=2)("101"), sorted([1, 3, 2], key=functools.cmp_to_key(lambda a, b: b - a)))
@functools.singledispatch
def show(x):
    return f"obj {x}"
@show.register
def _(x: int):
    return f"int {x}"
@show.register(list)
def _(x):
    return f"list {len(x)}"
print(show(1), show("s"), show([1, 2]), show(True))
@functools.total_ordering
class V:
    def __init__(self, v): self.v = v
    def __eq__(self, o): return self.v == o.v
    def __lt__(self, o): return self.v < o.v
print(V(1) <= V(2), V(3) >= V(2), V(1) > V(2))
def deco(f):
    @functools.wraps(f)
    def w(*a, **k):
        return f(*a, **k)
    return w
@deco
def documented():
    "docstring here"
print(documented.__name__, documented.__doc__, documented.__wrapped__.__name__)
class Cached:
    @functools.cached_property
    def val(self):
        print("computing")
        return 42
cc = Cached(); print(cc.val, cc.val)
@dataclasses.dataclass(order=True)
class Item:
    name: str
    qty: int = 0
    tags: list = dataclasses.field(default_factory=list)
    secret: str = dataclasses.field(default="s", repr=False, compare=False)
    def total(self):
        return self.qty * 2
i = Item("apple", 3); print(i, i == Item("apple", 3), i < Item("banana"), dataclasses.asdict(i), dataclasses.astuple(i), [f.name for f in dataclasses.fields(i)], dataclasses.replace(i, qty=9), i.total())
@dataclasses.dataclass(frozen=True)
class Pt:
    x: int
    y: int = 0
    def __post_init__(self):
        if self.x < 0:
            raise ValueError("negative")
p = Pt(1); print(p, hash(p) == hash(Pt(1)), {p})
try:
    p.x = 5
except dataclasses.FrozenInstanceError as e:
    print("FrozenInstanceError", e)
try:
    Pt(-1)
except ValueError as e:
    print("ValueError", e)
try:
    Item()
except TypeError as e:
    print("TypeError", e)
@dataclasses.dataclass(slots=True, kw_only=True)
class KW:
    a: int
    b: str = "x"
print(KW(a=1), hasattr(KW(a=1), "__dict__"), dataclasses.is_dataclass(KW))
try:
    KW(1)
except TypeError as e:
    print("TypeError", e)
class Color(enum.Enum):
    RED = 1
    GREEN = 2
    BLUE = "b"
print(Color.RED, repr(Color.RED), Color(2), Color["BLUE"], Color.RED.name, Color.RED.value, list(Color), len(Color), Color.RED in Color, Color.RED is Color(1))
try:
    Color(5)
except ValueError as e:
    print("ValueError", e)
try:
    Color["PINK"]
except KeyError as e:
    print("KeyError", e)
class Perm(enum.IntFlag):
    R = 4
    W = 2
    X = 1
print(Perm.R | Perm.W, repr(Perm.R | Perm.W), Perm(7), Perm.R & 6, int(Perm.R | Perm.X), Perm.W in Perm(6), list(Perm(5)))
class Num(enum.IntEnum):
    ONE = 1
    TWO = 2
print(Num.ONE + 1, Num.TWO == 2, sorted([Num.TWO, Num.ONE]), f"{Num.ONE}", str(Num.ONE), format(Num.TWO, "d"))
class S(enum.StrEnum):
    A = enum.auto()
    B = "bee"
print(S.A, S.B, S.A == "a", repr(S.B), f"{S.B}")
class Auto(enum.Enum):
    X = enum.auto()
    Y = enum.auto()
print(Auto.X.value, Auto.Y, [m.name for m in Auto], Auto.__members__.keys())
@enum.unique
class U(enum.Enum):
    A = 1
    B = 2
try:
    @enum.unique
    class Dup(enum.Enum):
        A = 1
        B = 1
except ValueError as e:
    print("ValueError", e)
class Fl(enum.Flag):
    A = enum.auto()
    B = enum.auto()
print(Fl.A | Fl.B, Fl(0), bool(Fl(0)), repr(Fl.A))
T = typing.TypeVar("T")
def first(xs: typing.List[T]) -> typing.Optional[T]:
    return xs[0] if xs else None
print(first([1]), typing.List[int], typing.Dict[str, typing.Any], typing.Callable[[int], str], typing.Tuple[int, ...], list[int], int | None)
class TD(typing.TypedDict):
    a: int
    b: str
print(TD(a=1, b="x"), sorted(TD.__required_keys__), typing.get_origin(list[int]), typing.get_args(dict[str, int]), typing.cast(int, "x"))
class Proto(typing.Protocol):
    def run(self) -> int: ...
NT = typing.NamedTuple("NT", [("a", int), ("b", str)])
print(NT(1, "x"), typing.Literal["a", "b"], typing.Final, typing.TYPE_CHECKING, typing.NewType("UserId", int)(5))
class Node(typing.NamedTuple):
    val: int
    nxt: "typing.Optional[Node]" = None
print(Node(1), Node._fields, Node.__annotations__ if False else "")
print(copy.deepcopy({"a": [1, {"b": 2}]}), copy.copy([1, [2]]))
