# argparse CLIs as agents write them: subcommands, help at fixed widths, errors with exit 2.
import argparse
import os
import subprocess
import sys
import tempfile

SRC = r'''
import argparse, sys
p = argparse.ArgumentParser(prog="tool", description="A tool that does things with files and numbers, described at some length so the help wraps.")
p.add_argument("-v", "--verbose", action="count", default=0, help="more output (repeatable)")
p.add_argument("--mode", choices=["fast", "slow"], default="fast", help="how to run")
sub = p.add_subparsers(dest="cmd", required=True)
a = sub.add_parser("add", help="add numbers")
a.add_argument("nums", nargs="+", type=int, help="numbers to add")
a.add_argument("--scale", type=float, default=1.0)
g = sub.add_parser("greet", help="say hello")
g.add_argument("name")
g.add_argument("--shout", action="store_true")
ex = g.add_mutually_exclusive_group()
ex.add_argument("--en", action="store_true")
ex.add_argument("--fr", action="store_true")
args = p.parse_args()
if args.cmd == "add":
    print(args.verbose, args.mode, sum(args.nums) * args.scale)
else:
    s = ("bonjour " if args.fr else "hello ") + args.name
    print(s.upper() if args.shout else s)
'''
d = tempfile.mkdtemp()
path = os.path.join(d, "tool.py")
with open(path, "w") as f:
    f.write(SRC)
env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
for cols in ("80", "50"):
    env["COLUMNS"] = cols
    for argv in (["-h"], ["add", "-h"], ["greet", "--help"]):
        r = subprocess.run([sys.executable, path] + argv, capture_output=True, text=True, env=env)
        print(cols, argv, r.returncode)
        print(r.stdout, end="")
env["COLUMNS"] = "80"
for argv in ([], ["add"], ["add", "1", "x"], ["-vv", "add", "1", "2", "--scale", "0.5"], ["greet", "bob", "--en", "--fr"],
             ["greet", "ann", "--shout", "--fr"], ["greet", "a", "--bogus"], ["--mode"]):
    r = subprocess.run([sys.executable, path] + argv, capture_output=True, text=True, env=env)
    print(argv, r.returncode, repr(r.stdout), r.stderr, sep="\n")
