# More `python3 -m` tools: compileall, doctest, tokenize, gzip, this, quopri, filecmp, zipapp.
import os
import subprocess
import sys
import tempfile

d = tempfile.mkdtemp()
os.chdir(d)
env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}


def run(*args, inp=None):
    r = subprocess.run([sys.executable, *args], capture_output=True, text=True, input=inp, env=env)
    out = "".join(l for l in (r.stdout + r.stderr).splitlines(True) if not l.startswith("    "))
    print(args, r.returncode)
    print(out.replace(d, "$D").replace(sys.executable, "python3"), end="")


os.makedirs("pkg/sub")
for p in ("pkg/__init__.py", "pkg/a.py", "pkg/sub/b.py"):
    with open(p, "w") as f:
        f.write("def f(x):\n    '''\n    >>> f(2)\n    4\n    >>> f(3)\n    10\n    '''\n    return x * x\n")
run("-m", "compileall", "-q", "pkg")
print(sorted(os.path.relpath(os.path.join(a, f), d).split(".")[0] for a, _, fs in os.walk("pkg") for f in fs if f.endswith(".pyc")))
run("-m", "compileall", "-q", "-b", "pkg/sub")
print(sorted(os.listdir("pkg/sub")))
with open("t.txt", "w") as f:
    f.write(">>> 1 + 1\n2\n>>> print('x')\nx\n")
run("-m", "doctest", "t.txt")
with open("bad.txt", "w") as f:
    f.write(">>> 2 * 2\n5\n")
r = subprocess.run([sys.executable, "-m", "doctest", "bad.txt"], capture_output=True, text=True, env=env)
print("doctest failure", r.returncode, r.stdout.splitlines()[1:6])
with open("s.py", "w") as f:
    f.write("x = 1 + 2  # c\n")
run("-m", "tokenize", "s.py")
with open("g.txt", "w") as f:
    f.write("hello gzip\n" * 3)
run("-m", "gzip", "g.txt")
print(os.path.exists("g.txt.gz"))
os.remove("g.txt")
run("-m", "gzip", "-d", "g.txt.gz")
print(open("g.txt").read().count("hello"))
run("-m", "this")
run("-m", "filecmp", "pkg", "pkg/sub")
run("-m", "quopri", "-d", inp="caf=C3=A9\n")
run("-m", "zipapp", "pkg", "-o", "app.pyz", "-m", "pkg.a:f")
print(os.path.exists("app.pyz"))
