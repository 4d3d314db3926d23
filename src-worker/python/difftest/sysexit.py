# sys.exit forms and what they print, in each command-line mode.
import subprocess, sys
def run(code, *pre):
    for mode in ("c", "file"):
        if mode == "c":
            r = subprocess.run([sys.executable, *pre, "-c", code], capture_output=True, text=True)
        else:
            r = subprocess.run([sys.executable, *pre, "-"], capture_output=True, text=True, input=code)
        print(mode, repr(code), r.returncode, repr(r.stdout), repr(r.stderr))
for code in ["import sys; sys.exit()", "import sys; sys.exit(None)", "import sys; sys.exit(0)", "import sys; sys.exit(3)",
             "import sys; sys.exit(255)", "import sys; sys.exit(256)", "import sys; sys.exit(257)", "import sys; sys.exit(-1)",
             "import sys; sys.exit(True)", "import sys; sys.exit(False)", "import sys; sys.exit('bye')", "import sys; sys.exit(('a', 1))",
             "import sys; sys.exit([1])", "import sys; sys.exit(2.5)", "raise SystemExit(4)", "raise SystemExit", "raise SystemExit(1, 2)",
             "exit(5)", "quit(6)", "import os; os._exit(9)", "import os; print('x', end=''); os._exit(0)", "print('buffered'); raise SystemExit('msg')",
             "import sys; sys.exit(2**40)", "import sys; sys.exit(-256)", "import sys\ntry:\n    sys.exit(3)\nfinally:\n    print('fin')",
             "import atexit, sys\natexit.register(lambda: print('atexit ran'))\nsys.exit(7)", 
             "import sys\nclass C:\n    def __del__(self): print('del')\nc = C()\nsys.exit(0)", "import sys; sys.stderr.write('e\\n'); sys.exit(' ')", "import sys; sys.exit('')",
             "import sys\ndef hook(*a): print('hook', a[0].__name__)\nsys.excepthook = hook\nraise ValueError(1)", "import sys\nsys.exit(SystemExit(3))"]:
    run(code)
run("import sys; sys.exit(3)", "-u")
