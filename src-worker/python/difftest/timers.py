# Timers and alarms as scripts use them for timeouts: repeating setitimer, getitimer, alarm's previous
# remaining, cancelling, a timeout context around slow code, default SIGALRM ending a child.
import signal
import subprocess
import sys
import time


class Timeout(Exception):
    pass


def on_alarm(signum, frame):
    raise Timeout(f"timed out by signal {signum}")


signal.signal(signal.SIGALRM, on_alarm)
try:
    signal.alarm(1)
    while True:
        time.sleep(0.05)
except Timeout as e:
    print(e)
print(signal.alarm(0))
print(signal.alarm(10), signal.alarm(20) in (9, 10), signal.alarm(0) in (19, 20))
ticks = []


def tick(s, f):
    ticks.append(s)


signal.signal(signal.SIGALRM, tick)
signal.setitimer(signal.ITIMER_REAL, 0.1, 0.1)
deadline = time.monotonic() + 10
while len(ticks) < 3 and time.monotonic() < deadline:
    time.sleep(0.01)
old = signal.setitimer(signal.ITIMER_REAL, 0)
print("ticks", len(ticks) >= 3, old[1] == 0.1, 0 <= old[0] <= 0.1)
print(signal.getitimer(signal.ITIMER_REAL))
signal.setitimer(signal.ITIMER_REAL, 5)
v, i = signal.getitimer(signal.ITIMER_REAL)
print(0 < v <= 5, i)
signal.setitimer(signal.ITIMER_REAL, 0)
try:
    signal.setitimer(signal.ITIMER_REAL, -1)
except signal.ItimerError as e:
    print("ItimerError", e)
signal.signal(signal.SIGALRM, on_alarm)
try:
    signal.setitimer(signal.ITIMER_REAL, 0.2)
    sum(i * i for i in range(10**9))
except Timeout as e:
    print("busy loop interrupted:", e)
got = []
signal.signal(signal.SIGALRM, lambda s, f: got.append("alarm"))
signal.setitimer(signal.ITIMER_REAL, 0.2)
signal.pause()
print("pause returned", got)
signal.signal(signal.SIGALRM, on_alarm)
signal.alarm(1)
try:
    subprocess.run(["sleep", "5"])
except Timeout as e:
    print("subprocess interrupted", e)
signal.alarm(0)
r = subprocess.run([sys.executable, "-c", "import signal, time; signal.alarm(1); time.sleep(5); print('not reached')"], capture_output=True, text=True)
print("default action", r.returncode, repr(r.stdout))
r = subprocess.run(["sh", "-c", "python3 -c 'import signal, time; signal.setitimer(signal.ITIMER_REAL, 0.2); time.sleep(5)'; echo $?"], capture_output=True, text=True)
print("in a shell", r.stdout.strip())
r = subprocess.run([sys.executable, "-c", "import signal, time; signal.signal(signal.SIGALRM, signal.SIG_IGN); signal.setitimer(signal.ITIMER_REAL, 0.1); time.sleep(0.5); print('ignored ok')"], capture_output=True, text=True)
print(r.returncode, r.stdout.strip())
print(signal.getsignal(signal.SIGALRM) is on_alarm, signal.Signals(14).name, signal.strsignal(signal.SIGALRM), signal.ITIMER_REAL, signal.ITIMER_VIRTUAL, signal.ITIMER_PROF)
