# subprocess as scripts use it: Popen pipes, communicate, check=True errors, shell pipelines,
# env/cwd, timeouts, signals as negative return codes, output ordering with our own prints.
import os
import signal
import subprocess
import sys
import tempfile

p = subprocess.Popen(["cat"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
out, err = p.communicate(b"hello\nworld\n")
print(out, err, p.returncode)
p = subprocess.Popen("tr a-z A-Z", shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
print(repr(p.communicate("abc\n")[0]))
try:
    subprocess.run(["sh", "-c", "echo oops >&2; exit 3"], check=True, capture_output=True)
except subprocess.CalledProcessError as e:
    print(e)
    print(e.returncode, e.stdout, e.stderr, e.cmd)
try:
    subprocess.check_output("exit 4", shell=True)
except subprocess.CalledProcessError as e:
    print(e)
r = subprocess.run("printf 'b\\na\\nc\\n' | sort | head -2", shell=True, capture_output=True, text=True)
print(repr(r.stdout), r.returncode)
d = tempfile.mkdtemp()
r = subprocess.run(["pwd"], cwd=d, capture_output=True, text=True)
print(r.stdout.strip() == os.path.realpath(d))
r = subprocess.run(["sh", "-c", "echo $FOO-$BAR"], env={"FOO": "1", "PATH": os.environ["PATH"]}, capture_output=True, text=True)
print(repr(r.stdout))
try:
    subprocess.run(["sleep", "5"], timeout=0.3)
except subprocess.TimeoutExpired as e:
    print(str(e).split(" timed out")[0], round(e.timeout, 2))
try:
    subprocess.run("sleep 5", shell=True, timeout=0.2, capture_output=True)
except subprocess.TimeoutExpired as e:
    print(e)
p = subprocess.Popen(["sleep", "5"])
p.send_signal(signal.SIGTERM)
print("term", p.wait())
p = subprocess.Popen(["sleep", "5"])
p.kill()
print("kill", p.wait())
r = subprocess.run(["sh", "-c", "kill -INT $$"])
print("self int", r.returncode)
print("before child", flush=True)
subprocess.run(["echo", "child says hi"])
print("after child")
sys.stdout.flush()
r = subprocess.run([sys.executable, "-c", "import sys; print('py child', sys.argv[1:])", "a b", "c"])
print(r.returncode, r.args[-2:])
print(subprocess.getoutput("echo hi; exit 2"), subprocess.getstatusoutput("echo hi; exit 2"))
print(subprocess.list2cmdline(["a b", "c\"d", ""]))
p = subprocess.run(["cat"], input="line1\nline2\n", capture_output=True, text=True)
print(p.stdout.splitlines())
try:
    subprocess.run(["no-such-program-xyz"])
except FileNotFoundError as e:
    print(type(e).__name__, e.errno, e.filename)
p = subprocess.Popen(["sh", "-c", "echo out; echo err >&2"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
print(sorted(p.stdout.read().split()), p.wait())
with subprocess.Popen(["seq", "3"], stdout=subprocess.PIPE, text=True) as p:
    for line in p.stdout:
        print("got", line.strip())
print(p.returncode, os.system("exit 3") >> 8, os.popen("echo popen").read())
