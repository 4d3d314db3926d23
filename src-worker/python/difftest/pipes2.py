# python3 in shell pipelines: an early-exiting reader (head), binary stdin, input() prompts, closed
# descriptors (sys.stdout None), exit statuses of signals, os.abort, faulthandler.
import re
import subprocess
import sys

# bash on both sides: our sh is bash, the host's sh may be dash (which reports no signal deaths)
def sh(cmd, inp=None):
    r = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, input=inp)
    err = "\n".join(l for l in r.stderr.splitlines() if not l.startswith("    "))
    err = re.sub(r": +\d+ (Aborted|Killed)", r": PID \1", err)  # bash's job report names the pid
    print(repr(cmd), r.returncode, repr(r.stdout), repr(err))

py = "python3"
sh(f"{py} -c 'for i in range(100000): print(i)' | head -2")
sh(f"{py} -c 'import sys\nfor i in range(100000): sys.stdout.write(str(i) + chr(10))' | head -1")
sh(f"{py} -c 'print(\"x\" * 10)' | {py} -c 'import sys; d = sys.stdin.read(); print(len(d), repr(d[-2:]))'")
sh(f"printf 'a\\nb' | {py} -c 'import sys; print(sys.stdin.readlines())'")
sh(f"printf '\\000\\377\\200' | {py} -c 'import sys; print(sys.stdin.buffer.read())'")
sh(f"printf '\\377\\n' | {py} -c 'import sys; print(repr(sys.stdin.read()))'")
sh(f"printf 'bob\\n' | {py} -c 'n = input(\"name? \"); print(\"hi\", n)'")
sh(f"printf '' | {py} -c 'input(\"name? \")'")
sh(f"{py} -c 'import sys; sys.stdout.close(); print(1)'")
sh(f"{py} -c 'import sys; print(1); sys.stdout.flush(); sys.exit(0)' >&-")
sh(f"echo 3 | {py} -c 'import sys; n = int(sys.stdin.readline()); [print(i * i) for i in range(n)]' | sort -rn | tr '\\n' ' '")
sh(f"{py} -c 'import sys; print(sys.stdin.isatty(), sys.stdout.isatty(), sys.stdin.read() == \"\")' < /dev/null")
sh(f"{py} -c 'import fileinput\nfor l in fileinput.input(): print(fileinput.lineno(), l, end=\"\")'", inp="p\nq\n")
sh(f"{py} -c 'import signal, os; os.kill(os.getpid(), signal.SIGTERM)' 2>/dev/null; echo $?")
sh(f"{py} -c 'import signal, os; signal.signal(signal.SIGTERM, lambda *a: print(\"got term\")); os.kill(os.getpid(), signal.SIGTERM); print(\"after\")'")
sh(f"{py} -c 'import os; os.abort()' 2>/dev/null; echo $?")
sh(f"{py} -c 'import sys; print(sys.stdin, sys.__stdin__)' <&-")
sh(f"{py} -c 'import sys; sys.stderr.write(\"e\")' 2>&-; echo $?")
sh(f"{py} -X faulthandler -c 'import faulthandler; print(faulthandler.is_enabled())'")
sh(f"{py} -c 'import faulthandler; print(faulthandler.is_enabled())'")
sh(f"{py} -c 'raise SystemExit(256)'; echo $?")
sh(f"{py} -c 'raise SystemExit(-1)'; echo $?")
sh(f"{py} -c 'import sys; sys.exit(True)'; echo $?")
sh(f"{py} -c 'exit(5)'; echo $?")
sh(f"{py} -c 'quit()'; echo $?")
r = subprocess.run([sys.executable, "-c", "import os; print('x', flush=True); os.abort()"], capture_output=True, text=True)
print("abort", r.returncode, repr(r.stdout), repr(r.stderr))
