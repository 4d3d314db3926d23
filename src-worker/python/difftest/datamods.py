# sqlite3, hashlib, hmac, base64, binascii, struct, zlib, gzip, bz2, lzma, tarfile, zipfile, io round trips.
import sqlite3, hashlib, hmac, base64, binascii, struct, zlib, gzip, bz2, lzma, tarfile, zipfile, io, os, tempfile, json
d = tempfile.mkdtemp(); os.chdir(d)
con = sqlite3.connect("db.sqlite")
cur = con.cursor()
cur.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score REAL, data BLOB)")
cur.executemany("INSERT INTO t (name, score, data) VALUES (?, ?, ?)", [("a", 1.5, b"\x00"), ("b", None, None), ("c", 3.0, b"xy")])
con.commit()
print(cur.lastrowid, cur.rowcount, con.total_changes)
print(cur.execute("SELECT * FROM t ORDER BY id").fetchall())
print(cur.execute("SELECT name, score FROM t WHERE score > ?", (1,)).fetchone(), cur.description[0][0])
con.row_factory = sqlite3.Row
r = con.execute("SELECT * FROM t WHERE name = :n", {"n": "c"}).fetchone()
print(r["name"], r[2], r.keys(), dict(r), tuple(r))
con.row_factory = None
print(con.execute("SELECT count(*), sum(score), avg(score), group_concat(name, '|'), max(length(data)) FROM t").fetchone())
try:
    con.execute("INSERT INTO t (name) VALUES (NULL)")
except sqlite3.IntegrityError as e:
    print("IntegrityError", e)
try:
    con.execute("SELEC 1")
except sqlite3.OperationalError as e:
    print("OperationalError", e)
try:
    con.execute("SELECT * FROM missing")
except sqlite3.OperationalError as e:
    print("OperationalError", e)
try:
    con.execute("SELECT ?", (1, 2))
except sqlite3.ProgrammingError as e:
    print("ProgrammingError", e)
with con:
    con.execute("UPDATE t SET score = score * 2 WHERE score IS NOT NULL")
try:
    with con:
        con.execute("DELETE FROM t")
        raise RuntimeError("rollback")
except RuntimeError:
    pass
print(con.execute("SELECT count(*) FROM t").fetchone(), con.in_transaction, con.isolation_level)
con.create_function("rev", 1, lambda s: s[::-1])
print(con.execute("SELECT rev(name) FROM t").fetchall())
print(con.execute("SELECT json_extract('{\"a\": [1, 2]}', '$.a[1]')").fetchone(), con.execute("SELECT typeof(1), typeof(1.0), typeof('x'), typeof(x'00'), typeof(NULL)").fetchone())
print([row for row in con.execute("PRAGMA table_info(t)")])
print("\n".join(list(con.iterdump())[:4]))
con.close()
try:
    con.execute("SELECT 1")
except sqlite3.ProgrammingError as e:
    print("ProgrammingError", e)
m = sqlite3.connect(":memory:")
m.execute("create table kv (k text primary key, v)")
m.execute("insert into kv values ('x', 1) on conflict(k) do update set v = v + 1")
m.execute("insert into kv values ('x', 1) on conflict(k) do update set v = v + 1")
print(m.execute("select * from kv").fetchall(), sqlite3.paramstyle, type(sqlite3.sqlite_version).__name__)
for name in ("md5", "sha1", "sha224", "sha256", "sha384", "sha512", "sha3_256", "blake2b", "blake2s"):
    print(name, hashlib.new(name, b"abc").hexdigest()[:32], hashlib.new(name).digest_size, hashlib.new(name).block_size)
h = hashlib.sha256(); h.update(b"a"); h2 = h.copy(); h2.update(b"b"); print(h.hexdigest()[:16], h2.hexdigest()[:16], h.name)
print(hashlib.shake_128(b"x").hexdigest(8), hashlib.blake2b(b"k", digest_size=16, key=b"key").hexdigest(), hashlib.md5(b"x", usedforsecurity=False).hexdigest())
print(hashlib.pbkdf2_hmac("sha256", b"pw", b"salt", 1000).hex()[:32], hmac.new(b"key", b"msg", "sha256").hexdigest()[:32], hmac.compare_digest("a", "a"), hmac.digest(b"k", b"m", "sha1").hex())
print(sorted(hashlib.algorithms_guaranteed))
try:
    hashlib.new("nope")
