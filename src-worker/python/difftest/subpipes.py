# subprocess with pipes as agents drive tools: stdin=PIPE writes, communicate(timeout) then kill,
# check=True error texts, text=True newline translation, shell pipelines, env, cwd, exit codes.
import os
import re
import signal
import subprocess
import sys
import tempfile

d = os.path.realpath(tempfile.mkdtemp())
p = subprocess.Popen(["sort", "-r"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
for w in ("pear", "apple", "fig"):
    p.stdin.write(w + "\n")
p.stdin.close()
print(repr(p.stdout.read()), p.wait())
p = subprocess.Popen(["sh", "-c", "read a; echo got $a; sleep 30"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
try:
    p.communicate(b"x\n", timeout=3)
except subprocess.TimeoutExpired as e:
    print("TimeoutExpired", e.cmd, round(e.timeout, 1), e.output, re.sub(r"after [0-9.]+ sec", "after N sec", str(e)))
p.kill()
out, err = p.communicate()
print(repr(out), err, p.returncode)
try:
    subprocess.run(["sleep", "10"], timeout=0.3)
except subprocess.TimeoutExpired as e:
    print(re.sub(r"after [0-9.]+ sec", "after N sec", str(e)), round(e.timeout, 1), e.output, e.stdout)
try:
    subprocess.run("echo partial; sleep 20", shell=True, timeout=3, capture_output=True)
except subprocess.TimeoutExpired as e:
    print("captured before timeout", e.stdout, e.stderr)
for cmd in (["false"], ["sh", "-c", "echo out; echo err >&2; exit 3"], ["sh", "-c", "kill -TERM $$"], ["sh", "-c", "kill -KILL $$"]):
    try:
        subprocess.run(cmd, check=True, capture_output=True)
    except subprocess.CalledProcessError as e:
        print(type(e).__name__, e.returncode, e.cmd, e.stdout, e.stderr, "|", str(e))
try:
    subprocess.check_output("exit 4", shell=True)
except subprocess.CalledProcessError as e:
    print(repr(e), e.output)
try:
    subprocess.check_call(["sh", "-c", "exit 1"], stdout=subprocess.DEVNULL)
except subprocess.CalledProcessError as e:
    print(e)
r = subprocess.run(["printf", "a\\r\\nb\\rc\\n"], capture_output=True, text=True)
print(repr(r.stdout))
r = subprocess.run(["printf", "a\\r\\nb\\rc\\n"], capture_output=True)
print(repr(r.stdout))
r = subprocess.run(["printf", "a\\r\\nb"], stdout=subprocess.PIPE, universal_newlines=True)
print(repr(r.stdout))
r = subprocess.run(["cat"], input="caf\u00e9\n", capture_output=True, encoding="latin-1")
print(repr(r.stdout))
r = subprocess.run(["printf", "\\377\\n"], capture_output=True, text=True, errors="replace")
print(repr(r.stdout))
try:
    subprocess.run(["printf", "\\377\\n"], capture_output=True, text=True)
except UnicodeDecodeError as e:
    print("UnicodeDecodeError", e.reason)
r = subprocess.run("printf 'b\\na\\nc\\nb\\n' | sort | uniq -c | sort -rn | head -1", shell=True, capture_output=True, text=True)
print(repr(r.stdout.strip()), r.returncode)
r = subprocess.run("false | true; echo $?", shell=True, capture_output=True, text=True)
print(r.stdout, end="")
r = subprocess.run(["bash", "-c", "set -o pipefail; false | true"])
print("pipefail", r.returncode)
r = subprocess.run("nosuchcommand-xyz", shell=True, capture_output=True, text=True)
print(r.returncode, "not found" in r.stderr)
r = subprocess.run("exit 300", shell=True)
print(r.returncode)
r = subprocess.run(["sh", "-c", "echo $FOO-$BAR; pwd"], env={"FOO": "f", "PATH": os.environ["PATH"]}, cwd=d, capture_output=True, text=True)
print(r.stdout.replace(d, "D"), end="")
os.environ["EXPORTED"] = "yes"
print(subprocess.run("echo $EXPORTED", shell=True, capture_output=True, text=True).stdout, end="")
del os.environ["EXPORTED"]
print(repr(subprocess.run("echo $EXPORTED", shell=True, capture_output=True, text=True).stdout))
for bad in (["/nonexistent/prog"], ["nosuchprog-xyz"], [os.path.join(d)]):
    try:
        subprocess.run(bad)
    except OSError as e:
        print(type(e).__name__, e.errno, e.strerror, str(e.filename).replace(d, "D"))
with open(os.path.join(d, "noexec"), "w") as f:
    f.write("#!/bin/sh\necho hi\n")
try:
    subprocess.run([os.path.join(d, "noexec")])
except PermissionError as e:
    print("PermissionError", e.errno, e.strerror)
try:
    subprocess.run(["ls"], cwd=os.path.join(d, "nope"))
except FileNotFoundError as e:
    print("cwd", e.errno, e.strerror, str(e.filename).replace(d, "D"))
p = subprocess.Popen(["sleep", "30"])
print(p.poll())
p.send_signal(signal.SIGTERM)
print(p.wait(), p.returncode, p.poll())
p = subprocess.Popen(["sleep", "30"])
p.terminate()
try:
    p.wait(timeout=10)
except subprocess.TimeoutExpired:
    pass
print("terminate", p.returncode)
p = subprocess.Popen(["sleep", "5"])
try:
    p.wait(timeout=0.2)
except subprocess.TimeoutExpired as e:
    print("wait timeout", re.sub(r"after [0-9.]+ sec", "after N sec", str(e)))
p.kill()
print(p.wait())
with subprocess.Popen(["sh", "-c", "for i in 1 2 3; do echo line $i; done"], stdout=subprocess.PIPE, text=True, bufsize=1) as p:
    for line in p.stdout:
        print("streamed", line.rstrip())
print(p.returncode)
p = subprocess.Popen(["sh", "-c", "echo o1; echo e1 >&2; echo o2"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
print(p.communicate())
print(subprocess.getoutput("echo hi; exit 3"), subprocess.getstatusoutput("echo x; exit 3"))
print(subprocess.list2cmdline(["a b", 'c"d', ""]))
r = subprocess.run([sys.executable, "-c", "import sys; data = sys.stdin.read(); print(len(data)); sys.exit(data.count('x'))"], input="x" * 200_000 + "xx", text=True, capture_output=True)
print(r.stdout.strip(), r.returncode)
r = subprocess.run([sys.executable, "-c", "import sys; sys.stdout.write('y' * 500000)"], capture_output=True)
print(len(r.stdout))
