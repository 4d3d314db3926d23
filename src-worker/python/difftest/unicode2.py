# unicodedata and str's Unicode behaviour scripts rely on: names, categories, normalization forms, widths,
# case mapping, combining marks, digits of other scripts, encodings round trips, grapheme-ish lengths.
import unicodedata as ud

for ch in ["A", "\u00e9", "\u0301", "\u00df", "\u2167", "\u0663", "\u4e2d", "\uff21", "\U0001f600", "\u200b", " ", "\t", "_", "\u00bd", "\u2028"]:
    print(ascii(ch), ud.name(ch, "<none>"), ud.category(ch), ud.bidirectional(ch), ud.combining(ch), ud.east_asian_width(ch), ud.mirrored(ch), ud.decimal(ch, None), ud.digit(ch, None), ud.numeric(ch, None))
print(ud.lookup("LATIN SMALL LETTER E WITH ACUTE"), ascii(ud.lookup("SNOWMAN")), ud.lookup("GREEK SMALL LETTER ALPHA"))
try:
    ud.lookup("NO SUCH CHARACTER NAME")
except KeyError as e:
    print("KeyError", e)
try:
    ud.name("\x00")
except ValueError as e:
    print("ValueError", e)
for s in ["e\u0301", "\u00e9", "\ufb01", "\u2460", "\u1e9b\u0323", "\uff21\uff22", "\u00c5", "A\u030a"]:
    print(ascii(s), [ascii(ud.normalize(f, s)) for f in ("NFC", "NFD", "NFKC", "NFKD")], ud.is_normalized("NFC", s))
print(ud.decomposition("\u00e9"), ud.decomposition("\ufb01"), repr(ud.decomposition("a")))
print("stra\u00dfe".upper(), "\u00dfx".casefold(), "\u0130".lower().encode("unicode_escape"), "\u03a3\u03a3".lower(), "\u01c6".title(), "ﬁ".upper())
print("\u00e9" == "e\u0301", ud.normalize("NFC", "e\u0301") == "\u00e9", len("e\u0301"), len("\U0001f468\u200d\U0001f469\u200d\U0001f467"))
print("\u0663\u0664".isdigit(), int("\u0663\u0664"), float("\u0661.\u0665"), "\u2167".isnumeric(), "\u00bd".isdecimal(), "\u00b2".isdigit(), "\u00b2".isdecimal())
print("caf\u00e9".encode("utf-8"), "caf\u00e9".encode("utf-16-le"), "caf\u00e9".encode("latin-1"), "\u20ac".encode("cp1252"), "\u00e9".encode("ascii", "replace"))
print("\U0001f600".encode("utf-16"), len("\U0001f600".encode("utf-16-le")), "\U0001f600".encode("utf-8"), ascii("\ud83d\ude00".encode("utf-16", "surrogatepass").decode("utf-16")))
try:
    "\ud800".encode("utf-8")
except UnicodeEncodeError as e:
    print(e)
print("\ud800".encode("utf-8", "surrogatepass"), b"\xed\xa0\x80".decode("utf-8", "surrogatepass") == "\ud800", b"\xff".decode("utf-8", "surrogateescape").encode("utf-8", "surrogateescape"))
print("m\u00fcnchen.de".encode("idna"), b"xn--mnchen-3ya.de".decode("idna"), "b\u00fccher".encode("punycode"))
print("x\u0301y".isalpha(), "\u0301".isalpha(), "\u4e2d\u6587".isalpha(), "\u00e9t\u00e9".isidentifier(), "1a".isidentifier(), "\u2167x".isidentifier())
print("Hello W\u00f6rld".swapcase(), "\u1f88".upper(), "\u1f88".lower(), "\u1f88".title(), " \u3000\u2003x\u00a0".strip(), "\u00a0".isspace(), "\x1c".isspace())
print("a\u2028b\x85c\x0cd\x1ee".splitlines(), "a\rb\r\nc".splitlines(True))
print(sorted(["\u00e9", "e", "f", "E", "\u00c9"]), sorted(["\u00e9", "e", "f"], key=lambda s: ud.normalize("NFD", s)))
w = lambda s: sum(2 if ud.east_asian_width(c) in "WF" else 0 if ud.combining(c) else 1 for c in s)
print(w("abc"), w("\u4e2d\u6587"), w("e\u0301"), w("\uff21"))
print(ascii(str(b"\xe2\x9c\x93", "utf-8")), "%c" % 0x2713 == "\u2713", chr(0x10FFFF).encode("utf-8"), ord("\U0001f600"), hex(ord("\u00e9")))
try:
    chr(0x110000)
except ValueError as e:
    print(e)
print(ascii("\N{GREEK SMALL LETTER ALPHA}\N{EM DASH}"), "\N{LATIN SMALL LETTER A WITH GRAVE}".encode("unicode_escape"), "\\u00e9".encode().decode("unicode_escape"))
