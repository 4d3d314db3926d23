# subprocess, os.system, os.popen, os.pipe, shutil.which through the sandbox's processes.
import os, shutil, signal, subprocess, sys, tempfile, time
d = tempfile.mkdtemp()
os.chdir(d)
with open("f.txt", "w") as f:
    f.write("b\na\nc\n")
r = subprocess.run(["sort", "f.txt"], capture_output=True)
print(r.returncode, r.stdout, r.stderr, r.args)
r = subprocess.run("echo $((6*7)) | tr 4 X", shell=True, capture_output=True, text=True)
print(r.stdout, r.returncode)
print(subprocess.check_output(["echo", "hi"]), subprocess.check_output("echo err >&2; echo out", shell=True, stderr=subprocess.STDOUT))
print(subprocess.call(["sh", "-c", "exit 7"]), subprocess.getstatusoutput("echo x; exit 3"), subprocess.getoutput("printf abc"))
try:
    subprocess.check_call(["sh", "-c", "exit 2"])
except subprocess.CalledProcessError as e:
    print("CPE", e.returncode, e.cmd, str(e))
try:
    subprocess.check_output(["sh", "-c", "echo partial; exit 1"])
except subprocess.CalledProcessError as e:
    print("CPE out", e.output, e.stdout)
try:
    subprocess.run(["sleep", "5"], timeout=0.3)
except subprocess.TimeoutExpired as e:
    print("timeout", e.timeout < 1, e.cmd, str(e).split(" timed")[0])
try:
    subprocess.run(["./nosuch_program"])
except FileNotFoundError as e:
    print("FNF", e.filename, e.strerror, type(e).__name__)
with open("noexec.sh", "w") as f:
    f.write("echo hi\n")
try:
    subprocess.run(["./noexec.sh"])
except PermissionError as e:
    print("EACCES", e.filename, e.strerror)
p = subprocess.Popen(["cat"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
out, err = p.communicate("hello\nworld\n")
print(repr(out), err, p.returncode, p.pid > 0)
p = subprocess.Popen(["sh", "-c", "read x; echo got $x; exit 4"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
p.stdin.write(b"line\n"); p.stdin.close()
print(p.stdout.read(), p.wait(), p.poll(), p.returncode)
p1 = subprocess.Popen(["printf", "3\\n1\\n2\\n"], stdout=subprocess.PIPE)
p2 = subprocess.Popen(["sort", "-n"], stdin=p1.stdout, stdout=subprocess.PIPE)
p1.stdout.close()
print(p2.communicate()[0], p1.wait(), p2.returncode)
p = subprocess.Popen(["sleep", "10"])
p.terminate(); print("terminated", p.wait())
p = subprocess.Popen(["sleep", "10"])
p.kill(); print("killed", p.wait())
p = subprocess.Popen(["sleep", "10"])
p.send_signal(signal.SIGINT); print("sigint", p.wait())
p = subprocess.Popen(["sleep", "10"])
try:
    p.wait(timeout=0.2)
except subprocess.TimeoutExpired:
    print("wait timeout")
p.kill(); p.wait()
r = subprocess.run(["sh", "-c", "echo $A-$B; pwd"], env={"A": "1", "B": "2", "PATH": os.environ["PATH"]}, cwd="/", capture_output=True, text=True)
print(r.stdout)
os.environ["INHERIT_ME"] = "yes"
print(subprocess.run(["sh", "-c", "echo $INHERIT_ME"], capture_output=True, text=True).stdout)
sys.stdout.flush()
st = os.system("echo from system; exit 3")
print("system", st, os.waitstatus_to_exitcode(st))
print(os.system("true"))
with os.popen("echo popen; echo two") as f:
    print(f.readlines())
f = os.popen("exit 5"); print("popen close", f.close())
with os.popen("cat > popen_out.txt", "w") as f:
    f.write("written via popen\n")
print(open("popen_out.txt").read())
r, w = os.pipe()
os.write(w, b"through a pipe")
os.close(w)
print(os.read(r, 100), os.read(r, 100))
os.close(r)
print(shutil.which("sh") is not None, shutil.which("nosuch_prog_xyz"), shutil.which("sort") == shutil.which("sort", path=os.environ["PATH"]))
r = subprocess.run([sys.executable, "-c", "import sys; print(sys.stdin.read()[::-1])"], input=b"abc", stdout=subprocess.PIPE)
print(r.stdout)
r = subprocess.run(["cat"], input="x" * 200000, capture_output=True, text=True)
print(len(r.stdout))
r = subprocess.run(["sh", "-c", "echo out; echo err >&2"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
print(r.stdout, r.stderr)
with open("redir.txt", "w") as f:
    subprocess.run(["echo", "to file"], stdout=f)
print(open("redir.txt").read(), end="")
r = subprocess.run(["sh", "-c", "kill -TERM $$"])
print("self kill", r.returncode)
print(subprocess.list2cmdline(["a b", "c"]))
with subprocess.Popen(["echo", "ctx"], stdout=subprocess.PIPE) as p:
    print(p.stdout.read())
print(p.returncode)
os.chdir("/")
shutil.rmtree(d)
