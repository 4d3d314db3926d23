# python3 -m unittest, doctest, shebang scripts and the `python` name, run as children.
import os, subprocess, sys, tempfile
d = tempfile.mkdtemp()
os.chdir(d)
with open("test_sample.py", "w") as f:
    f.write('''import unittest
class T(unittest.TestCase):
    def test_ok(self):
        self.assertEqual(1 + 1, 2)
    def test_fail(self):
        self.assertEqual([1, 2], [1, 3])
    @unittest.skip("not now")
    def test_skip(self):
        pass
    def test_error(self):
        raise KeyError("k")
''')
with open("test_good.py", "w") as f:
    f.write("import unittest\nclass G(unittest.TestCase):\n    def test_a(self):\n        self.assertTrue(True)\n")
def run(args, **kw):
    p = subprocess.run(args, capture_output=True, text=True, **kw)
    return p.returncode, p.stdout, p.stderr
code, out, err = run([sys.executable, "-m", "unittest", "test_good"])
print("good", code, out, err.splitlines()[0], err.splitlines()[-1])
code, out, err = run([sys.executable, "-m", "unittest", "-v", "test_good"])
print("verbose", code, err.splitlines()[0])
code, out, err = run([sys.executable, "-m", "unittest", "test_sample"])
lines = err.splitlines()
print("sample", code, lines[0], lines[-1], [l for l in lines if l.startswith(("FAIL:", "ERROR:", "AssertionError", "KeyError"))])
code, out, err = run([sys.executable, "-m", "unittest", "discover", "-p", "test_g*.py"])
print("discover", code, err.splitlines()[-1])
code, out, err = run([sys.executable, "-m", "unittest"])
print("default discover", code, err.splitlines()[-1], "Ran 5 tests" in err)
with open("doc.py", "w") as f:
    f.write('def sq(x):\n    """\n    >>> sq(3)\n    9\n    >>> sq(2)\n    5\n    """\n    return x * x\n')
code, out, err = run([sys.executable, "-m", "doctest", "doc.py"])
print("doctest", code, [l for l in out.splitlines() if l.startswith(("Expected", "Got", "    5", "    4"))])
with open("tool", "w") as f:
    f.write("#!/usr/bin/env python3\nimport sys\nprint('shebang', sys.argv[1:])\n")
os.chmod("tool", 0o755)
print(run(["./tool", "a b", "c"]))
print(run(["sh", "-c", "./tool x | tr a-z A-Z"]))
with open("tool2", "w") as f:
    f.write("#!/usr/bin/python3 -u\nimport sys\nprint('direct', sys.argv)\n")
os.chmod("tool2", 0o755)
print(run(["./tool2"]))
with open("mod_main.py", "w") as f:
    f.write("if __name__ == '__main__':\n    import sys\n    print('main guard', sys.argv[1:])\n")
print(run([sys.executable, "mod_main.py", "1"]))
os.mkdir("pkg")
with open("pkg/__init__.py", "w") as f:
    f.write("VALUE = 7\n")
with open("pkg/__main__.py", "w") as f:
    f.write("from pkg import VALUE\nprint('package main', VALUE, __name__)\n")
with open("pkg/helper.py", "w") as f:
    f.write("def f():\n    return 'helper'\n")
print(run([sys.executable, "-m", "pkg"]))
print(run([sys.executable, "-c", "import pkg.helper as h; print(h.f(), h.__name__)"]))
with open("usehelper.py", "w") as f:
    f.write("import pkg.helper\nprint(pkg.helper.f())\n")
print(run([sys.executable, "usehelper.py"]))
print(run([sys.executable, "-c", "import sys; sys.path.insert(0, 'pkg'); import helper; print(helper.f())"]))
print(run([sys.executable, "-c", "import os; print(os.environ['PYTHONPATH'] == os.getcwd())"], env={**os.environ, "PYTHONPATH": d}))
with open("lib2.py", "w") as f:
    f.write("X = 1\n")
code, out, err = run([sys.executable, "-c", "import lib2; print(lib2.X)"], cwd="/", env={**os.environ, "PYTHONPATH": d})
print("PYTHONPATH", code, out)
code, out, err = run([sys.executable, "-c", "import nosuchmod_q"])
print("import error", code, err.splitlines()[-1])
os.chdir("/")
