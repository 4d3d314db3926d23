# Terminal facts off a terminal: get_terminal_size errors and shutil's fallbacks with COLUMNS/LINES,
# isatty on pipes, files and /dev/null, ttyname errors, and the same seen by children.
import os
import shutil
import subprocess
import sys

for fd in (0, 1, 2):
    try:
        print(fd, os.get_terminal_size(fd))
    except OSError as e:
        print(fd, type(e).__name__, e.errno, e.strerror)
try:
    os.get_terminal_size()
except OSError as e:
    print(e)
os.environ.pop("COLUMNS", None)
os.environ.pop("LINES", None)
print(shutil.get_terminal_size(), shutil.get_terminal_size((120, 40)))
os.environ["COLUMNS"] = "99"
print(shutil.get_terminal_size())
os.environ["LINES"] = "33"
print(shutil.get_terminal_size((1, 1)))
os.environ["COLUMNS"] = "abc"
print(shutil.get_terminal_size((70, 20)))
os.environ["COLUMNS"] = "0"
print(shutil.get_terminal_size((70, 20)))
del os.environ["COLUMNS"], os.environ["LINES"]
print(sys.stdin.isatty(), sys.stdout.isatty(), sys.stderr.isatty(), os.isatty(0), os.isatty(99))
with open(os.devnull) as f:
    print("devnull tty", f.isatty(), os.isatty(f.fileno()))
r, w = os.pipe()
print("pipe tty", os.isatty(r), os.isatty(w))
try:
    os.ttyname(r)
except OSError as e:
    print("ttyname", e.errno, e.strerror)
try:
    os.ttyname(99)
except OSError as e:
    print("ttyname bad", e.errno, e.strerror)
code = "import os, shutil, sys; print(sys.stdout.isatty(), shutil.get_terminal_size((11, 12)), os.environ.get('COLUMNS'))"
print(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout, end="")
print(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=dict(os.environ, COLUMNS="55")).stdout, end="")
print(subprocess.run([sys.executable, "-c", code], stdin=subprocess.DEVNULL, capture_output=True, text=True, env=dict(os.environ, COLUMNS="55", LINES="7")).stdout, end="")
import textwrap

print(textwrap.fill("word " * 30, width=shutil.get_terminal_size((40, 10)).columns))
print(os.environ.get("TERM") is None or isinstance(os.environ.get("TERM"), str))
