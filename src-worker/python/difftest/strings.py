# Strings and bytes: methods, f-string formats, repr/str/ascii, unicode, split/join edge cases, bytes ops.
s = "  Hello, World!  "
print(repr(s.strip()), s.lstrip(), s.rstrip() + "|", s.strip(" !Hd"), s.split(), s.split(","), "a,b,,c".split(","), "a b  c".split(" "), "a\tb\nc d".split(None, 1), "x".split("x"), "".split(), "".split(","))
print("a,b,c".rsplit(",", 1), "a\nb\r\nc\rd".splitlines(), "a\nb\n".splitlines(True), "k=v=w".partition("="), "k=v=w".rpartition("="), "nope".partition("="))
print("-".join(["a", "b"]), "".join(reversed("abc")), "ab" * 3, "abc"[::-1], "abcdef"[1:4], "abcdef"[-2:], "abcdef"[::2], "abc"[5:], "hello".replace("l", "L", 1), "hello".replace("", "-"))
print("abc".center(9, "*"), "abc".ljust(6, "."), "abc".rjust(6), "42".zfill(5), "-42".zfill(5), "3.14".zfill(7), "tab\there".expandtabs(4), "x".center(4))
print("Hello".startswith(("He", "x")), "Hello".endswith("lo", 0, 5), "abc".isalpha(), "abc1".isalnum(), "123".isdigit(), "½".isnumeric(), "²".isdigit(), "²".isdecimal(), " ".isspace(), "Title Case".istitle(), "UP".isupper(), "id_1".isidentifier(), "class".isidentifier(), "\x00".isprintable())
print("hello world".title(), "hello world".capitalize(), "HeLLo".swapcase(), "ß".casefold(), "ǅ".lower(), "straße".upper(), "İ".lower().encode(), "ﬃ".upper())
print("banana".count("an"), "banana".find("an", 2), "banana".index("n"), "banana".rfind("x"), "banana".rindex("a"), "a" in "banana", "banana".removeprefix("ba"), "banana".removesuffix("na"))
try:
    "abc".index("z")
except ValueError as e:
    print("ValueError", e)
print(repr("it's"), repr('say "hi"'), repr("both ' and \""), repr("\n\t\\"), repr("\x00\x7f\x80\xff"), repr("é\u2603\U0001f600"), ascii("é\u2603\U0001f600"), str(b"x"), repr(b"\x00a'\""), "%r %s %a" % ("é", "é", "é"))
print(f"{'x'!r:>5}", f"{3.14159:.2f}", f"{42:>6}", f"{42:<6}|", f"{42:^6}|", f"{42:06.2f}", f"{1234567:,}", f"{0.25:.1%}", f"{255:#010b}", f"{-1:x}", f"{3+4j}", f"{None!s:>6}", f"{'abc':.2}", f"{12345.6789:,.2f}", f"{1e-10:.3g}", f"{float('nan'):5}", f"{True:d}", f"{'q'*3:*^9}")
x, y = 3, "why"
print(f"{x=}", f"{y=!r}", f"{x * 2 = }", f"{x!r:>4}", f"{'nested {}'.format(1)}", f"{{literal}}", f"{x:{'>'}{5}}", f"{[1, 2][1]}", f"{ {'k': 1}['k'] }")
print("{} {}".format(1, 2), "{1} {0}".format("a", "b"), "{name}:{0}".format(9, name="n"), "{:>{}}".format("r", 4), "{0!r:^8}".format("c"), "{:,.3f}".format(1234.5), "{:e}".format(0.000123), "{:+.1f}".format(2), "{:c}".format(97))
try:
    "{} {}".format(1)
except IndexError as e:
    print("IndexError", e)
try:
    f"{1:d}" + "{:d}".format(1.5)
except ValueError as e:
    print("ValueError", e)
print("%s|%5s|%-5s|%.2s|%d|%5.1f|%x|%o|%c|%%" % ("s", "r", "l", "trunc", 42, 3.14159, 255, 8, "c"), "%(a)s-%(b)d" % {"a": "x", "b": 2}, "%05d %+d % d" % (42, 5, 5))
try:
    "%d" % "x"
except TypeError as e:
    print("TypeError", e)
try:
    "%s %s" % ("one",)
except TypeError as e:
    print("TypeError", e)
b = b"Hello\x00World"
print(b.hex(), b.hex(" ", 2), bytes.fromhex("de ad be ef"), b.upper(), b.split(b"\x00"), b[0], b[:5], list(b[:3]), b.decode("ascii", "replace"), b.find(b"W"), bytes(3), bytes([65, 66]), bytearray(b"ab") + b"c", b"abc".replace(b"b", b"B"), b"a,b".split(b","), b" x ".strip())
ba = bytearray(b"hello"); ba[0] = 72; ba.extend(b"!"); ba.insert(0, 62); print(ba, ba.pop(), bytes(ba), ba.decode(), len(ba), ba.find(b"l"), memoryview(b"abc")[1:].tobytes(), memoryview(b"ab").hex())
try:
    b"a" + "b"
except TypeError as e:
    print("TypeError", e)
try:
    bytes([256])
except ValueError as e:
    print("ValueError", e)
print(ord("a"), chr(0x263A), ord("\U0001f600"), chr(65) * 3, len("\U0001f600"), len("\U0001f600".encode()), "é".encode(), "é".encode("utf-16-be"), b"\xc3\xa9".decode(), "naïve café".encode("ascii", "ignore"), "x".encode("idna") if False else "", "Ünïcödé".encode("latin-1"))
import unicodedata
print([unicodedata.name(c) for c in "a€"], unicodedata.lookup("SNOWMAN"), unicodedata.normalize("NFD", "é").encode(), unicodedata.numeric("½"), unicodedata.decimal("٣"), unicodedata.combining("\u0301"), unicodedata.mirrored("("), unicodedata.bidirectional("a"), unicodedata.unidata_version >= "13")
print(sorted(["b", "B", "a", "A", "é", "e", "Z"]), sorted(["10", "9", "100"]), sorted(["10", "9", "100"], key=int), min("hello"), max(["apple", "Banana"], key=str.lower), "abc" < "abd", "Z" < "a", [c for c in "aé" if c.isascii()])
print(str(1.0), str(1e20), str(1e-5), str(123456789012345678.0), repr(0.1 + 0.2), str(2**100), str(-0.0), str(1/3), repr(1e16), repr(1.5e300 * 1e10), str(complex(0, -1)), format(1e21), 3.0 == 3, int(3.999), round(0.125, 2), round(0.375, 2))
