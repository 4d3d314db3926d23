# stdio of a python3 child: buffering order, -u, encodings, errors handlers, input(), binary streams.
import os, subprocess, sys
def run(args, input=None, env=None, merge=True):
    e = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "LC_", "LANG"))}
    e.update(env or {})
    p = subprocess.run([sys.executable] + args, input=input, env=e, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT if merge else subprocess.PIPE)
    return p.returncode, p.stdout, None if merge else p.stderr
prog = "import sys; print('out1'); sys.stderr.write('err1\\n'); print('out2'); sys.stderr.write('err2\\n')"
print("buffered", run(["-c", prog]))
print("-u", run(["-u", "-c", prog]))
print("PYTHONUNBUFFERED", run(["-c", prog], env={"PYTHONUNBUFFERED": "1"}))
print("flush", run(["-c", "import sys; print('a', flush=True); sys.stderr.write('b\\n'); print('c')"]))
print("stderr partial", run(["-c", "import sys; sys.stderr.write('no newline'); print('x')"]))
u = "print('h\\u00e9llo \\u20ac \\U0001f600')"
print("utf8", run(["-c", u]))
print("latin1", run(["-c", "print('h\\u00e9llo')"], env={"PYTHONIOENCODING": "latin-1"}))
print("ascii replace", run(["-c", u], env={"PYTHONIOENCODING": "ascii:replace"}))
print("ascii strict", run(["-c", u], env={"PYTHONIOENCODING": "ascii"})[0])
print("encoding names", run(["-c", "import sys; print(sys.stdout.encoding, sys.stdout.errors, sys.stdin.errors, sys.stderr.errors)"], env={"PYTHONIOENCODING": "latin-1:ignore"}))
print("C.UTF-8", run(["-c", "import sys, locale; print(sys.stdout.encoding, sys.stdout.errors, sys.stdin.errors, locale.getpreferredencoding(False))"], env={"LC_ALL": "C.UTF-8"}))
print("bad input strict", run(["-c", "import sys; print(repr(sys.stdin.read()))"], input=b"ok\xff\n", env={"LC_ALL": "C.UTF-8"})[0])
print("bad input", run(["-c", "import sys; print(ascii(sys.stdin.read()))"], input=b"ok\xff\n"))
print("binary", run(["-c", "import sys; data = sys.stdin.buffer.read(); sys.stdout.buffer.write(data[::-1]); sys.stdout.buffer.flush()"], input=b"\x00\x01\xfe\xff"))
print("input", run(["-c", "a = input('name? '); b = input(); print(f'[{a}|{b}]')"], input=b"alice\nbob\n"))
print("input eof", run(["-c", "input('p> ')"], input=b"")[0])
print("readline", run(["-c", "import sys; print(repr(sys.stdin.readline()), repr(sys.stdin.readline()), repr(sys.stdin.readline()))"], input=b"a\nb"))
print("fileinput", run(["-c", "import fileinput\nfor l in fileinput.input(): print(fileinput.lineno(), l, end='')"], input=b"x\ny\n"))
print("crlf", run(["-c", "import sys; print(repr(sys.stdin.read()))"], input=b"a\r\nb\r\n"))
print("print sep", run(["-c", "print(1, 2, sep='-', end='!\\n'); print(*'abc'); print()"]))
print("big", len(run(["-c", "import sys; sys.stdout.write('x' * 1000000)"])[1]))
print("many lines", run(["-c", "for i in range(20000): print(i)"])[1][-12:])
print("write returns", run(["-c", "import sys; n = sys.stdout.write('abc'); m = sys.stdout.buffer.write(b'de'); print(n, m)"]))
print("stdout closed fd", run(["-c", "import os, sys; os.close(1); print('x')"])[0])
print("argv bytes", run(["-c", "import sys, os; print(ascii(sys.argv[1]), os.fsencode(sys.argv[1]))", b"caf\xc3\xa9"]))
print("fileno", run(["-c", "import sys; print(sys.stdin.fileno(), sys.stdout.fileno(), sys.stderr.fileno(), sys.stdout.name, sys.stderr.mode)"]))
print("line_buffering", run(["-c", "import sys; print(sys.stdout.line_buffering, sys.stderr.line_buffering, sys.stdout.write_through, sys.stderr.write_through)"]))
print("isatty", run(["-c", "import sys, os; print(sys.stdin.isatty(), sys.stdout.isatty(), os.isatty(2))"]))
print("devnull", subprocess.run([sys.executable, "-c", "import sys; print(sys.stdin.read() == '', sys.stdin.isatty())"], stdin=subprocess.DEVNULL, capture_output=True, text=True).stdout)
