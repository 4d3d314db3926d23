# subprocess details: file and DEVNULL redirections, poll loops, line streaming, encodings, pass_fds, new sessions.
import os
import subprocess
import sys
import tempfile
import time

d = tempfile.mkdtemp()
out = os.path.join(d, "out.txt")
with open(out, "w") as f:
    subprocess.run(["echo", "to file"], stdout=f)
    subprocess.run(["sh", "-c", "echo err line >&2"], stderr=f)
print(open(out).read().splitlines())
r = subprocess.run(["cat"], stdin=subprocess.DEVNULL, capture_output=True)
print(r.stdout, r.returncode)
r = subprocess.run(["sh", "-c", "echo hidden; echo shown >&2"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
print(r.stdout, repr(r.stderr))
p = subprocess.Popen(["sh", "-c", "sleep 0.2; exit 7"])
polls = 0
while p.poll() is None:
    polls += 1
    time.sleep(0.02)
print("poll", p.returncode, polls > 2)
p = subprocess.Popen(["sh", "-c", "for i in 1 2 3; do echo line $i; sleep 0.05; done"], stdout=subprocess.PIPE, text=True, bufsize=1)
for line in iter(p.stdout.readline, ""):
    print("stream", line.rstrip())
p.wait()
r = subprocess.run(["printf", "caf\\351\\n"], capture_output=True, encoding="latin-1")
print(repr(r.stdout))
r = subprocess.run(["printf", "caf\\351\\n"], capture_output=True, text=True, errors="replace")
print(repr(r.stdout))
r = subprocess.run(["printf", "a\\r\\nb\\n"], capture_output=True, universal_newlines=True)
print(repr(r.stdout))
rfd, wfd = os.pipe()
p = subprocess.Popen(["sh", "-c", f"echo via fd >&{wfd}"], pass_fds=(wfd,))
p.wait()
os.close(wfd)
print(os.read(rfd, 100))
os.close(rfd)
r = subprocess.run([sys.executable, "-c", "print(1)"], start_new_session=True, capture_output=True, text=True)
print("session", r.stdout.strip(), r.returncode)
r = subprocess.run("echo $0; echo \"$1\"", shell=True, capture_output=True, text=True)
print(repr(r.stdout))
r = subprocess.run(["env"], env={"ONLY": "1"}, capture_output=True, text=True)
print(sorted(l.split("=")[0] for l in r.stdout.splitlines()))
try:
    subprocess.run(["sh", "-c", "exit 1"], check=True)
except subprocess.CalledProcessError as e:
    print(repr(e))
try:
    subprocess.check_call(["false"])
except subprocess.CalledProcessError as e:
    print(e.returncode, e.output)
print(subprocess.call(["true"]), subprocess.call("exit 9", shell=True))
try:
    subprocess.run(["sh", "-c", "kill -9 $$"], check=True)
except subprocess.CalledProcessError as e:
    print(e)
try:
    subprocess.run(["/etc"], capture_output=True)
except PermissionError as e:
    print(type(e).__name__, e.errno)
try:
    subprocess.run(["ls"], cwd="/nonexistent-dir")
except FileNotFoundError as e:
    print(type(e).__name__, e.errno, e.filename)
p = subprocess.Popen(["sleep", "10"])
try:
    p.wait(timeout=0.1)
except subprocess.TimeoutExpired as e:
    print("wait timeout", str(e).split(" timed")[0])
p.terminate()
print(p.wait(), p.returncode)
