# The environment across process boundaries: os.environ vs putenv/unsetenv, env= replacing everything,
# PATH lookups without PATH, non-ASCII values, os.environb, env -i / env VAR= launches, exported changes.
import os
import subprocess
import sys

show = "import os, sys; print(sorted((k, v) for k, v in os.environ.items() if k.startswith('SG_')))"
os.environ["SG_A"] = "1"
os.putenv("SG_PUT", "only putenv")
print(os.environ.get("SG_PUT"), "SG_PUT" in os.environ)
os.unsetenv("SG_PUT")
print(subprocess.run([sys.executable, "-c", show], capture_output=True, text=True).stdout, end="")
os.environ["SG_B"] = "caf\u00e9 \u2713"
os.environ["SG_EMPTY"] = ""
os.environ["SG_SPACES"] = "  a  b  "
os.environ["SG_NL"] = "line1\nline2"
print(subprocess.run([sys.executable, "-c", show], capture_output=True, text=True).stdout, end="")
print(subprocess.run("printf '%s|' \"$SG_B\" \"$SG_EMPTY\" \"$SG_SPACES\" \"$SG_NL\"", shell=True, capture_output=True, text=True).stdout)
print(subprocess.run(["sh", "-c", "env | grep '^SG_' | sort"], capture_output=True, text=True).stdout, end="")
print(os.environb[b"SG_B"], os.fsencode(os.environ["SG_B"]) == os.environb[b"SG_B"])
os.environb[b"SG_BYTES"] = b"\xff raw"
print(ascii(os.environ["SG_BYTES"]), subprocess.run(["sh", "-c", "printf %s \"$SG_BYTES\" | od -An -tx1"], capture_output=True, text=True).stdout.split()[:2])
del os.environ["SG_BYTES"]
del os.environ["SG_A"]
del os.environ["SG_EMPTY"]
print("SG_EMPTY" in os.environ, os.environ.pop("SG_MISSING", "default"), os.getenv("SG_MISSING"), os.getenv("SG_MISSING", "dflt"))
print(subprocess.run([sys.executable, "-c", show], capture_output=True, text=True).stdout, end="")
r = subprocess.run([sys.executable, "-c", "import os; print(os.environ.get('ONLY'), 'PATH' in os.environ)"], env={"ONLY": "this"}, capture_output=True, text=True)
print(r.stdout, end="")
r = subprocess.run(["/bin/sh", "-c", "echo PATH=$PATH; echo HOME=${HOME-unset}"], env={}, capture_output=True, text=True)
print(r.returncode, r.stdout.split("\n")[1])
try:
    r = subprocess.run(["ls", "/"], env={}, capture_output=True)
    print("ls without PATH", r.returncode)
except FileNotFoundError as e:
    print("FileNotFoundError", e)
try:
    subprocess.run(["ls"], env={"PATH": "/nonexistent"}, capture_output=True)
except FileNotFoundError as e:
    print("FileNotFoundError", e.errno, e.filename)
r = subprocess.run(["env", "-i", "SG_X=1", "sh", "-c", "echo \"$SG_X ${SG_B-unset}\""], capture_output=True, text=True)
print(r.stdout, end="")
r = subprocess.run(["env", "-u", "SG_B", "sh", "-c", "echo ${SG_B-unset}"], capture_output=True, text=True)
print(r.stdout, end="")
r = subprocess.run("SG_INLINE=x sh -c 'echo $SG_INLINE'; echo ${SG_INLINE-gone}", shell=True, capture_output=True, text=True)
print(r.stdout.split())
try:
    os.environ["BAD=NAME"] = "x"
    print(subprocess.run(["env"], capture_output=True, text=True).stdout.count("BAD=NAME"))
except (ValueError, OSError) as e:
    print(type(e).__name__, e)
finally:
    os.environ.pop("BAD=NAME", None)
try:
    os.environ["NUL"] = "a\0b"
except ValueError as e:
    print("ValueError", e)
try:
    os.environ["X"] = 1
except TypeError as e:
    print("TypeError", e)
try:
    subprocess.run(["true"], env={"A": 1})
except TypeError as e:
    print("TypeError", e)
print(os.path.expandvars("$SG_B/${SG_SPACES}/$NOPE/${NOPE}"), os.path.expanduser("~/x") == os.environ["HOME"] + "/x")
os.environ["HOME"] = "/tmp/fakehome"
print(os.path.expanduser("~"), os.path.expanduser("~/a"), subprocess.run(["sh", "-c", "echo ~"], capture_output=True, text=True).stdout.strip())
print(type(os.environ).__name__, repr(os.environ.copy())[:1], isinstance(os.environ.copy(), dict))
os.environ.update(SG_U1="u1", SG_U2="u2")
os.environ.setdefault("SG_U1", "not this")
print(os.environ["SG_U1"], subprocess.run(["sh", "-c", "echo $SG_U2"], capture_output=True, text=True).stdout.strip())
os.environ.clear()
print(len(os.environ), subprocess.run(["/usr/bin/env"], env={}, capture_output=True, text=True).stdout.strip() == "")
