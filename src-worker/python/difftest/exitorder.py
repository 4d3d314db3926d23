# How a program's end is reported, by mode, with stdout a pipe and stderr into it:
# a script file and stdin flush stdout first; -c and -m report first (stdout at exit).
import os
import subprocess
import sys
import tempfile

env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
d = tempfile.mkdtemp()
os.chdir(d)
ENDINGS = {
    "exit-msg": "print('out')\nimport sys\nsys.exit('the message')\n",
    "exit-int": "print('out')\nimport sys\nsys.stderr.write('err\\n')\nsys.exit(4)\n",
    "exit-none": "print('out')\nraise SystemExit(None)\n",
    "exit-obj": "print('out')\nraise SystemExit(['a', 1])\n",
    "error": "print('out')\nimport sys\nsys.stderr.write('err\\n')\nraise ValueError('bad')\n",
    "interrupt": "print('out')\nraise KeyboardInterrupt\n",
    "os-exit": "print('out')\nimport os\nos._exit(5)\n",
    "hook": "import sys\nsys.excepthook = lambda t, v, tb: print('hook', t.__name__, v, file=sys.stderr)\nprint('out')\n1/0\n",
    "atexit": "import atexit, sys\natexit.register(lambda: print('at exit'))\nprint('out')\nsys.exit('bye')\n",
}
for name, src in ENDINGS.items():
    with open("prog.py", "w") as f:
        f.write(src)
    with open("progmod.py", "w") as f:
        f.write(src)
    for how in (["prog.py"], ["-"], ["-c", src], ["-m", "progmod"]):
        r = subprocess.run([sys.executable, *how], input=src if how == ["-"] else None, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, env=env)
        # Source lines under frames (-c shows its own since 3.13) and their markers are left out.
        out = "".join(l for l in r.stdout.splitlines(True) if not l.startswith("    "))
        print(name, how[0], r.returncode, repr(out.replace(d, "$D")))
