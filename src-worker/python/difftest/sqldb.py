# sqlite3 on a file db: transactions, row factories, executemany, errors.
import os
import sqlite3
import tempfile

path = os.path.join(tempfile.mkdtemp(), "t.db")
con = sqlite3.connect(path)
con.execute("create table t (id integer primary key, name text unique, score real)")
con.executemany("insert into t (name, score) values (?, ?)", [("a", 1.5), ("b", 2.0), ("c", None)])
con.commit()
print(con.execute("select count(*), sum(score) from t").fetchone())
try:
    with con:
        con.execute("insert into t (name) values ('d')")
        con.execute("insert into t (name) values ('a')")
except sqlite3.IntegrityError as e:
    print("integrity", e)
print(con.execute("select name from t order by id").fetchall())
con.row_factory = sqlite3.Row
r = con.execute("select * from t where name = :n", {"n": "b"}).fetchone()
print(r.keys(), r["score"], tuple(r), dict(r))
con.row_factory = lambda cur, row: {c[0]: v for c, v in zip(cur.description, row)}
print(con.execute("select id, name from t").fetchall())
con.row_factory = None
cur = con.cursor()
cur.execute("update t set score = score * 2 where score is not null")
print(cur.rowcount, cur.lastrowid)
con.rollback()
print(con.execute("select score from t").fetchall())
con.close()
con2 = sqlite3.connect(path)
print(con2.execute("select group_concat(name, ',') from t").fetchone())
try:
    con2.execute("select * from nosuch")
except sqlite3.OperationalError as e:
    print("op", e)
try:
    con2.execute("selec 1")
except sqlite3.Error as e:
    print(type(e).__name__, e)
con2.execute("create table j (d text)")
con2.execute("insert into j values (?)", ('{"a": [1, 2]}',))
print(con2.execute("select json_extract(d, '$.a[1]') from j").fetchone())
print(con2.execute("select typeof(1), typeof(1.0), typeof('x'), typeof(x'00'), typeof(null)").fetchone())
print(con2.execute("select ?, ?, ?", (b"\x00\x01", 2**62, 1e300)).fetchone())
print(sqlite3.paramstyle, con2.in_transaction, con2.isolation_level)
con2.execute("insert into t (name) values ('z')")
print(con2.in_transaction)
con2.commit()
print(con2.total_changes)
print("\n".join(con2.iterdump()).count("CREATE TABLE"))
mem = sqlite3.connect(":memory:")
mem.create_function("rev", 1, lambda s: s[::-1])
print(mem.execute("select rev('hello')").fetchone())
mem.execute("create table x(a)")
mem.executemany("insert into x values (?)", ((i,) for i in range(1000)))
print(mem.execute("select count(*), max(a) from x").fetchone())
