# Special files scripts open: /dev/stdout and /dev/stderr (their order with print), /dev/null, /dev/urandom,
# /dev/fd and /proc/self/fd listings, reading a file named by a pipe's /dev/fd path, /proc/self facts.
import os
import subprocess
import sys

# Run with stdout a pipe (the test harness's own stdout may be a socket, which /dev/stdout cannot open).
CHILD = """
import sys
print("print first", flush=True)
with open("/dev/stdout", "w") as out:
    out.write("written to /dev/stdout\\n")
print("print after", flush=True)
with open("/dev/stderr", "w") as err:
    err.write("written to /dev/stderr\\n")
sys.stdout.flush()
with open("/dev/stdout", "wb", buffering=0) as out:
    out.write(b"binary unbuffered\\n")
print("buffered last")
"""
r = subprocess.run([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
print(r.returncode, r.stdout.splitlines())
with open("/dev/null", "w") as f:
    print(f.write("discarded"))
with open("/dev/null", "rb") as f:
    print(f.read(), f.read(10))
with open("/dev/zero", "rb") as f:
    print(f.read(4))
with open("/dev/urandom", "rb") as f:
    a, b = f.read(16), f.read(16)
print(len(a), a != b, len(os.urandom(32)), len(os.getrandom(8)) if hasattr(os, "getrandom") else 8)
print(os.path.realpath("/proc/self/cwd") == os.getcwd(), os.path.exists("/proc/self/environ"))
env = open("/proc/self/environ", "rb").read().split(b"\0")
print("environ has PATH", any(e.startswith(b"PATH=") for e in env))
r = subprocess.run(["sh", "-c", "echo to-stdout >/dev/stdout; echo to-stderr >/dev/stderr; cat /dev/null; echo done"], capture_output=True, text=True)
print(r.stdout.split(), r.stderr.split())
r = subprocess.run([sys.executable, "-c", "open('/dev/stdout', 'w').write('child devstdout\\n'); print('child print')"], capture_output=True, text=True)
print(r.stdout.splitlines())
r = subprocess.run("python3 -c 'import sys; print(open(sys.argv[1]).read().strip())' <(echo from process substitution)", shell=True, executable="/bin/bash", capture_output=True, text=True)
print(r.stdout.strip(), r.returncode)
r = subprocess.run("echo from stdin | python3 -c 'print(open(\"/dev/stdin\").read().strip())'", shell=True, capture_output=True, text=True)
print(r.stdout.strip())
try:
    open("/dev/nonexistent")
except FileNotFoundError as e:
    print(e.errno, e.strerror)
print("end")
