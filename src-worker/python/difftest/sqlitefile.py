# sqlite3 on a file shared between processes: one python writes, another (started from the shell) reads,
# the file's header, commits seen by others, backup, iterdump, schema errors, read-only opens.
import os
import sqlite3
import subprocess
import sys
import tempfile

d = tempfile.mkdtemp()
db = os.path.join(d, "app.db")
con = sqlite3.connect(db)
con.execute("create table items (id integer primary key, name text not null unique, qty integer default 0, price real)")
con.executemany("insert into items (name, qty, price) values (?, ?, ?)", [("apple", 3, 0.5), ("pear", 0, 0.75), ("fig", 12, 2.0)])
con.commit()
print(open(db, "rb").read(16), os.path.getsize(db) % 4096 == 0)
reader = "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); print(c.execute('select name, qty from items order by id').fetchall())"
print(subprocess.run([sys.executable, "-c", reader, db], capture_output=True, text=True).stdout, end="")
print(subprocess.run(f"python3 -c \"{reader}\" {db}", shell=True, capture_output=True, text=True).stdout, end="")
writer = "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute(\"insert into items (name, qty) values ('kiwi', 5)\"); c.commit()"
subprocess.run([sys.executable, "-c", writer, db], check=True)
print(con.execute("select name, qty, price from items where name = 'kiwi'").fetchone())
con.execute("update items set qty = qty + 1 where name = 'apple'")
print("uncommitted seen by child:", subprocess.run([sys.executable, "-c", "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute(\"select qty from items where name='apple'\").fetchone())", db], capture_output=True, text=True).stdout.strip())
con.commit()
print("committed seen by child:", subprocess.run([sys.executable, "-c", "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute(\"select qty from items where name='apple'\").fetchone())", db], capture_output=True, text=True).stdout.strip())
try:
    con.execute("insert into items (name) values ('apple')")
except sqlite3.IntegrityError as e:
    print("IntegrityError", e)
try:
    con.execute("insert into items (qty) values (1)")
except sqlite3.IntegrityError as e:
    print("IntegrityError", e)
try:
    con.execute("select nope from items")
except sqlite3.OperationalError as e:
    print("OperationalError", e)
try:
    con.execute("selec 1")
except sqlite3.OperationalError as e:
    print("OperationalError", e)
try:
    con.execute("select ?", (1, 2))
except sqlite3.ProgrammingError as e:
    print("ProgrammingError", e)
con.row_factory = sqlite3.Row
row = con.execute("select * from items order by qty desc limit 1").fetchone()
print(row.keys(), dict(row), row["name"], row[0])
con.row_factory = None
print(con.execute("select count(*), sum(qty), round(avg(price), 3), group_concat(name, '|') from items").fetchone())
con.commit()
bk = sqlite3.connect(os.path.join(d, "backup.db"))
con.backup(bk)
bk.close()
print(sqlite3.connect(os.path.join(d, "backup.db")).execute("select count(*) from items").fetchone())
dump = list(con.iterdump())
print(dump[0], dump[1], len(dump))
con.close()
try:
    con.execute("select 1")
except sqlite3.ProgrammingError as e:
    print(e)
with open(os.path.join(d, "junk.db"), "w") as f:
    f.write("this is not a database, just text that is long enough to fill a header page " * 10)
try:
    sqlite3.connect(os.path.join(d, "junk.db")).execute("select * from sqlite_master").fetchall()
except sqlite3.DatabaseError as e:
    print("DatabaseError", e)
try:
    sqlite3.connect(os.path.join(d, "nodir", "x.db"))
except sqlite3.OperationalError as e:
    print("OperationalError", e)
ro = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
try:
    ro.execute("delete from items")
except sqlite3.OperationalError as e:
    print("read-only", e)
print(ro.execute("select count(*) from items").fetchone())
ro.close()
with sqlite3.connect(db) as c:
    c.execute("create table if not exists log (t text)")
    c.execute("insert into log values ('ctx')")
print(sqlite3.connect(db).execute("select * from log").fetchall(), sorted(os.listdir(d)))
mem = sqlite3.connect(":memory:")
mem.execute("create table t (a, b)")
mem.executemany("insert into t values (:a, :b)", [{"a": 1, "b": "x"}, {"a": 2, "b": None}])
print(mem.execute("select * from t").fetchall(), mem.execute("select typeof(a), typeof(b) from t").fetchall(), mem.total_changes)
cur = mem.execute("insert into t values (3, 'y')")
print(cur.lastrowid, cur.rowcount, [d[0] for d in mem.execute("select a as alpha, b from t").description])
mem.create_function("rev", 1, lambda s: s[::-1] if s else s)
print(mem.execute("select rev(b) from t where b is not null").fetchall())
print(sqlite3.paramstyle, sqlite3.PARSE_DECLTYPES)  # threadsafety is the build's (Pyodide's SQLite: 0)
