# Exceptions handled inside the program, classes, generators, context managers.
class Boom(Exception):
    pass
def gen(n):
    for i in range(n):
        if i == 3:
            raise Boom(f"at {i}")
        yield i
out = []
try:
    for x in gen(10):
        out.append(x)
except Boom as e:
    print("caught", e, out)
from contextlib import contextmanager
@contextmanager
def ctx(name):
    print("enter", name)
    try:
        yield name.upper()
    finally:
        print("exit", name)
with ctx("a") as v:
    print(v)
try:
    {}["k"]
except KeyError as e:
    print(repr(e))
import dataclasses
@dataclasses.dataclass(order=True)
class P:
    x: int
    y: int = 0
print(sorted([P(2, 1), P(1, 5)]), P(1) == P(1, 0))
