# python3 -m modules and flags as agents run them, through subprocess (ours runs ours, the host's the host's).
import os
import subprocess
import sys
import tempfile
import zipfile
import tarfile

d = tempfile.mkdtemp()
os.chdir(d)
env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}


def run(*args, inp=None, **kw):
    e = dict(env, **kw)
    r = subprocess.run([sys.executable, *args], capture_output=True, text=True, input=inp, env=e)
    print(args, r.returncode)
    out = r.stdout + r.stderr
    # Source lines under frames (-c shows its own since 3.13) and their markers are left out;
    # the interpreter's path is its own.
    out = "".join(l for l in out.splitlines(True) if not l.startswith("    "))
    print(out.replace(d, "$D").replace(sys.executable, "python3"), end="")


with open("d.json", "w") as f:
    f.write('{"b": [1, {"c": null}], "a": "é"}')
run("-m", "json.tool", "d.json")
run("-m", "json.tool", "--sort-keys", "--indent", "1", "d.json")
run("-m", "json.tool", "--compact", "d.json")
run("-m", "json.tool", "--no-ensure-ascii", "d.json")
run("-m", "json.tool", inp="[1, 2")
run("-m", "json.tool", "--json-lines", inp='{"a":1}\n{"b":2}\n')
run("-m", "base64", inp="hello")
run("-m", "base64", "-d", inp="aGVsbG8=\n")
with zipfile.ZipFile("z.zip", "w") as z:
    z.writestr(zipfile.ZipInfo("a.txt", (2024, 1, 2, 3, 4, 6)), "hello")
    z.writestr(zipfile.ZipInfo("dir/b.txt", (2020, 5, 6, 7, 8, 10)), "world" * 10)
with tarfile.open("t.tar", "w") as t:
    t.add("d.json")
run("-m", "zipfile", "-l", "z.zip")
run("-m", "zipfile", "-t", "z.zip")
run("-m", "tarfile", "-l", "t.tar")
with open("m.py", "w") as f:
    f.write("x = 1\nprint('m ran', __name__)\n")
run("-m", "py_compile", "m.py")
print(sorted(os.listdir("__pycache__"))[0].startswith("m.cpython-"))
with open("bad.py", "w") as f:
    f.write("def f(:\n")
run("-m", "py_compile", "bad.py")
run("-m", "m")
run("-c", "import sys; sys.exit('fatal message')")
run("-c", "raise SystemExit(None)")
run("-c", "raise SystemExit(3.5)")
run("-c", "import sys; sys.exit([1])")
run("-c", "import warnings; warnings.warn('careful'); print('done')")
run("-W", "error", "-c", "import warnings; warnings.warn('careful')")
run("-W", "ignore", "-c", "import warnings; warnings.warn('careful'); print('quiet')")
run("-c", "import warnings; warnings.warn('dep', DeprecationWarning); print('dep hidden')")
run("-W", "always::DeprecationWarning", "-c", "import warnings\nfor i in range(2): warnings.warn('dep', DeprecationWarning)")
run("-c", "import sys; print(sys.flags.dont_write_bytecode, sys.dont_write_bytecode)", PYTHONDONTWRITEBYTECODE="1")
run("-c", "import sys, mymod; print(mymod.x)", PYTHONPATH=os.path.join(d, "lib"))
os.mkdir("lib")
with open("lib/mymod.py", "w") as f:
    f.write("x = 'from pythonpath'\n")
run("-c", "import mymod; print(mymod.x)", PYTHONPATH=os.path.join(d, "lib"))
run("-X", "utf8", "-c", "import sys; print(sys.flags.utf8_mode)")
run("-c", "import sys; print(sys.argv)", "a", "-b", "--c")
run("-E", "-c", "import sys; print(sys.flags.ignore_environment)")
run("-O", "-c", "assert False, 'no'; print('optimized', __debug__)")
run("-c", "print(1/0)")
run("-m", "nosuchmod")
run("-m", "calendar", "2024", "2")
r = subprocess.run([sys.executable, "-m", "timeit", "-n", "10", "-r", "2", "x = sum(range(1000))"], capture_output=True, text=True, env=env)
import re
print("timeit", r.returncode, re.sub(r"[0-9.]+ (nsec|usec|msec|sec)", "N unit", r.stdout.splitlines()[0]))
run("-S", "-c", "print('nosite')")
run("-q", "-c", "print('q')")
run("-c", "import sys; print(sys.stdout.line_buffering, sys.stdout.write_through)")
run("-u", "-c", "import sys; print(sys.stdout.write_through)")
run("-c", "import sys; print(sys.stdout.write_through)", PYTHONUNBUFFERED="1")
