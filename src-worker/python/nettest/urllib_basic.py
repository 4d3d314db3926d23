# urllib.request and http.client against the loopback test server (ORIGIN).
import hashlib
import http.client
import json
import os
import urllib.error
import urllib.request

O = os.environ["ORIGIN"]


def xheaders(echo):
    raw = echo["rawHeaders"]
    return [(raw[i], raw[i + 1]) for i in range(0, len(raw), 2) if raw[i].lower().startswith("x-")]


r = urllib.request.urlopen(O + "/hello")
print(r.status, r.reason, r.headers["X-Custom"], r.headers.get_content_type(), r.read())

req = urllib.request.Request(
    O + "/echo?q=1",
    data=json.dumps({"k": [1, 2]}).encode(),
    headers={"Content-Type": "application/json", "X-Test": "yes"},
    method="POST",
)
e = json.load(urllib.request.urlopen(req))
print(e["method"], e["url"], e["body"], e["size"], xheaders(e))

try:
    urllib.request.urlopen(O + "/nope")
except urllib.error.HTTPError as err:
    print("HTTPError", err.code, err.reason, err.read())

for status in (301, 302, 303, 307, 308):
    r = urllib.request.urlopen(O + "/redirect?status=%d&to=/hello" % status)
    print(status, r.status, r.geturl().replace(O, "ORIGIN"), r.read())

r = urllib.request.urlopen(O + "/http10")
print("HTTP/1.0 server", r.version, r.status, r.read())

r = urllib.request.urlopen(O + "/big?bytes=100000&length=no")
print("chunked", r.headers.get("Content-Length"), len(r.read()))

r = urllib.request.urlopen(O + "/big?bytes=5000000")
h = hashlib.sha256()
n = 0
while True:
    b = r.read(100000)
    if not b:
        break
    h.update(b)
    n += len(b)
print("streamed", r.headers["Content-Length"], n, h.hexdigest()[:16])

c = http.client.HTTPConnection(O.split("//")[1], timeout=10)
c.request("HEAD", "/hello")
r = c.getresponse()
print("HEAD", r.status, r.getheader("Content-Length"), r.read())
c.request("PUT", "/echo", body=b"data" * 10, headers={"X-One": "1", "x-two": "2"})
r = c.getresponse()
e = json.loads(r.read())
print(e["method"], e["size"], xheaders(e))
c.putrequest("POST", "/echo")
c.putheader("Content-Length", "6")
c.endheaders()
c.send(b"abc")
c.send(b"def")
r = c.getresponse()
print("sent in parts", json.loads(r.read())["body"])
c.request("GET", "/big?bytes=300000")
r = c.getresponse()
a, b = r.read(1000), r.read1(70000)
print("read(n)", len(a), 0 < len(b) <= 70000, len(a) + len(b) + len(r.read()))
c.close()
