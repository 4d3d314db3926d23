# Reading stdin as filters do, run as children with pipes: iteration, read() after readline(), binary
# buffer, huge inputs, no trailing newline, closed and /dev/null stdin, fileinput, input() at EOF.
import os
import subprocess
import sys

first = sys.stdin.readline()
rest = list(sys.stdin)
print(repr(first), rest, repr(sys.stdin.read()), repr(sys.stdin.readline()))


def child(code, data, **kw):
    r = subprocess.run([sys.executable, "-c", code], input=data, capture_output=True, **kw)
    return r.returncode, r.stdout, r.stderr.decode().splitlines()[-1:] if r.stderr else b""


print(child("import sys\nfor i, l in enumerate(sys.stdin): print(i, repr(l))", b"a\nb\r\nc"))
print(child("import sys\nprint(repr(sys.stdin.readline())); print(repr(sys.stdin.read(3))); print(repr(sys.stdin.read()))", b"one\ntwo\nthree\n"))
print(child("import sys\nd = sys.stdin.buffer.read(); print(len(d), d[:4], d.count(b'\\n'))", bytes(range(256)) * 400))
print(child("import sys\nn = sum(1 for _ in sys.stdin); print(n)", b"x\n" * 200_000))
print(child("import sys\nprint(sys.stdin.readlines()[-2:])", b"".join(b"line %d\n" % i for i in range(5000))))
print(child("import sys\nprint(repr(sys.stdin.read()))", b""))
print(child("import sys\nprint(input('prompt> ')); print(input())", b"answer\n"))
print(child("import sys\nprint(input('p> '))", b""))
print(child("import sys\nprint(repr(sys.stdin.read()), sys.stdin.encoding)", "caf\u00e9 \u2713\n".encode()))
print(child("import sys\nprint(ascii(sys.stdin.read()))", b"bad \xff byte\n"))
print(child("import sys\nsys.stdin.reconfigure(errors='replace'); print(ascii(sys.stdin.read()))", b"bad \xff byte\n"))
print(child("import sys\nprint(repr(sys.stdin.buffer.readline()), repr(sys.stdin.buffer.read1(100)))", b"l1\nl2\n"))
print(child("import sys, os\nprint(os.read(0, 4), os.read(0, 100), os.read(0, 5))", b"abcdefgh"))
print(child("import fileinput\nfor l in fileinput.input(): print(fileinput.filename(), fileinput.lineno(), l.rstrip())", b"f1\nf2\n"))
print(child("import sys\nfor l in sys.stdin:\n    if l.startswith('q'): break\n    print('got', l.strip())\nprint('rest', repr(sys.stdin.read()))", b"a\nq\nafter\n"))
r = subprocess.run([sys.executable, "-c", "import sys; print(sys.stdin.read() == '', sys.stdin.isatty())"], stdin=subprocess.DEVNULL, capture_output=True, text=True)
print(r.stdout.strip())
r = subprocess.run("python3 -c 'import sys; print(sys.stdin)' <&-", shell=True, capture_output=True, text=True)
print(r.returncode, r.stdout.strip())
r = subprocess.run("python3 -c 'import sys; print(sys.stdin.read())' <&-", shell=True, capture_output=True, text=True)
print(r.returncode, r.stderr.strip().splitlines()[-1:])
r = subprocess.run("printf 'x y z\\n1 2 3\\n' | python3 -c 'import sys; print([l.split()[1] for l in sys.stdin])'", shell=True, capture_output=True, text=True)
print(r.stdout.strip())
r = subprocess.run("(echo start; sleep 0.3; echo later) | python3 -c 'import sys\nfor l in sys.stdin: print(\"read\", l.strip(), flush=True)'", shell=True, capture_output=True, text=True)
print(r.stdout.strip().splitlines())
