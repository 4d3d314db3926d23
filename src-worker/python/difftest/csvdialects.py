# csv: dialects, quoting, sniffer, DictReader/DictWriter, errors, newline handling.
import csv, io, sys, os, tempfile
rows = [["a", "b,c", 'd"e', "f\ng", "", None, 1, 2.5, True], [" lead", "trail ", "x"]]
for q in (csv.QUOTE_MINIMAL, csv.QUOTE_ALL, csv.QUOTE_NONNUMERIC, csv.QUOTE_NONE):
    s = io.StringIO()
    w = csv.writer(s, quoting=q, escapechar="\\")
    try:
        w.writerows(rows)
    except csv.Error as e:
        print("Error", e)
    print(q, repr(s.getvalue()))
s = io.StringIO()
csv.writer(s, delimiter="\t", lineterminator="\n").writerow(["t", "a\tb", "c"])
print(repr(s.getvalue()))
s = io.StringIO()
w = csv.DictWriter(s, fieldnames=["id", "name"], extrasaction="ignore")
w.writeheader(); w.writerow({"id": 1, "name": "x", "extra": 9}); w.writerows([{"id": 2}])
print(repr(s.getvalue()))
try:
    csv.DictWriter(io.StringIO(), fieldnames=["a"]).writerow({"b": 1})
except ValueError as e:
    print("ValueError", e)
data = 'name,age,city\r\n"Smith, J",42,"New\nYork"\r\nDoe,,"say ""hi"""\r\nshort\r\nlong,1,2,3\r\n'
for r in csv.reader(io.StringIO(data)):
    print(r)
for r in csv.DictReader(io.StringIO(data)):
    print(r)
for r in csv.DictReader(io.StringIO(data), restkey="rest", restval="?"):
    print(dict(r))
print(list(csv.reader(["a, b, c"], skipinitialspace=True)), list(csv.reader(["1;2;'3;4'"], delimiter=";", quotechar="'")))
print(list(csv.reader(['a,"b"c,d'])), list(csv.reader(['"unterminated'])) if False else "")
try:
    list(csv.reader(['"a', 'b'], strict=True))
except csv.Error as e:
    print("Error", e)
try:
    list(csv.reader(['a,"b"x'], strict=True))
except csv.Error as e:
    print("Error", e)
try:
    list(csv.reader(io.StringIO('"open\n')))
except csv.Error as e:
    print("Error", e)
print(list(csv.reader(io.StringIO("1,2\n\n3,4\n"))))
print(list(csv.reader(["x,y"], quoting=csv.QUOTE_NONNUMERIC)) if False else list(csv.reader(['1,"s",2.5'], quoting=csv.QUOTE_NONNUMERIC)))
sn = csv.Sniffer()
sample = "id;name;score\n1;ann;3.5\n2;bob;4.0\n3;cy;2.25\n"
d = sn.sniff(sample)
print(d.delimiter, repr(d.quotechar), d.doublequote, d.skipinitialspace, repr(d.lineterminator), sn.has_header(sample))
d = sn.sniff('"a","b"\n"1","2"\n')
print(d.delimiter, d.quotechar)
try:
    sn.sniff("")
except csv.Error as e:
    print("Error", e)
csv.register_dialect("pipes", delimiter="|", quoting=csv.QUOTE_ALL)
s = io.StringIO(); csv.writer(s, dialect="pipes").writerow([1, "two"]); print(repr(s.getvalue()), csv.list_dialects() and sorted(csv.list_dialects()))
try:
    csv.get_dialect("nope")
except csv.Error as e:
    print("Error", e)
print(csv.field_size_limit(), csv.excel.delimiter, csv.excel_tab.delimiter, csv.unix_dialect.lineterminator == "\n")
t = tempfile.mkdtemp()
p = os.path.join(t, "f.csv")
with open(p, "w", newline="") as f:
    csv.writer(f).writerows([["x", "multi\nline"], ["é", "ü"]])
print(repr(open(p, "rb").read()))
with open(p, newline="") as f:
    print(list(csv.reader(f)))
with open(p) as f:
    print(list(csv.reader(f)))
w = csv.writer(sys.stdout)
w.writerow(["to", "stdout", "a b"])
r = csv.reader(sys.stdin)
print(next(r), r.line_num, list(r), r.line_num)
