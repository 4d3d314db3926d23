# struct/array/bytes formatting, decimal/fractions, textwrap/pprint/reprlib output, hashlib/hmac/uuid/secrets.
import array
import base64
import binascii
import decimal
import fractions
import hashlib
import hmac
import pprint
import reprlib
import secrets
import struct
import textwrap
import uuid
from decimal import Decimal

print(struct.pack("<IhB3sx?", 1, -2, 3, b"ab", True), struct.calcsize("@iq"), struct.calcsize("=iq"), struct.unpack(">d", b"@\t!\xfbTD-\x18"))
print(struct.unpack_from("<H", b"\x00\x01\x02", 1), list(struct.iter_unpack("<h", b"\x01\x00\x02\x00")))
a = array.array("i", [1, 2, 3])
a.append(4)
print(a, a.itemsize, a.tobytes()[:8], array.array("d", [1.5]), a[1:3])
print(bytes(range(5)).hex(), bytes.fromhex("de ad be ef"), b"abc".hex(":"), bytearray(b"x") * 3, b"%d-%s" % (5, b"z"))
print(repr(b"\x00\t\n\r'\"\x7f\x80"), repr(bytearray(b"a")), memoryview(b"abc")[1:].tobytes())
print(base64.b64encode(b"hello?>"), base64.urlsafe_b64encode(b"hello?>"), base64.b32encode(b"hi"), base64.b16decode("4142"), binascii.crc32(b"abc"))
decimal.getcontext().prec = 10
print(Decimal(1) / Decimal(7), Decimal("1.10") + Decimal("2.205"), Decimal("2.675").quantize(Decimal("0.01")), Decimal("1e5").normalize(), Decimal(0.1))
print(Decimal("3.14159").quantize(Decimal("0.01"), rounding=decimal.ROUND_DOWN), Decimal("-0"), Decimal("NaN") == Decimal("NaN"), Decimal(10) ** -3)
try:
    Decimal("abc")
except decimal.InvalidOperation as e:
    print("invalid", type(e).__name__)
try:
    Decimal(1) / Decimal(0)
except decimal.DivisionByZero as e:
    print("div0", e)
print(fractions.Fraction(3, 6), fractions.Fraction("0.125"), fractions.Fraction(1, 3) + fractions.Fraction(1, 6), fractions.Fraction(0.1).limit_denominator(100), float(fractions.Fraction(1, 8)))
print(f"{1234567.891:,.2f} {0.000123:.2e} {255:#x} {255:08b} {3.5:^9}| {'s':*>5} {12:+d} {0.5:%} {1e21} {1/3!r} {-0.0}")
print(format(1234.5, "_.1f"), round(2.5), round(3.5), round(2.675, 2), 7 // -2, -7 % 3, divmod(-7, 2), 2 ** -1, 10 / 4)
text = "The quick brown fox jumps over the lazy dog. " * 4
print(textwrap.fill(text, width=30))
print(textwrap.wrap(text, 25, max_lines=3, placeholder=" [...]"))
print(textwrap.shorten("Hello  world, this is   long", width=15), repr(textwrap.dedent("    a\n      b\n    c")), repr(textwrap.indent("a\n\nb", "> ")))
data = {"name": "x" * 10, "items": list(range(30)), "nested": {"a": [{"b": i, "c": "y" * i} for i in range(4)]}, "t": (1, 2)}
pprint.pprint(data)
pprint.pprint(data, width=40, depth=2, compact=True)
print(pprint.pformat(list(range(5)), width=10), pprint.pformat({"b": 1, "a": 2}), pprint.pformat({"b": 1, "a": 2}, sort_dicts=False))
print(reprlib.repr(list(range(100))), reprlib.repr("x" * 100), reprlib.repr({i: i for i in range(10)}), reprlib.repr(set(range(20))))
print(hashlib.md5(b"a").hexdigest(), hashlib.sha1(b"a").hexdigest(), hashlib.sha512(b"a").hexdigest()[:20], hashlib.blake2b(b"a", digest_size=8).hexdigest(), hashlib.sha3_256(b"").hexdigest()[:16])
print(hashlib.pbkdf2_hmac("sha256", b"pw", b"salt", 1000).hex()[:32], hmac.new(b"k", b"msg", "sha256").hexdigest(), hmac.compare_digest(b"a", b"a"))
print(hashlib.new("sha256", b"x").name, hashlib.sha256().digest_size, hashlib.sha256().block_size, "md5" in hashlib.algorithms_guaranteed)
u = uuid.UUID("12345678-1234-5678-1234-567812345678")
print(u, u.hex, u.version, u.int % 1000, uuid.uuid5(uuid.NAMESPACE_DNS, "example.com"), uuid.uuid3(uuid.NAMESPACE_URL, "x"))
u4 = uuid.uuid4()
print(u4.version, len(str(u4)), len(secrets.token_hex(16)), len(secrets.token_bytes(8)), len(secrets.token_urlsafe(16)) >= 16, 0 <= secrets.randbelow(10) < 10)
print(uuid.UUID(bytes=b"\x00" * 16), repr(uuid.UUID(int=1)))
