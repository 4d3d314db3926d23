# -O/-OO/PYTHONOPTIMIZE, -X utf8/dev/xoptions, os.access by mode bits and shutil.which.
import os, subprocess, sys, tempfile
env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
d = tempfile.mkdtemp()
p = os.path.join(d, "s.py")
with open(p, "w") as f:
    f.write("assert False, 'x'\nprint('ran', __debug__)\nif __debug__: print('debug')\nimport sys; print(sys.flags.optimize)\n")
def run(*a, **kw):
    r = subprocess.run([sys.executable, *a], capture_output=True, text=True, env=dict(env, **kw))
    print([x.replace(d, "$D") for x in a], r.returncode, r.stdout, r.stderr.splitlines()[-1:] if r.stderr else "")
run("-O", p)
run("-OO", p)
run(p, PYTHONOPTIMIZE="1")
run("-O", "-c", "assert 0; print(__debug__)")
run("-X", "utf8", "-c", "import sys; print(sys.flags.utf8_mode, sys._xoptions)")
run("-X", "utf8=0", "-c", "import sys; print(sys.flags.utf8_mode, sys._xoptions)")
run("-c", "import sys; print(sys.flags.utf8_mode)", PYTHONUTF8="1")
run("-X", "dev", "-c", "import sys, warnings; print(sys.flags.dev_mode); warnings.warn('d', DeprecationWarning)")
run("-X", "foo=bar", "-X", "baz", "-c", "import sys; print(sys._xoptions)")
run("-c", "import sys; print(sys._xoptions, sys.flags.optimize, sys.flags.dev_mode)")
open(os.path.join(d, "f"), "w").close()
os.chmod(os.path.join(d, "f"), 0o640)
print(os.access(os.path.join(d, "f"), os.R_OK), os.access(os.path.join(d, "f"), os.X_OK), os.access(os.path.join(d, "nope"), os.F_OK), os.access(d, os.X_OK))
os.chmod(os.path.join(d, "f"), 0o750)
print(os.access(os.path.join(d, "f"), os.X_OK), os.access(os.path.join(d, "f"), os.W_OK | os.X_OK))
import shutil
print(shutil.which("ls") is not None, shutil.which("f", path=d) == os.path.join(d, "f"))
os.chmod(os.path.join(d, "f"), 0o640)
print(shutil.which("f", path=d))