except ValueError as e:
    print("ValueError", e)
print(hashlib.file_digest(io.BytesIO(b"abc"), "sha1").hexdigest())
print(base64.b64encode(b"\x00\xffhello"), base64.b64decode("aGVsbG8="), base64.urlsafe_b64encode(b"\xfb\xff"), base64.b32encode(b"ab"), base64.b16encode(b"ab"), base64.a85encode(b"hi"), base64.b85encode(b"hi"))
try:
    base64.b64decode("abc")
except binascii.Error as e:
    print("binascii.Error", e)
try:
    base64.b64decode("ab!c", validate=True)
except binascii.Error as e:
    print("binascii.Error", e)
print(base64.b64decode("ab!c="), base64.encodebytes(b"x" * 60), binascii.hexlify(b"ab", "-"), binascii.unhexlify("6162"), binascii.crc32(b"abc"), zlib.adler32(b"abc"))
print(struct.pack("<IhB", 1, -2, 3), struct.pack(">d", 1.5), struct.unpack("<3sxH", b"abc\x00\x01\x02"), struct.calcsize("@iq"), struct.calcsize("=iq"), struct.pack("!?", True))
try:
    struct.unpack("I", b"ab")
except struct.error as e:
    print("struct.error", e)
print(list(struct.iter_unpack("<H", b"\x01\x00\x02\x00")), struct.Struct("<q").size, struct.pack("<e", 1.5))
data = b"hello " * 100
c = zlib.compress(data, 9); print(len(c), zlib.decompress(c) == data, zlib.crc32(data), len(zlib.compress(b"")), zlib.decompress(zlib.compress(b"x", wbits=31), wbits=47))
try:
    zlib.decompress(b"notzlib")
except zlib.error as e:
    print("zlib.error", e)
co = zlib.compressobj(); z = co.compress(data) + co.flush(); do = zlib.decompressobj(); print(do.decompress(z) == data, do.eof)
g = gzip.compress(b"gz data", mtime=0); print(g[:8], gzip.decompress(g))
with gzip.open("f.gz", "wt") as f:
    f.write("line1\nline2\n")
with gzip.open("f.gz", "rt") as f:
    print(f.readlines())
try:
    gzip.decompress(b"not gzip at all")
except gzip.BadGzipFile as e:
    print("BadGzipFile", e)
print(bz2.decompress(bz2.compress(b"bz")), lzma.decompress(lzma.compress(b"xz")), len(bz2.compress(b"")) > 0)
with zipfile.ZipFile("a.zip", "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("dir/a.txt", "AAA")
    z.writestr(zipfile.ZipInfo("b.bin", date_time=(2020, 1, 2, 3, 4, 6)), b"\x00" * 10)
    z.write("f.gz", arcname="f.gz")
with zipfile.ZipFile("a.zip") as z:
    print(z.namelist(), z.read("dir/a.txt"), [(i.filename, i.file_size, i.date_time) for i in z.infolist()][1], z.testzip())
    z.extractall("out")
print(sorted(os.listdir("out")), open("out/dir/a.txt").read(), zipfile.is_zipfile("a.zip"), zipfile.is_zipfile("f.gz"))
try:
    zipfile.ZipFile("f.gz")
except zipfile.BadZipFile as e:
    print("BadZipFile", e)
with tarfile.open("t.tar.gz", "w:gz") as t:
    t.add("out", arcname="pkg")
    info = tarfile.TarInfo("inline.txt"); info.size = 3; info.mtime = 0; t.addfile(info, io.BytesIO(b"abc"))
with tarfile.open("t.tar.gz") as t:
    print(sorted(t.getnames()), t.extractfile("inline.txt").read(), t.getmember("inline.txt").size)
    t.extractall("tout", filter="data")
print(sorted(os.listdir("tout/pkg")))
try:
    tarfile.open("a.zip")
except tarfile.ReadError as e:
    print("ReadError")
