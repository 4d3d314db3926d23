# exceptions and tracebacks as CPython prints them: chains, notes, groups, custom exceptions, nested frames, recursion.
import subprocess, sys, textwrap
py = sys.executable
def run(code, mode="file"):
    code = textwrap.dedent(code)
    if mode == "c":
        r = subprocess.run([py, "-c", code], capture_output=True, text=True)
    else:
        r = subprocess.run([py, "-"], input=code, capture_output=True, text=True)
    print(r.returncode, repr(r.stdout))
    print(r.stderr)
run("""
def a(): b()
def b(): c()
def c(): raise ValueError("deep")
a()
""")
run("""
try:
    int("x")
except ValueError as e:
    raise RuntimeError("wrapped") from e
""")
run("""
try:
    {}["k"]
except KeyError:
    raise TypeError("during")
""")
run("""
try:
    1/0
except ZeroDivisionError:
    raise ValueError("no context") from None
""")
run("""
class MyError(Exception):
    def __init__(self, code):
        super().__init__(f"code {code}")
        self.code = code
raise MyError(42)
""")
run("""
class E(Exception):
    def __str__(self):
        return "custom str"
raise E()
""")
run("""
class E(Exception): pass
raise E
""")
run("raise Exception()")
run("raise Exception('')")
run("raise Exception('a', 'b')")
run("raise KeyError('key')")
run("raise KeyError()")
run("import json\ntry:\n    json.loads('{bad')\nexcept ValueError as e:\n    print(type(e).__name__, e)")
run("""
e = ValueError("with note")
e.add_note("first note")
e.add_note("second note")
raise e
""")
run("""
def f(n):
    try:
        return f(n + 1)
    except RecursionError:
        return n
print(f(2))
""")
run("""
class A:
    pass
A().missing
""")
run("""
x = None
x.attr
""")
run("len(5)")
run("'a' + 1")
run("[1][5]")
run("import nosuchmodule")
run("undefined_name")
run("""
def f():
    print(loc)
    loc = 1
f()
""")
run("assert 1 == 2, 'values differ'")
run("assert False")
run("raise SystemExit('exit via exception')")
run("""
import sys
def hook(t, v, tb):
    print("hooked", t.__name__, v, file=sys.stderr)
sys.excepthook = hook
raise ValueError("x")
""")
run("""
import traceback
try:
    1/0
except Exception:
    traceback.print_exc()
    s = traceback.format_exc()
    print(s.splitlines()[0], s.splitlines()[-1])
print(traceback.format_exception_only(ValueError("v")))
print("".join(traceback.format_stack()).count("File"))
traceback.print_stack()
""")
run("""
import traceback
def inner():
    raise KeyError("inner")
try:
    inner()
except KeyError as e:
    tb = traceback.extract_tb(e.__traceback__)
    print([(f.name, f.lineno, f.line) for f in tb])
""")
run("""
import warnings
warnings.warn("user warning")
warnings.warn("deprecated", DeprecationWarning)
warnings.warn("future", FutureWarning)
def f():
    warnings.warn("stacklevel two", stacklevel=2)
f()
warnings.simplefilter("error")
try:
    warnings.warn("now error")
except UserWarning as e:
    print("caught", e)
""")
run("""
import warnings
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    warnings.warn("recorded", RuntimeWarning)
    print(len(w), w[0].category.__name__, str(w[0].message), w[0].lineno)
""")
run("""
try:
    raise ValueError("a")
except ValueError as a:
    try:
        raise TypeError("b")
    except TypeError as b:
        raise KeyError("c") from b
""")
run("""
def gen():
    yield 1
    raise StopIteration
list(gen())
""")
run("""
import sys
print("out before")
sys.stdout.flush()
raise RuntimeError("after flush")
""")
run("raise ValueError('multi\\nline\\nmessage')")
run("""
class Bad(Exception):
    def __str__(self):
        raise RuntimeError("str fails")
raise Bad()
""")
run("raise BaseException('base')")
run("raise GeneratorExit")
run("import os; os.open('/nonexistent/x', os.O_RDONLY)")
run("open('/nonexistent/file.txt')")
run("raise OSError(2, 'custom', 'fname')")
