# io: utf-8 errors, surrogateescape, binary stdin/stdout, sys.stdout.buffer mixed with print, encodings of files.
import sys, io, os, subprocess, tempfile
py = sys.executable
def run(code, inp=b"", env=None):
    r = subprocess.run([py, "-c", code], capture_output=True, input=inp, env=env)
    print(r.returncode, r.stdout, r.stderr.decode(errors="replace").splitlines()[-1:] if r.stderr else b"")
run("import sys; print('a'); sys.stdout.buffer.write(b'B\\n'); print('c')")
run("import sys; print('a', flush=True); sys.stdout.buffer.write(b'B\\n'); sys.stdout.buffer.flush(); print('c')")
run("import sys; data = sys.stdin.buffer.read(); sys.stdout.buffer.write(data[::-1])", b"\x00\x01\xff\xfe")
run("import sys; print(repr(sys.stdin.read()))", b"caf\xc3\xa9 \xff\n")
run("import sys; print(sys.stdin.encoding, sys.stdin.errors, sys.stdout.encoding, sys.stdout.errors, sys.stderr.errors, sys.getfilesystemencoding(), sys.getfilesystemencodeerrors(), sys.getdefaultencoding())")
run("print('\\udcff')")
run("import sys; sys.stdout.write('\\ud800x\\n')")
run("print('snow \\u2603 \\U0001f600')")
run("import sys; print(sys.stdin.readline(), end=''); print(sys.stdin.buffer.read())", b"line1\nrest\x00")
run("import sys; sys.stdout.reconfigure(encoding='latin-1'); print('\\xe9')")
run("import sys; sys.stdout.reconfigure(errors='replace'); sys.stdout.reconfigure(encoding='ascii'); print('\\xe9 ok')")
run("import io, sys; w = io.TextIOWrapper(sys.stdout.buffer, encoding='utf-16-le'); w.write('hi'); w.flush()")
run("import sys; sys.stdout.write(b'x')")
run("import sys; print(sys.stdout.buffer.write('x'))")
run("import sys; print(sys.stdin.read(3), sys.stdin.read(), sys.stdin.read(), sys.stdin.readline())", b"abcdef\nxyz")
run("import sys; print([l for l in sys.stdin])", b"a\r\nb\rc\n")
run("import sys; print(repr(sys.stdin.buffer.read1(100) if hasattr(sys.stdin.buffer, 'read1') else ''))", b"some")
run("import os; print(os.read(0, 3), os.read(0, 100), os.read(0, 5))", b"abcdef")
run("import os; os.write(1, b'raw\\n'); print('printed')")
run("print('printed'); import os; os.write(1, b'raw\\n')")
d = tempfile.mkdtemp()
p = os.path.join(d, "f")
with open(p, "wb") as f:
    f.write(b"caf\xc3\xa9 \xff\xfe end\n")
for errors in ("strict", "replace", "ignore", "surrogateescape", "backslashreplace"):
    try:
        with open(p, encoding="utf-8", errors=errors) as f:
            t = f.read()
        print(errors, ascii(t), t.encode("utf-8", "surrogateescape") if errors == "surrogateescape" else "")
    except UnicodeDecodeError as e:
        print(errors, "UnicodeDecodeError", e, e.start, e.end, e.reason, e.object[e.start:e.end])
try:
    "é".encode("ascii")
except UnicodeEncodeError as e:
    print(e)
print("é€".encode("latin-1", errors="replace"), "é€".encode("ascii", "xmlcharrefreplace"), "é".encode("ascii", "backslashreplace"), b"\xe9".decode("cp1252"), b"\x80".decode("latin-1"), "\u00e9".encode("utf-16"), "x".encode("utf-8-sig"))
print(b"\xef\xbb\xbfabc".decode("utf-8-sig"), len("\U0001f600".encode("utf-16-le")), "ß".upper(), "İ".lower(), "ﬁ".casefold(), "a\u0301".__len__())
import unicodedata
print(unicodedata.normalize("NFC", "e\u0301") == "é", unicodedata.name("é"), unicodedata.category("1"), unicodedata.east_asian_width("日"))
with open(p, "w", encoding="utf-16") as f:
    f.write("bom")
print(open(p, "rb").read(), open(p, encoding="utf-16").read())
with open(p, "w", newline="\r\n") as f:
    f.write("a\nb\n")
print(open(p, "rb").read(), repr(open(p).read()), repr(open(p, newline="").read()))
print(open(p, "rb").read().splitlines(), io.StringIO("x\ny").readlines(), io.BytesIO(b"abc").read(2))
try:
    open(p, "rw")
except ValueError as e:
    print("ValueError", e)
try:
    open(p, "rb", encoding="utf-8")
except ValueError as e:
    print("ValueError", e)
f = open(p, "rb", buffering=0); print(type(f).__name__, f.read(1), f.mode, f.name == p, f.closed); f.close(); print(f.closed)
try:
    f.read()
except ValueError as e:
    print("ValueError", e)
with open(p, "w") as f:
    print(f.encoding, f.errors, f.line_buffering, f.buffer.raw.__class__.__name__, f.writable(), f.readable(), f.seekable(), f.isatty(), f.fileno() > 2, repr(f).startswith("<_io.TextIOWrapper name="))
