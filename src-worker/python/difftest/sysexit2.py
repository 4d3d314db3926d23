# How SystemExit and friends end a program, run as children: messages and codes of raise SystemExit(...),
# codes out of range, exits from threads, atexit, finally blocks, excepthook, exits inside with/except.
import os
import re
import subprocess
import sys
import tempfile

d = tempfile.mkdtemp()
progs = [
    'raise SystemExit("fatal: config missing")',
    "raise SystemExit",
    "raise SystemExit(0)",
    "raise SystemExit(3)",
    "raise SystemExit(None)",
    "raise SystemExit(256)",
    "raise SystemExit(-1)",
    "raise SystemExit(2**40)",
    "raise SystemExit(True)",
    "raise SystemExit(3.5)",
    "raise SystemExit((1, 2))",
    "raise SystemExit([])",
    'raise SystemExit(1, "two args")',
    "import sys; sys.exit('to stderr')",
    "import sys; sys.exit({'k': 1})",
    "exit(4)",
    "quit('quit msg')",
    "import os, atexit; atexit.register(print, 'atexit not run'); os._exit(5)",
    "import atexit, sys; atexit.register(lambda: print('atexit ran')); sys.exit(6)",
    "import atexit, sys\ndef f(): raise SystemExit(9)\natexit.register(f)\nprint('body')",
    "import atexit\ndef f(): 1/0\natexit.register(f)\nprint('body')",
    "import sys\ntry:\n    sys.exit(7)\nfinally:\n    print('finally ran')",
    "import sys\ntry:\n    sys.exit(7)\nexcept SystemExit as e:\n    print('caught', e.code)\nprint('continued')",
    "import sys\ntry:\n    1/0\nexcept ZeroDivisionError:\n    sys.exit('in except')",
    "import threading, sys\nt = threading.Thread(target=sys.exit, args=(3,))\nt.start(); t.join()\nprint('main goes on')",
    "import sys\nsys.excepthook = lambda *a: print('hook', a[0].__name__, file=sys.stderr)\nraise ValueError('x')",
    "import sys\nsys.excepthook = lambda *a: print('hook not for exit')\nsys.exit(8)",
    "import sys\nclass E(SystemExit): pass\nraise E('subclass msg')",
    "raise KeyboardInterrupt",
    "import sys\nsys.stdout.write('no newline'); sys.exit(2)",
    "import sys\nprint('out'); print('err', file=sys.stderr); raise SystemExit('bye')",
    "import sys\nsys.exit(sys.exit)",
    "import sys\nsys.tracebacklimit = 0\nraise RuntimeError('no frames')",
    "import sys\ndef g(): raise GeneratorExit\ng()",
    "raise BaseException('base')",
]
for i, src in enumerate(progs):
    path = os.path.join(d, f"p{i}.py")
    with open(path, "w") as f:
        f.write(src + "\n")
    r = subprocess.run([sys.executable, path], capture_output=True, text=True)
    # 3.13 words the atexit report "Exception ignored in atexit callback <f>:" (3.11: "...callback: <f>").
    err = [re.sub(r" at 0x[0-9a-f]+", "", l).replace("callback: <function f>", "callback <function f>:") for l in r.stderr.replace(path, "P").splitlines() if l.strip(" ~^")]
    print(repr(src), "->", r.returncode, repr(r.stdout), err if len(err) < 6 else err[:1] + err[-2:])
r = subprocess.run(["sh", "-c", f"{sys.executable} -c 'raise SystemExit(300)'; echo $?"], capture_output=True, text=True)
print("shell sees", r.stdout.strip())
r = subprocess.run(["sh", "-c", f"{sys.executable} -c 'raise SystemExit(\"m\")' 2>/dev/null || echo failed $?"], capture_output=True, text=True)
print(r.stdout.strip())
