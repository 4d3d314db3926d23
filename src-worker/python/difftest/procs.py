# subprocess details: run/Popen/check_output/call, text and encoding, stderr=STDOUT, env, timeout, errors, os.popen/system.
import os, subprocess, sys, shlex
py = sys.executable
r = subprocess.run("echo out; echo err >&2; exit 3", shell=True, capture_output=True, text=True)
print(r, r.args, r.returncode, repr(r.stdout), repr(r.stderr))
r = subprocess.run("echo out; echo err >&2", shell=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
print(r.stdout, r.stderr)
r = subprocess.run(["printf", "%s\\n", "a", "b c"], stdout=subprocess.PIPE, encoding="utf-8")
print(repr(r.stdout))
r = subprocess.run(["cat"], input="é\n", capture_output=True, encoding="latin-1")
print(repr(r.stdout))
r = subprocess.run(["cat"], input=b"bytes", capture_output=True)
print(r.stdout)
r = subprocess.run("exit 0", shell=True)
print(r, r.stdout)
print(subprocess.call("exit 5", shell=True), subprocess.call(["true"]), subprocess.check_call(["true"]))
print(repr(subprocess.check_output("echo hi", shell=True)), repr(subprocess.check_output(["echo", "x"], text=True)), repr(subprocess.getoutput("echo go; exit 2")), subprocess.getstatusoutput("echo so; exit 2"))
for cmd in (["nonexistent-cmd-xyz"], "nonexistent-cmd-xyz"):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, shell=isinstance(cmd, str))
        print(r.returncode, "not found" in r.stderr)
    except FileNotFoundError as e:
        print("FileNotFoundError", e, e.errno, e.filename)
try:
    subprocess.run(["/etc/passwd"])
except PermissionError as e:
    print("PermissionError", e)
try:
    subprocess.run(["/tmp"])
except PermissionError as e:
    print("PermissionError", e)
try:
    subprocess.check_call(["false"])
except subprocess.CalledProcessError as e:
    print(e, e.returncode, e.output, e.cmd)
try:
    subprocess.check_output(["python3", "-c", "import sys; print('partial'); sys.exit(2)"], text=True)
except subprocess.CalledProcessError as e:
    print(e, repr(e.output), repr(e.stdout))
try:
    subprocess.run(["sleep", "5"], timeout=0.3)
except subprocess.TimeoutExpired as e:
    print(str(e).split(" after ")[0], round(e.timeout, 1), e.cmd, e.output)
try:
    subprocess.run(["python3", "-c", "import time; print('early', flush=True); time.sleep(5)"], timeout=1, capture_output=True, text=True)
except subprocess.TimeoutExpired as e:
    print(e, repr(e.output), repr(e.stdout), repr(e.stderr))
try:
    subprocess.check_output("sleep 3", shell=True, timeout=0.2)
except subprocess.TimeoutExpired as e:
    print("TimeoutExpired", e.cmd, e.timeout)
p = subprocess.Popen([py, "-c", "import sys; [print(l.upper(), end='') for l in sys.stdin]; print('err', file=sys.stderr)"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
out, err = p.communicate("one\ntwo\n")
print(repr(out), repr(err), p.returncode, p.pid > 0, p.args[0] == py)
p = subprocess.Popen(["sleep", "3"])
try:
    p.communicate(timeout=0.2)
except subprocess.TimeoutExpired as e:
    print("communicate timeout", round(e.timeout, 1))
p.kill(); p.communicate(); print(p.returncode, p.poll())
p = subprocess.Popen(["sh", "-c", "exit 9"]); print(p.wait(), p.poll())
p = subprocess.Popen(["sleep", "0.2"]); print(p.poll()); p.wait(); print(p.poll())
with subprocess.Popen(["echo", "ctx"], stdout=subprocess.PIPE) as p:
    print(p.stdout.read())
print(p.returncode)
p1 = subprocess.Popen(["printf", "c\\nb\\na\\n"], stdout=subprocess.PIPE)
p2 = subprocess.Popen(["sort"], stdin=p1.stdout, stdout=subprocess.PIPE)
p1.stdout.close()
print(p2.communicate()[0], p1.wait(), p2.returncode)
r = subprocess.run(["env"], env={"ONLY": "1"}, capture_output=True, text=True)
print(sorted(l for l in r.stdout.splitlines() if not l.startswith("PWD=")))
os.environ["EXPORTED_X"] = "yes"
print(subprocess.run("echo $EXPORTED_X", shell=True, capture_output=True, text=True).stdout.strip())
r = subprocess.run(["sh", "-c", "echo $A"], env={**os.environ, "A": "merged"}, capture_output=True, text=True); print(r.stdout.strip())
r = subprocess.run("pwd", shell=True, cwd="/tmp", capture_output=True, text=True); print(r.stdout.strip())
try:
    subprocess.run("pwd", cwd="/no/such/dir")
except FileNotFoundError as e:
    print("FileNotFoundError", e)
print(subprocess.run(["true"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode)
print(os.system("echo from system; exit 3"), os.waitstatus_to_exitcode(os.system("exit 4")))
f = os.popen("echo popen; echo two"); print(repr(f.read()), f.close())
f = os.popen("exit 3"); print(f.read(), f.close())
with os.popen("cat > /dev/null", "w") as f:
    f.write("x")
print(shlex.split("a 'b c' \"d e\" f\\ g #c", comments=True), shlex.quote("it's"), shlex.join(["a b", "c"]), shlex.quote(""))
try:
    shlex.split("unbalanced 'quote")
except ValueError as e:
    print("ValueError", e)
print(subprocess.list2cmdline(["a b", "c"]), subprocess.DEVNULL, subprocess.PIPE, subprocess.STDOUT)
r = subprocess.run([py, "-c", "import sys; sys.stdout.write('x' * 200000)"], capture_output=True)
print(len(r.stdout))
r = subprocess.run(["cat"], input="y" * 300000, capture_output=True, text=True); print(len(r.stdout))
r = subprocess.run(f"{py} -c 'import os; print(os.getppid() > 0, os.getpid() > 0)'", shell=True, capture_output=True, text=True); print(r.stdout)
r = subprocess.run([py, "-c", "import sys; print(sys.argv)", "a b", "", "c"], capture_output=True, text=True); print(r.stdout)
r = subprocess.run("echo a; sleep 0.1; echo b >&2; echo c", shell=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True); print(repr(r.stdout))
r = subprocess.run(["ls", "/nonexistent_dir"], capture_output=True, text=True); print(r.returncode, r.stderr)
r = subprocess.run("printf 'no newline'", shell=True, capture_output=True, universal_newlines=True); print(repr(r.stdout))
r = subprocess.run(["sh", "-c", "printf 'a\\r\\nb\\r\\n'"], capture_output=True, text=True); print(repr(r.stdout))
