# subprocess with the sandbox's tools: pipes, shell=True, return codes, stderr, errors.
import os
import shlex
import subprocess
import sys

print(subprocess.check_output(["sort"], input=b"b\na\nc\n"))
print(subprocess.check_output("printf 'x\\ny\\n' | wc -l", shell=True, text=True).strip())
r = subprocess.run(["ls", "/nonexistent-dir"], capture_output=True, text=True)
print(r.returncode, r.stdout == "", "No such file or directory" in r.stderr)
r = subprocess.run("echo out; echo err >&2; exit 3", shell=True, capture_output=True, text=True)
print(r.returncode, repr(r.stdout), repr(r.stderr), r.args)
try:
    subprocess.run(["false"], check=True)
except subprocess.CalledProcessError as e:
    print("CalledProcessError:", e, e.returncode, e.cmd)
try:
    subprocess.check_output("exit 7", shell=True)
except subprocess.CalledProcessError as e:
    print(str(e), e.output)
try:
    subprocess.check_call(["sh", "-c", "kill -TERM $$"])
except subprocess.CalledProcessError as e:
    print(e)
p1 = subprocess.Popen(["printf", "3\\n1\\n2\\n"], stdout=subprocess.PIPE)
p2 = subprocess.Popen(["sort", "-n"], stdin=p1.stdout, stdout=subprocess.PIPE, text=True)
p1.stdout.close()
out, _ = p2.communicate()
print(repr(out), p1.wait(), p2.returncode)
p = subprocess.Popen(["cat"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
o, e = p.communicate("through cat\n")
print(repr(o), e, p.returncode)
print(subprocess.run(["sh", "-c", "echo $FOO"], env={"FOO": "bar", "PATH": os.environ["PATH"]}, capture_output=True, text=True).stdout.strip())
print(subprocess.run(["pwd"], cwd="/tmp", capture_output=True, text=True).stdout.strip())
print(subprocess.getoutput("echo hi; exit 1"), subprocess.getstatusoutput("exit 4"))
try:
    subprocess.run(["sleep", "5"], timeout=0.3)
except subprocess.TimeoutExpired as e:
    print("TimeoutExpired:", e.cmd, round(e.timeout, 2))
print(os.system("exit 5") >> 8, os.popen("echo popen").read().strip())
with os.popen("echo a; echo b") as f:
    print(f.readlines())
print(shlex.split("a 'b c' \"d e\" f\\ g"), shlex.quote("it's"), shlex.join(["a b", "c"]))
r = subprocess.run([sys.executable, "-c", "import sys; sys.stderr.write('E\\n'); print('O'); sys.exit(9)"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
print(r.returncode, r.stdout, r.stderr, r.args[1:])
print(subprocess.run("seq 1 5 | tr '\\n' ' '", shell=True, stdout=subprocess.PIPE, text=True).stdout)
print(subprocess.call(["true"]), subprocess.call("exit 2", shell=True))
p = subprocess.Popen(["sh", "-c", "read x; echo got $x"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
print(p.communicate(b"line\n")[0], p.pid > 0)
with subprocess.Popen(["echo", "ctx"], stdout=subprocess.PIPE) as p:
    print(p.stdout.read())
print(p.returncode)
sys.stdout.flush()
subprocess.run(["echo", "inherited stdout"])
