# Encodings and locale: stdio under PYTHONIOENCODING, surrogateescape file names, codecs.
import locale
import os
import subprocess
import sys
import tempfile

print(sys.getfilesystemencoding(), sys.getfilesystemencodeerrors(), sys.stdout.encoding, locale.getpreferredencoding(False))
print(locale.setlocale(locale.LC_ALL, None) in ("C", "C.UTF-8", "POSIX"), locale.localeconv()["decimal_point"], locale.str(1.5))
print(locale.format_string("%d items", 3), locale.getlocale(locale.LC_NUMERIC)[0] in (None, "C"))
d = tempfile.mkdtemp()
raw = os.path.join(os.fsencode(d), b"caf\xe9-\xff.txt")
with open(raw, "wb") as f:
    f.write(b"x")
names = os.listdir(d)
print([ascii(n) for n in names], os.listdir(os.fsencode(d)))
print(ascii(os.fsdecode(b"caf\xe9")), os.fsencode("caf\udce9"), os.path.exists(os.path.join(d, names[0])))
with open(os.path.join(d, "utf8-é.txt"), "w", encoding="utf-8") as f:
    f.write("naïve ☃\n")
print(sorted(ascii(n) for n in os.listdir(d)))
with open(os.path.join(d, "utf8-é.txt"), "rb") as f:
    data = f.read()
print(data, data.decode("utf-8"), data.decode("latin-1").encode("latin-1") == data)
try:
    data.decode("ascii")
except UnicodeDecodeError as e:
    print("UnicodeDecodeError:", e)
print(data.decode("ascii", errors="replace"), data.decode("ascii", "ignore"), "é".encode("ascii", "xmlcharrefreplace"))
print("☃".encode("utf-16-le"), "x".encode("utf-32"), "Ä".encode("cp1252"), b"\xc4".decode("cp437"))
code = "import sys; print('caf\\u00e9 \\u2603'); print(sys.stdout.encoding)"
for enc in ("utf-8", "latin-1", "ascii:replace", "ascii:backslashreplace"):
    r = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONIOENCODING": enc}, capture_output=True)
    print(enc, r.stdout, r.returncode)
r = subprocess.run([sys.executable, "-c", "print('\\u2603')"], env={**os.environ, "PYTHONIOENCODING": "ascii"}, capture_output=True)
print(r.returncode, r.stderr.splitlines()[-1])
r = subprocess.run([sys.executable, "-c", "import sys; print(repr(sys.stdin.read()))"], input=b"caf\xe9\n", capture_output=True)
print(r.stdout, r.returncode)
r = subprocess.run([sys.executable, "-c", "import sys; print(sys.argv[1:])", "é", "☃"], capture_output=True, text=True)
print(r.stdout.strip())
print(str(b"bytes"), repr("tab\tnl\n"), ascii("ü"), "ß".upper(), "ǅ".lower(), "ﬁ".casefold(), len("👍🏽"))
import unicodedata

print(unicodedata.name("☃"), unicodedata.normalize("NFD", "é").encode(), unicodedata.category("A"))
