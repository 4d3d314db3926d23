# File I/O edge cases: x/a+ modes, text seek/tell, truncate, readline(size), big files, fsync.
import os
import tempfile

d = tempfile.mkdtemp()
p = os.path.join(d, "f.txt")
with open(p, "x") as f:
    f.write("one\ntwo\nthree\n")
try:
    open(p, "x")
except FileExistsError as e:
    print("x:", e.errno, e.strerror)
with open(p, "a+") as f:
    print(f.tell(), repr(f.read()))
    f.seek(0)
    print(repr(f.readline()), repr(f.readline(2)), repr(f.readline(100)))
    f.write("four\n")
    f.seek(0)
    print(f.read().splitlines())
with open(p, "r+") as f:
    f.readline()
    pos = f.tell()
    print(pos, repr(f.readline()))
    f.seek(pos)
    print(repr(f.read(3)))
    f.seek(0, 2)
    print(f.tell())
    try:
        f.seek(-1, 2)
    except Exception as e:
        print(type(e).__name__, e)
    f.truncate(7)
with open(p) as f:
    print(repr(f.read()))
with open(p, "rb+") as f:
    f.seek(-3, 2)
    print(f.read(), f.tell())
    f.truncate(2)
    f.seek(0)
    print(f.read())
    f.write(b"zz")
    f.flush()
    os.fsync(f.fileno())
    os.fdatasync(f.fileno())
print(os.path.getsize(p))
with open(p, "w", newline="\r\n") as f:
    f.write("a\nb\n")
print(open(p, "rb").read(), open(p, newline="").read().encode(), open(p).read().encode())
big = os.path.join(d, "big.bin")
chunk = bytes(range(256)) * 4096
with open(big, "wb") as f:
    for _ in range(10):
        f.write(chunk)
print(os.path.getsize(big))
import hashlib
h = hashlib.sha256()
with open(big, "rb") as f:
    while b := f.read(65536):
        h.update(b)
print(h.hexdigest())
with open(big, "rb") as f:
    f.seek(5 * 1024 * 1024 + 3)
    print(f.read(4))
with open(os.path.join(d, "lines"), "w") as f:
    f.writelines(f"line {i}\n" for i in range(100000))
with open(os.path.join(d, "lines")) as f:
    n = sum(1 for _ in f)
print(n)
with open(os.path.join(d, "u.txt"), "w", encoding="utf-8") as f:
    f.write("héllo wörld ✓\n")
with open(os.path.join(d, "u.txt"), encoding="utf-8") as f:
    f.read(3)
    t = f.tell()
    print(t, repr(f.read(2)))
    f.seek(t)
    print(repr(f.read(2)))
try:
    open(os.path.join(d, "u.txt"), encoding="ascii").read()
except UnicodeDecodeError as e:
    print(e)
try:
    open(d)
except IsADirectoryError as e:
    print(e.errno, e.strerror)
try:
    open(os.path.join(d, "nope", "x"), "w")
except FileNotFoundError as e:
    print(e.errno, e.strerror)
f = open(p)
f.close()
try:
    f.read()
except ValueError as e:
    print(e)
with open(p, "w") as f:
    print(f.readable(), f.writable(), f.seekable(), f.mode, f.name == p, f.encoding, f.closed)
try:
    with open(p, "w") as f:
        f.read()
except Exception as e:
    print(type(e).__name__, e)
print(open(p, "rb").readable(), repr(open(p, "rb", buffering=0)).startswith("<_io.FileIO"))
