# Imports of the program's own code: local modules, packages, relative imports, -m with __main__.py,
# __pycache__ written as CPython writes it, PYTHONPATH, sys.path[0], importlib.reload, errors.
import os, subprocess, sys, tempfile, textwrap
py = sys.executable
d = tempfile.mkdtemp()
os.chdir(d)
def write(path, text):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w") as f:
        f.write(textwrap.dedent(text))
write("util.py", """
    VALUE = 42
    def helper():
        return "helped"
    print("util imported as", __name__)
""")
write("pkg/__init__.py", "from .core import run\nVERSION = '1.0'\n")
write("pkg/core.py", "from . import helpers\ndef run():\n    return 'core ' + helpers.h()\n")
write("pkg/helpers.py", "def h():\n    return 'helper'\n")
write("pkg/__main__.py", "import sys\nfrom pkg import run, VERSION\nprint('pkg main', run(), VERSION, sys.argv)\n")
write("pkg/sub/__init__.py", "")
write("pkg/sub/deep.py", "from ..helpers import h\nprint('deep', h(), __name__, __package__)\n")
write("main.py", """
    import sys, os
    import util
    from pkg import run
    print(util.VALUE, util.helper(), run(), __name__, os.path.basename(__file__), sys.argv)
    print(os.path.basename(sys.path[0]) == os.path.basename(os.path.dirname(os.path.abspath(__file__))))
""")
def run(*args, env=None, cwd=None):
    r = subprocess.run([py, *args], capture_output=True, text=True, env=env, cwd=cwd)
    clean = lambda t: t.replace(os.path.realpath(d), "D").replace(d, "D").replace(py, "PY")
    print(args, r.returncode, repr(clean(r.stdout)), [clean(l) for l in r.stderr.splitlines()[-1:]])
run("main.py", "x")
print(sorted(os.listdir("__pycache__")) and sorted(n.split(".")[0] for n in os.listdir("__pycache__")), sorted(n.split(".")[0] for n in os.listdir("pkg/__pycache__")))
run("-B", "-c", "import util")
run("-m", "pkg", "a1")
run("-m", "pkg.sub.deep")
run("-m", "util")
run("-m", "nosuchmod")
run("-m", "pkg.nosuch")
run("-c", "import nosuchmod")
run("-c", "from pkg import nosuch")
run("-c", "import pkg.sub.deep")
os.mkdir("other")
run("-c", "import util", cwd="other")
run("-c", "import util; print(util.VALUE)", cwd="other", env={**os.environ, "PYTHONPATH": d})
run("-c", "import sys; print(sys.path[0] == '')")
run("-I", "-c", "import sys; print(sys.path[0] == '' or sys.path[0].startswith('/usr') or 'zip' in sys.path[0] or 'lib' in sys.path[0])")
write("relbad.py", "from . import util\n")
run("relbad.py")
write("selfimport.py", "import selfimport\nprint('self', __name__)\n")
run("selfimport.py")
write("reloader.py", """
    import importlib, util
    util.VALUE = 0
    importlib.reload(util)
    print('reloaded', util.VALUE)
    mod = importlib.import_module('pkg.helpers')
    print(mod.h(), importlib.util.find_spec('util') is not None, importlib.util.find_spec('nope_x') is None)
""")
run("reloader.py")
write("syntaxerr.py", "def f(:\n    pass\n")
run("-c", "import syntaxerr")
write("circ_a.py", "import circ_b\nA = 1\n")
write("circ_b.py", "from circ_a import A\n")
run("-c", "import circ_a")
write("dunder.py", "print(__name__, __doc__, __package__, __spec__ is None, '__file__' in dir())\n")
run("dunder.py")
run("-c", "print(__name__, __file__ if '__file__' in dir() else 'no file', __spec__)")
run("-m", "dunder")
os.makedirs("app", exist_ok=True)
write("app/__main__.py", "import sys\nprint('dir main', sys.argv[0].endswith('app'))\n")
run("app")
import zipfile
with zipfile.ZipFile("z.pyz", "w") as z:
    z.writestr("__main__.py", "import sys\nprint('zipapp', sys.argv[1:])\n")
run("z.pyz", "q")
