# python3 -m modules, unittest and doctest output, traceback formats, SyntaxError text.
import os
import subprocess
import sys
import tempfile
import traceback

d = tempfile.mkdtemp()
os.chdir(d)
with open("data.json", "w") as f:
    f.write('{"b": [1, 2, {"c": null}], "a": "\\u00e9"}')


def py(*args, stdin=None):
    r = subprocess.run([sys.executable, *args], input=stdin, capture_output=True, text=True)
    print(f"--- {' '.join(args)} -> {r.returncode}")
    print(r.stdout, end="")
    if r.stderr:
        print("stderr:", r.stderr.strip().splitlines()[-1].split(": ", 1)[-1])


py("-m", "json.tool", "data.json")
py("-m", "json.tool", "--sort-keys", "--indent", "1", "data.json")
py("-m", "json.tool", stdin="[1, 2")
py("-m", "json.tool", "--compact", stdin='{"x": [1, 2]}')
py("-m", "base64", stdin="hello")
py("-m", "base64", "-d", stdin="aGVsbG8=\n")
py("-m", "zipfile", "-c", "a.zip", "data.json")
py("-m", "zipfile", "-t", "a.zip")
py("-m", "tarfile", "-c", "a.tar", "data.json")
py("-m", "tarfile", "-l", "a.tar")
py("-m", "nosuchmodule")
with open("test_math.py", "w") as f:
    f.write('''import unittest
class T(unittest.TestCase):
    def test_ok(self):
        self.assertEqual(1 + 1, 2)
    def test_fail(self):
        self.assertEqual([1, 2], [1, 3])
    @unittest.skip("later")
    def test_skip(self):
        pass
    def test_error(self):
        {}["k"]
''')
r = subprocess.run([sys.executable, "-m", "unittest", "test_math"], capture_output=True, text=True)
lines = r.stderr.splitlines()
print(r.returncode, lines[0], [l for l in lines if l.startswith(("FAIL", "ERROR", "AssertionError", "KeyError", "FAILED"))])
r = subprocess.run([sys.executable, "-m", "unittest", "-v", "test_math.T.test_ok"], capture_output=True, text=True)
print(r.returncode, r.stderr.splitlines()[0], r.stderr.splitlines()[-1])
with open("doc.py", "w") as f:
    f.write('''def double(x):
    """
    >>> double(2)
    4
    >>> double("a")
    'aa'
    >>> double(0)
    1
    """
    return x * 2
''')
r = subprocess.run([sys.executable, "-m", "doctest", "doc.py"], capture_output=True, text=True)
print(r.returncode, [l for l in r.stdout.splitlines() if l.startswith(("Failed", "Expected", "Got", "    "))])
for src in ("x = (1,", "def f(:\n  pass", "print('a'\n", "  indented = 1", "for x in y:\nprint(x)"):
    try:
        compile(src, "<src>", "exec")
    except SyntaxError as e:
        print(type(e).__name__, e.lineno, e.filename, "|", traceback.format_exception_only(e)[-1].strip().split(":")[0])
try:
    undefined_name
except NameError as e:
    print(e, "|", "".join(traceback.format_exception_only(e)).strip())
try:
    [].pop()
except IndexError:
    tb = traceback.format_exc().splitlines()
    print(tb[0], tb[-1])
r = subprocess.run([sys.executable, "-c", "def f():\n    raise ValueError('deep')\nf()"], capture_output=True, text=True)
print(r.returncode, r.stderr.splitlines()[0], r.stderr.splitlines()[1], r.stderr.splitlines()[-1])
r = subprocess.run([sys.executable, "-c", "import sys; sys.exit('fatal: bad')"], capture_output=True, text=True)
print(r.returncode, repr(r.stderr))
r = subprocess.run([sys.executable, "-c", "raise KeyboardInterrupt"], capture_output=True, text=True)
print(r.returncode, r.stderr.splitlines()[-1])
r = subprocess.run([sys.executable, "-c", "x = (1,"], capture_output=True, text=True)
print(r.returncode, r.stderr.splitlines()[0], r.stderr.splitlines()[-1].split(":")[0])
r = subprocess.run([sys.executable, "-W", "error", "-c", "import warnings; warnings.warn('w')"], capture_output=True, text=True)
print(r.returncode, r.stderr.splitlines()[-1])
r = subprocess.run([sys.executable, "-c", "import warnings; warnings.warn('shown'); print('after')"], capture_output=True, text=True)
print(r.stdout.strip(), r.stderr.splitlines())
