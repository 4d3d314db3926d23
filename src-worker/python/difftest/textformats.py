# Config and text formats agents read and write on files: configparser, tomllib, difflib patches,
# shlex, string.Template, xml.etree, html, urllib.parse, ipaddress, email headers, plistlib.
import configparser
import difflib
import email.message
import email.utils
import html
import io
import ipaddress
import os
import plistlib
import shlex
import string
import tempfile
import tomllib
import urllib.parse
import xml.etree.ElementTree as ET

d = tempfile.mkdtemp()
ini = os.path.join(d, "app.ini")
with open(ini, "w") as f:
    f.write("[DEFAULT]\nbase = /srv\n\n[server]\nhost = example.org\nport = 8080\ndebug = yes\npath = %(base)s/app\n\n[empty]\n")
cp = configparser.ConfigParser()
print(cp.read([ini, os.path.join(d, "missing.ini")]) == [ini], cp.sections(), cp.get("server", "path"), cp.getint("server", "port"), cp.getboolean("server", "debug"))
print(cp["server"].get("nope", "fallback"), dict(cp["empty"]), "host" in cp["server"], cp.has_option("server", "base"))
cp["new"] = {"k": "v", "n": "1"}
cp.set("server", "port", "9090")
with open(ini, "w") as f:
    cp.write(f)
print(open(ini).read())
for bad in ("[s]\nk = 1\nk = 2\n", "no section\n", "[s]\n[s]\n"):
    try:
        configparser.ConfigParser().read_string(bad)
    except configparser.Error as e:
        print(type(e).__name__, e)
try:
    cp.get("server", "missing")
except configparser.NoOptionError as e:
    print(e)
raw = configparser.RawConfigParser()
raw.read_string("[x]\np = 100%\n")
print(raw.get("x", "p"))
toml = b'title = "T"\n[owner]\nname = "Tom"\ndob = 1979-05-27T07:32:00-08:00\n[[items]]\nid = 1\ntags = ["a", "b"]\n[[items]]\nid = 2\nratio = 0.5\ninline = { x = 1, y = [1, 2] }\n'
with open(os.path.join(d, "c.toml"), "wb") as f:
    f.write(toml)
with open(os.path.join(d, "c.toml"), "rb") as f:
    print(tomllib.load(f))
for bad in ('a = "x', "a = 1\na = 2", "[t]\nk = \n"):
    try:
        tomllib.loads(bad)
    except tomllib.TOMLDecodeError as e:
        print("TOMLDecodeError", str(e))
a = ["line one\n", "line two\n", "line three\n", "line four\n"]
b = ["line one\n", "line 2\n", "line three\n", "line four\n", "line five\n"]
print("".join(difflib.unified_diff(a, b, fromfile="a.txt", tofile="b.txt")), end="")
print("".join(difflib.context_diff(a, b, n=1)), end="")
print("".join(difflib.ndiff(["abcd\n"], ["abxd\n"])), end="")
print(difflib.get_close_matches("appel", ["ape", "apple", "peach", "puppy"]), round(difflib.SequenceMatcher(None, "abcd", "bcde").ratio(), 3))
print(shlex.split("cmd --opt='a b' \"c d\" e\\ f # not a comment"), shlex.split("a # c", comments=True), shlex.quote("it's here"), shlex.join(["ls", "-l", "my file"]))
try:
    shlex.split("unclosed 'quote")
except ValueError as e:
    print(e)
t = string.Template("$who likes ${what}s, $$5")
print(t.substitute(who="tim", what="kung pao"), t.safe_substitute(who="x"))
try:
    t.substitute(who="x")
except KeyError as e:
    print("KeyError", e)
root = ET.fromstring("<root a='1'><item id='x'>one</item><item id='y'>two<sub/></item><!-- c --></root>")
print(root.tag, root.attrib, [(i.get("id"), i.text) for i in root.iter("item")], root.find("item[@id='y']/sub") is not None, root.findtext("item"))
new = ET.Element("config", version="2")
ET.SubElement(new, "name").text = "caf\u00e9 & <more>"
ET.indent(new)
tree = ET.ElementTree(new)
tree.write(os.path.join(d, "out.xml"), encoding="utf-8", xml_declaration=True)
print(open(os.path.join(d, "out.xml"), "rb").read())
print(ET.tostring(new, encoding="unicode"))
try:
    ET.fromstring("<a><b></a>")
except ET.ParseError as e:
    print("ParseError", e, e.position)
print(html.escape("<a href='x'>&</a>"), html.unescape("&lt;&amp;&#x27;&eacute;&nbsp;|"), html.escape("'\"", quote=False))
u = urllib.parse.urlparse("https://user:pw@example.org:8443/a/b;p?q=1&r=two+words&q=2#frag")
print(u, u.hostname, u.port, u.username)
print(urllib.parse.parse_qs(u.query), urllib.parse.parse_qsl(u.query), urllib.parse.urlencode({"a": "x y", "b": ["1", "2"]}, doseq=True))
print(urllib.parse.quote("a b/c?d=\u00e9"), urllib.parse.quote_plus("a b&c"), urllib.parse.unquote("%E2%9C%93%20x"), urllib.parse.urljoin("http://h/a/b/c", "../d?x"), urllib.parse.urlunparse(("http", "h", "/p", "", "q=1", "")))
print(urllib.parse.urlsplit("//host/path"), urllib.parse.urldefrag("http://x/y#z"))
net = ipaddress.ip_network("192.168.0.0/22")
print(net.num_addresses, net.netmask, net.broadcast_address, list(net.subnets(new_prefix=24))[:2], ipaddress.ip_address("192.168.1.7") in net)
print(ipaddress.ip_address("::ffff:10.0.0.1").ipv4_mapped, ipaddress.ip_address("10.0.0.1").is_private, ipaddress.ip_interface("10.1.2.3/8").network, ipaddress.ip_address("2001:db8::1").exploded)
try:
    ipaddress.ip_address("300.1.1.1")
except ValueError as e:
    print(e)
m = email.message.EmailMessage()
m["From"] = "Ann <ann@example.org>"
m["To"] = "bob@example.org"
m["Subject"] = "Caf\u00e9 report"
m.set_content("Body line\n")
s = m.as_string()
print([l for l in s.splitlines() if not l.startswith(("Content", "MIME"))])
print(email.utils.parseaddr("Ann Lee <ann@x.org>"), email.utils.formataddr(("B", "b@x.org")), email.utils.parsedate_to_datetime("Mon, 10 Jun 2024 06:13:20 +0000"))
pl = os.path.join(d, "x.plist")
with open(pl, "wb") as f:
    plistlib.dump({"name": "x", "n": [1, 2.5, True]}, f)
print(plistlib.load(open(pl, "rb")), open(pl, "rb").read().count(b"<key>"))
