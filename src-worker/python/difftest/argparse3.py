# argparse details agents hit: --version, required options, FileType, type errors, custom
# ArgumentTypeError, parser.error, abbreviations, '--', nargs/const, defaults from the environment.
import os
import subprocess
import sys
import tempfile

SRC = r'''
import argparse, os, sys
def port(s):
    v = int(s)
    if not 0 < v < 65536:
        raise argparse.ArgumentTypeError(f"{v} is not a valid port")
    return v
p = argparse.ArgumentParser(prog="srv", epilog="Example: srv --port 80 in.txt")
p.add_argument("--version", action="version", version="%(prog)s 1.2.3")
p.add_argument("--port", type=port, required=True, help="port to use")
p.add_argument("--host", default=os.environ.get("SRV_HOST", "localhost"))
p.add_argument("--level", type=int, choices=range(1, 4), default=1)
p.add_argument("--tag", action="append", default=[])
p.add_argument("--opt", nargs="?", const="CONST", default="DEF")
p.add_argument("--pair", nargs=2, metavar=("K", "V"))
p.add_argument("--dry-run", action="store_true")
p.add_argument("--no-color", dest="color", action="store_false")
p.add_argument("infile", type=argparse.FileType("r"), nargs="?", default="-")
p.add_argument("rest", nargs="*")
a = p.parse_args()
if a.port == 1:
    p.error("port 1 is reserved")
print(a.port, a.host, a.level, a.tag, a.opt, a.pair, a.dry_run, a.color, a.infile.name, a.rest)
print(repr(a.infile.read()))
'''
d = tempfile.mkdtemp()
path = os.path.join(d, "srv.py")
with open(path, "w") as f:
    f.write(SRC)
with open(os.path.join(d, "in.txt"), "w") as f:
    f.write("file content\n")
env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
env["COLUMNS"] = "80"
cases = [
    ["--version"],
    [],
    ["--port"],
    ["--port", "abc"],
    ["--port", "70000"],
    ["--port", "1"],
    ["--port", "8080", "--level", "2"],
    ["--port", "8080", "--lev", "2", "--dry", "--tag", "a", "--tag=b", "--opt", "in.txt", "x", "y"],
    ["--port=9", "--opt", "--pair", "k", "v", "--no-color", "-", "z"],
    ["--port", "9", "--pair", "k"],
    ["--port", "9", "missing.txt"],
    ["--port", "9", "--", "--notanoption"],
    ["--port", "9", "--unknown", "-x"],
    ["--po", "9", "--d"],
    ["--port", "9", "--no-c"],
]
for argv in cases:
    r = subprocess.run([sys.executable, path] + argv, capture_output=True, text=True, env=env, cwd=d, input="stdin text\n")
    print(argv, r.returncode)
    print(r.stdout, end="")
    print(r.stderr.replace(d, "D"), end="")
env["SRV_HOST"] = "example.org"
r = subprocess.run([sys.executable, path, "--port", "5"], capture_output=True, text=True, env=env, cwd=d, input="")
print(r.returncode, r.stdout, r.stderr, end="")
import argparse

p = argparse.ArgumentParser(prog="x", exit_on_error=False)
p.add_argument("--n", type=int)
try:
    p.parse_args(["--n", "q"])
except argparse.ArgumentError as e:
    print("ArgumentError", e.argument_name, e.message)
p = argparse.ArgumentParser(prog="y")
p.add_argument("-a", "--alpha", type=float, default=0.5)
p.add_argument("-b", action="count")
ns, extra = p.parse_known_args(["-a", "2", "-bbb", "--zzz", "pos"])
print(ns, extra)
print(p.parse_args(["-a1e3"]), vars(p.parse_args([])))
print(p.format_usage(), end="")
try:
    p.parse_args(["-a"])
except SystemExit as e:
    print("SystemExit", e.code)
g = argparse.ArgumentParser(prog="g", fromfile_prefix_chars="@")
g.add_argument("--x")
g.add_argument("items", nargs="*")
with open(os.path.join(d, "args.txt"), "w") as f:
    f.write("--x\nfrom-file\nitem1\nitem2\n")
print(g.parse_args(["@" + os.path.join(d, "args.txt"), "item3"]))
print(argparse.Namespace(a=1) == argparse.Namespace(a=1), "a" in argparse.Namespace(a=1))
