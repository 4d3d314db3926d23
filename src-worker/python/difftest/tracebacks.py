# Exceptions as CPython prints them: chains, raise from, notes, groups, custom __str__, traceback module.
import sys
import traceback

_print_exc = traceback.print_exc


def _no_markers(text):
    """Lines of only ~ and ^ (3.13+ marks calls too): left out, the rest as printed."""
    text = text.replace(__file__, "tracebacks.py")
    return "".join(l for l in text.splitlines(True) if l.strip(" ~^\n") or not l.strip())


traceback.print_exc = lambda file=None: print(_no_markers(traceback.format_exc()), end="", file=file)


def inner():
    return {}["missing"]


def outer():
    try:
        inner()
    except KeyError as e:
        raise ValueError("wrapped") from e


try:
    outer()
except ValueError:
    traceback.print_exc(file=sys.stdout)
try:
    try:
        1 / 0
    except ZeroDivisionError:
        int("x")
except ValueError as e:
    print(_no_markers("".join(traceback.format_exception(e))))
try:
    try:
        raise OSError("first")
    except OSError:
        raise RuntimeError("second") from None
except RuntimeError as e:
    print(_no_markers(traceback.format_exc()))
e = ValueError("with notes")
e.add_note("note one")
e.add_note("note two")
print(_no_markers("".join(traceback.format_exception(e))))
try:
    raise ExceptionGroup("several", [ValueError("v"), TypeError("t"), ExceptionGroup("inner", [KeyError("k")])])
except* ValueError as g:
    print("got values", g.exceptions)
except* (TypeError, KeyError) as g:
    print("got others", repr(g))
eg = ExceptionGroup("top", [ValueError(1), OSError(2, "x")])
print(_no_markers("".join(traceback.format_exception(eg))))
print(eg.split(ValueError), eg.subgroup(lambda x: isinstance(x, OSError)))


class MyErr(Exception):
    def __str__(self):
        return f"custom {self.args}"


try:
    raise MyErr(1, 2)
except MyErr as e:
    print(traceback.format_exception_only(e), repr(e), str(e))
print(traceback.format_exception_only(SyntaxError("bad", ("f.py", 3, 5, "x = = 1\n", 3, 6))))
try:
    compile("def f(:\n  pass", "<src>", "exec")
except SyntaxError as e:
    print("".join(traceback.format_exception_only(e)), e.lineno, e.offset, e.msg)
try:
    eval("1 +")
except SyntaxError as e:
    print(e)
try:
    exec("if True:\n  x = 1\n    y = 2")
except IndentationError as e:
    print(type(e).__name__, e)
try:
    [].pop()
except IndexError as e:
    print(e, e.args)
try:
    None.foo
except AttributeError as e:
    print(e, e.name, e.obj)
try:
    import nosuchmodulexyz
except ModuleNotFoundError as e:
    print(e, e.name)
try:
    undefined_name_xyz
except NameError as e:
    print(e, e.name)
try:
    "a" + 1
except TypeError as e:
    print(e)
try:
    int("12a")
except ValueError as e:
    print(e)
try:
    {}.fromkeys(1)
except TypeError as e:
    print(e)
try:
    raise KeyError("k")
except KeyError as e:
    print(e, str(e), repr(e))
def rec(n): return rec(n + 1)
try:
    rec(0)
except RecursionError as e:
    print(type(e).__name__, str(e)[:40])
print(sys.exc_info(), sys.exception())
try:
    assert 1 == 2, "math broke"
except AssertionError as e:
    print(e)
try:
    raise StopIteration(5)
except StopIteration as e:
    print(e.value)
def g():
    yield 1
    raise ValueError("in gen")
try:
    list(g())
except ValueError as e:
    print(traceback.extract_tb(e.__traceback__)[-1].name)
try:
    outer()
except ValueError:
    traceback.print_exc()
sys.exit("done: " + str(len(sys.argv)))
