# Signals and pipes as CPython's process sees them: SIGPIPE ignored (BrokenPipeError), SIGINT's exit.
import os, signal, subprocess, sys
print(signal.getsignal(signal.SIGPIPE) == signal.SIG_IGN, signal.getsignal(signal.SIGINT) is signal.default_int_handler)
def sh(cmd):
    p = subprocess.run(["sh", "-c", cmd], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr.splitlines()[-1:]
py = sys.executable
print(sh(f"{{ {py} -c 'for i in range(100000): print(i)'; echo $? > st; }} | head -2; cat st; rm st"))
print(sh(f"{py} -c 'raise KeyboardInterrupt'; echo $?"))
p = subprocess.run([py, "-c", "raise KeyboardInterrupt"], capture_output=True, text=True)
print(p.returncode, p.stderr.splitlines()[-1])
p = subprocess.run([py, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGTERM)"], capture_output=True)
print(p.returncode)
p = subprocess.run([py, "-c", "import signal, os; signal.signal(signal.SIGINT, signal.SIG_IGN); os.kill(os.getpid(), signal.SIGINT); print('survived')"], capture_output=True, text=True)
print(p.returncode, p.stdout)
p = subprocess.run([py, "-c", "import signal, os, time; signal.signal(signal.SIGTERM, lambda s, f: print('term', s, flush=True)); os.kill(os.getpid(), signal.SIGTERM); time.sleep(0.1); print('after')"], capture_output=True, text=True)
print(p.returncode, p.stdout)
p = subprocess.run([py, "-c", "import signal, os; signal.signal(signal.SIGINT, signal.SIG_DFL); os.kill(os.getpid(), signal.SIGINT)"], capture_output=True, text=True)
print(p.returncode, p.stderr)
print(sh("yes | head -1"))
p = subprocess.Popen([py, "-c", "import time, sys; print('go', flush=True); time.sleep(20)"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
p.stdout.readline()
p.send_signal(signal.SIGINT)
out, err = p.communicate()
print("child sigint", p.returncode, err.splitlines()[-1])
# The writer starts after the reader has closed its end (else it races the close).
print(sh(f"{{ sleep 0.3; {py} -c 'print(\"x\" * 10)'; echo $? > st; }} | (exec 0<&-; sleep 1); cat st; rm st"))
