# signal.alarm / setitimer: SIGALRM from the kernel's timer, handlers, timeouts.
import signal
import subprocess
import sys
import time


def h(sig, frame):
    print("got", signal.Signals(sig).name)


signal.signal(signal.SIGALRM, h)
print(signal.alarm(1), signal.alarm(2))
t = time.time()
signal.pause()
print("paused about", round(time.time() - t))
print(signal.getitimer(signal.ITIMER_REAL))
signal.setitimer(signal.ITIMER_REAL, 0.1, 0.1)
n = 0


class Stop(Exception):
    pass


def h2(sig, frame):
    global n
    n += 1
    if n == 3:
        raise Stop


signal.signal(signal.SIGALRM, h2)
x = 0
try:
    while True:
        x += 1
except Stop:
    print("stopped after", n)
print(signal.setitimer(signal.ITIMER_REAL, 0)[1])


def too_slow(sig, frame):
    raise TimeoutError("too slow")


signal.signal(signal.SIGALRM, too_slow)
signal.alarm(1)
try:
    time.sleep(5)
except TimeoutError as e:
    print("timeout:", e)
print(signal.alarm(0))
try:
    signal.setitimer(signal.ITIMER_REAL, -1)
except signal.ItimerError as e:
    print("ItimerError", e)
code = "import signal\nsignal.alarm(1)\nx = 0\nwhile True:\n    x += 1\n"
print("default action", subprocess.run([sys.executable, "-c", code]).returncode)
