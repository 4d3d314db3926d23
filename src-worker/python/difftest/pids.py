# Process ids as scripts compare them: getpid/getppid against the shell's $$ and $PPID, children's
# parents, Popen.pid, process groups and sessions, and exec keeping the pid.
import os
import subprocess
import sys

me = os.getpid()
print(me > 1, os.getppid() > 0, os.getppid() != me)
r = subprocess.run([sys.executable, "-c", "import os; print(os.getppid())"], capture_output=True, text=True)
print("child's parent is us", int(r.stdout) == me)
p = subprocess.Popen([sys.executable, "-c", "import os; print(os.getpid())"], stdout=subprocess.PIPE, text=True)
out, _ = p.communicate()
print("Popen.pid is the child's getpid", int(out) == p.pid, p.pid != me)
r = subprocess.run(["sh", "-c", 'echo $$ $PPID; python3 -c "import os; print(os.getpid(), os.getppid())"'], capture_output=True, text=True)
shpid, shppid, pypid, pyppid = map(int, r.stdout.split())
print("sh's $PPID is us", shppid == me, "python's parent is sh", pyppid == shpid, pypid != shpid)
r = subprocess.run("echo $$ && python3 -c 'import os; print(os.getppid())'", shell=True, capture_output=True, text=True)
a, b = map(int, r.stdout.split())
print("shell=True parent", a == b)
print(os.getpgrp() == os.getpgid(0), os.getsid(0) > 0, os.getpgid(me) == os.getpgrp())
r = subprocess.run([sys.executable, "-c", "import os; print(os.getpgrp(), os.getsid(0))"], capture_output=True, text=True)
pg, sid = map(int, r.stdout.split())
print("child shares our group and session", pg == os.getpgrp(), sid == os.getsid(0))
r = subprocess.run([sys.executable, "-c", "import os; print(os.getpid(), os.getpgrp(), os.getsid(0))"], capture_output=True, text=True, process_group=0)
pid, pg, sid = map(int, r.stdout.split())
print("process_group=0", pid == pg, sid == os.getsid(0))
try:
    os.getpgid(99999)
except ProcessLookupError as e:
    print("getpgid", e.errno, e.strerror)
try:
    os.kill(99999, 0)
except ProcessLookupError as e:
    print("kill", e.errno, e.strerror)
os.kill(me, 0)
print("kill 0 to self ok")
pids = set()
for _ in range(3):
    pids.add(int(subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True).stdout))
print("distinct pids", len(pids), me not in pids)
r = subprocess.run(["sh", "-c", "cat /proc/$PPID/status | grep -c '^Pid'; test -d /proc/$PPID && echo has-proc"], capture_output=True, text=True)
print(r.stdout.split())
print(os.path.isdir(f"/proc/{me}"), os.path.exists("/proc/self"))
with open(f"/proc/{me}/status") as f:
    st = dict(l.split(":", 1) for l in f if ":" in l)
print(int(st["Pid"]) == me, int(st["PPid"]) == os.getppid(), st["Name"].strip() in ("python3", "python", "python3.11", "python3.14"))
print(open("/proc/self/cmdline", "rb").read().split(b"\0")[1:2] == [sys.argv[0].encode()])
