# Text processing on stdin as filters do: iteration, counting, print(end=), encodings.
import collections
import io
import sys

lines = []
for line in sys.stdin:
    lines.append(line)
print(len(lines), repr(lines[-1]))
words = collections.Counter(w for l in lines for w in l.split())
for w, n in words.most_common(3):
    print(f"{w:>10} {n:3d}")
for i, l in enumerate(lines, 1):
    print(i, l.rstrip("\n"), sep=": ", end=" |\n")
print(sys.stdin.encoding, sys.stdout.encoding, sys.stdin.newlines if hasattr(sys.stdin, "newlines") else None)
print(sys.stdin.read() == "", sys.stdin.readline() == "")
raw = io.TextIOWrapper(io.BytesIO("a\r\nb\rc\nd".encode()), newline=None)
print(repr(raw.read()))
raw = io.TextIOWrapper(io.BytesIO("a\r\nb\rc\nd".encode()), newline="")
print(raw.readlines())
bad = io.TextIOWrapper(io.BytesIO(b"ok \xff\xfe end"), encoding="utf-8", errors="replace")
print(repr(bad.read()))
try:
    io.TextIOWrapper(io.BytesIO(b"\xff"), encoding="utf-8").read()
except UnicodeDecodeError as e:
    print(e)
print("é".encode("latin-1"), "日本".encode("utf-16-le"), b"caf\xc3\xa9".decode())
print("x", "y", sep="", end="")
print()
sys.stdout.write("no newline")
sys.stdout.write("\n")
print(*range(5), sep=",", file=sys.stdout, flush=True)
print("to stderr", file=sys.stderr)
sys.stderr.flush()
print("after")
