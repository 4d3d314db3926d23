# What CPython's exit does to a program's objects: files left open are flushed, __del__ runs,
# temporary files are removed, in every way a program can end.
import os, subprocess, sys, tempfile
py = sys.executable
d = tempfile.mkdtemp()
os.chdir(d)
with open("helper_mod.py", "w") as f:
    f.write("log = open('from_module.txt', 'w')\nlog.write('module data')\n")
cases = [
    "f = open('out.txt', 'w'); f.write('unclosed')",
    "import sys\nf = open('out.txt', 'w')\nf.write('before exit')\nsys.exit(3)",
    "f = open('out.txt', 'w')\nf.write('before error')\nraise ValueError('boom')",
    "def g():\n    f = open('out.txt', 'w')\n    f.write('in function')\ng()",
    "f = open('out.txt', 'wb'); f.write(b'bytes'); g = open('out.txt', 'rb'); print(g.read())",
    "class C:\n    def __del__(self):\n        print('del ran')\nc = C()",
    "class C:\n    def __del__(self):\n        print('del', self.n)\na = C(); a.n = 1\nb = C(); b.n = 2",
    "class C:\n    def __del__(self):\n        print('del after exit')\nc = C()\nimport sys\nsys.exit(0)",
    "class C:\n    def __del__(self):\n        raise RuntimeError('in del')\nc = C()\nprint('main done')",
    "import tempfile, os\nt = tempfile.NamedTemporaryFile('w', dir='.', suffix='.tmp', delete=True)\nt.write('x')\nprint(len([n for n in os.listdir('.') if n.endswith('.tmp')]))",
    "import helper_mod\nprint('imported')",
    "import atexit\nf = open('out.txt', 'w')\natexit.register(lambda: f.write(' +atexit'))\nf.write('main')",
    "import sys\nsys.stdout = open('out.txt', 'w')\nprint('redirected print')",
    "import subprocess\np = subprocess.Popen(['cat'], stdin=subprocess.PIPE, stdout=open('out.txt', 'wb'))\np.stdin.write(b'to child')\np.stdin.close()\np.wait()",
]
for code in cases:
    for mode in ("c", "file"):
        for n in ("out.txt", "from_module.txt"):
            if os.path.exists(n):
                os.remove(n)
        if mode == "c":
            r = subprocess.run([py, "-c", code], capture_output=True, text=True)
        else:
            with open("prog.py", "w") as f:
                f.write(code + "\n")
            r = subprocess.run([py, "prog.py"], capture_output=True, text=True)
        files = {n: open(n).read() for n in ("out.txt", "from_module.txt") if os.path.exists(n)}
        print(mode, repr(code[:40]), r.returncode, repr(r.stdout), r.stderr.splitlines()[-1:], files)
print(sorted(n for n in os.listdir(".") if n.endswith(".tmp")))
