# CLIs: argparse (--help, errors: exit 2), stdin pipelines, fileinput, input() and EOFError.
import os
import subprocess
import sys
import tempfile

d = tempfile.mkdtemp()
os.chdir(d)
tool = "tool.py"
with open(tool, "w") as f:
    f.write('''import argparse, sys, fileinput
p = argparse.ArgumentParser(prog="tool", description="Count things.")
p.add_argument("files", nargs="*", help="input files")
p.add_argument("--limit", type=int, default=3, help="how many (default: %(default)s)")
p.add_argument("-v", "--verbose", action="store_true")
p.add_argument("--mode", choices=["lines", "words"], default="lines")
sub = None
a = p.parse_args()
count = 0
for line in fileinput.input(a.files):
    count += 1 if a.mode == "lines" else len(line.split())
    if a.verbose:
        print(fileinput.filename(), fileinput.lineno(), line.rstrip())
print("count", count, "limit", a.limit)
''')
data = "data.txt"
with open(data, "w") as f:
    f.write("one two\nthree\nfour five six\n")


def run(args, stdin=None):
    r = subprocess.run([sys.executable, tool] + args, input=stdin, capture_output=True, text=True)
    print(f"--- {args} -> {r.returncode}")
    print(r.stdout, end="")
    print("stderr:", r.stderr, end="")


run(["--help"])
run(["--limit", "x"])
run(["--bogus"])
run([data, "-v", "--mode", "words"])
run([], stdin="a\nb\n")
run(["-", data], stdin="x y\n")
r = subprocess.run([sys.executable, tool, "missing.txt"], capture_output=True, text=True)
print(r.returncode, r.stderr.splitlines()[-1])
code = "import sys\ntry:\n    while True:\n        s = input('> ')\n        print('got', s[::-1])\nexcept EOFError:\n    print('eof')\n"
r = subprocess.run([sys.executable, "-c", code], input="abc\ndef\n", capture_output=True, text=True)
print(repr(r.stdout), r.returncode)
r = subprocess.run([sys.executable, "-c", "input()"], input="", capture_output=True, text=True)
print(r.returncode, r.stderr.splitlines()[-1])
r = subprocess.run([sys.executable, "-c", "import sys; print(sum(int(x) for x in sys.stdin))"], input="1\n2\n3\n", capture_output=True, text=True)
print(r.stdout.strip())
for line in sys.stdin:
    print("stdin:", line.rstrip("\n").upper())
print(sys.stdin.read() == "", sys.stdin.isatty(), sys.stdout.isatty())
