# open() modes and encodings as agents use them: errors= handlers, newline= translation, BOMs,
# 'x' mode, binary seek/tell/truncate past the end, os.open flags, pread/pwrite, append positions.
import io
import os
import tempfile

d = tempfile.mkdtemp()
p = os.path.join(d, "t")
with open(p, "wb") as f:
    f.write("caf\u00e9 \u2713\n".encode() + b"bad \xff\xfe end\r\nmac\rline\n")
for errors in ("replace", "ignore", "backslashreplace", "surrogateescape"):
    with open(p, encoding="utf-8", errors=errors) as f:
        print(errors, ascii(f.read()))
try:
    open(p, encoding="utf-8").read()
except UnicodeDecodeError as e:
    print(type(e).__name__, e.reason, e.start, e.end, e)
with open(p, encoding="latin-1") as f:
    print("latin-1", ascii(f.read()))
for nl in (None, "", "\n", "\r", "\r\n"):
    with open(p, encoding="utf-8", errors="replace", newline=nl) as f:
        print("newline", repr(nl), [ascii(l) for l in f], f.newlines)
q = os.path.join(d, "w")
for nl in (None, "", "\n", "\r", "\r\n"):
    with open(q, "w", newline=nl) as f:
        f.write("a\nb\r\nc\rd")
    print("write", repr(nl), open(q, "rb").read())
with open(q, "w", encoding="ascii", errors="xmlcharrefreplace") as f:
    f.write("na\u00efve \u20ac\n")
print(open(q, "rb").read())
with open(q, "w", encoding="ascii", errors="namereplace") as f:
    f.write("\u00e9\n")
print(open(q, "rb").read())
try:
    with open(q, "w", encoding="ascii") as f:
        f.write("\u00e9")
except UnicodeEncodeError as e:
    print(type(e).__name__, e)
for enc in ("utf-8-sig", "utf-16", "utf-16-le", "utf-32", "cp1252", "shift_jis"):
    with open(q, "w", encoding=enc) as f:
        f.write("\u3042 x" if enc == "shift_jis" else "h\u00e9 x")
    raw = open(q, "rb").read()
    print(enc, raw, repr(open(q, encoding=enc).read()), repr(open(q, encoding="utf-8", errors="replace").read()))
with open(q, "wb") as f:
    f.write(b"\xef\xbb\xbfbom text")
print(repr(open(q, encoding="utf-8").read()), repr(open(q, encoding="utf-8-sig").read()))
x = os.path.join(d, "x")
with open(x, "x") as f:
    f.write("new")
for mode in ("x", "xb", "x+"):
    try:
        open(x, mode)
    except FileExistsError as e:
        print(mode, e.errno, e.strerror, e.filename == x)
try:
    open(x, "rw")
except ValueError as e:
    print(e)
try:
    open(x, "wa")
except ValueError as e:
    print(e)
try:
    open(x, "b")
except ValueError as e:
    print(e)
try:
    open(x, "rb", encoding="utf-8")
except ValueError as e:
    print(e)
try:
    open(x, "r", buffering=0)
except ValueError as e:
    print(e)
b = os.path.join(d, "b.bin")
with open(b, "w+b") as f:
    print(f.write(b"0123456789"), f.tell())
    f.seek(20)
    f.write(b"X")
    print(f.tell(), f.seek(0, io.SEEK_END), f.seek(-5, io.SEEK_CUR), f.read())
    f.seek(0)
    print(f.read())
    print(f.truncate(4), f.tell())
    f.seek(0)
    print(f.read())
    print(f.truncate(8), os.path.getsize(b))
    f.seek(0)
    print(f.read())
    try:
        f.seek(-1)
    except (OSError, ValueError) as e:
        print(type(e).__name__, e)
    f.seek(2)
    print(f.truncate(), f.tell(), os.fstat(f.fileno()).st_size)
with open(b, "ab") as f:
    print(f.tell())
    f.seek(0)
    f.write(b"END")
    print(f.tell())
print(open(b, "rb").read())
with open(b, "a+") as f:
    f.seek(0)
    print(repr(f.read(2)))
    f.write("!")
    f.seek(0)
    print(repr(f.read()))
with open(b, "r+b") as f:
    f.seek(1)
    f.write(b"__")
print(open(b, "rb").read())
fd = os.open(os.path.join(d, "o"), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
print(os.write(fd, b"hello world"), os.lseek(fd, 0, os.SEEK_CUR), os.lseek(fd, -5, os.SEEK_END))
os.write(fd, b"WORLD")
os.close(fd)
try:
    os.open(os.path.join(d, "o"), os.O_WRONLY | os.O_CREAT | os.O_EXCL)
except FileExistsError as e:
    print(e.errno, e.strerror)
fd = os.open(os.path.join(d, "o"), os.O_RDWR | os.O_APPEND)
os.write(fd, b"+")
print(os.pread(fd, 5, 6))
os.lseek(fd, 0, 0)
print(os.read(fd, 100))
os.ftruncate(fd, 3)
os.close(fd)
fd = os.open(os.path.join(d, "o"), os.O_RDWR | os.O_TRUNC)
print(os.fstat(fd).st_size, os.read(fd, 10))
os.close(fd)
try:
    os.close(fd)
except OSError as e:
    print("close", e.errno, e.strerror)
try:
    os.read(9999, 1)
except OSError as e:
    print("read", e.errno, e.strerror)
with open(os.path.join(d, "o"), "w") as f:
    try:
        f.read()
    except io.UnsupportedOperation as e:
        print(type(e).__name__, e)
    print(f.fileno() > 2, f.isatty(), f.buffer.raw.mode, f.line_buffering)
with open(os.path.join(d, "o"), "rb") as f, open(os.path.join(d, "o"), "rb", buffering=0) as g:
    print(type(f).__name__, type(g).__name__, f.raw.name == g.name, repr(f.peek(0))[:2], g.readall())
with open(os.path.join(d, "lines"), "w") as f:
    print(f.write("a\n" * 3), f.writelines(["x", "y\n"]))
with open(os.path.join(d, "lines")) as f:
    print(f.readlines(), f.readline(), f.read())
with open(os.path.join(d, "lines")) as f:
    print(f.readlines(3))
