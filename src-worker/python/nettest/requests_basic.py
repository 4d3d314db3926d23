# requests (urllib3) against the loopback test server (ORIGIN).
import hashlib
import io
import os

import requests

O = os.environ["ORIGIN"]


def xheaders(echo):
    raw = echo["rawHeaders"]
    return [(raw[i], raw[i + 1]) for i in range(0, len(raw), 2) if raw[i].lower().startswith("x-")]


r = requests.get(O + "/hello", headers={"X-Req": "a"})
print(r.status_code, r.reason, r.headers["x-custom"], r.headers["Content-Type"], repr(r.text))

r = requests.post(O + "/echo", json={"k": [1, "é"]}, headers={"X-B": "2"})
e = r.json()
print(r.status_code, e["method"], e["body"], e["size"], xheaders(e))

r = requests.put(O + "/echo", data={"a": "1", "b": "x y"})
print(r.json()["body"])

r = requests.post(O + "/echo", data=io.BytesIO(b"z" * 70000))
print("file body", r.json()["size"])

r = requests.post(O + "/echo", data=(b"%d," % i for i in range(1000)))
print("generator body", r.json()["size"])

r = requests.get(O + "/nope")
print(r.status_code, r.reason, r.text)
try:
    r.raise_for_status()
except requests.HTTPError as err:
    print("HTTPError", str(err).replace(O, "ORIGIN"))

r = requests.get(O + "/redirect?status=302&to=/redirect%3Fstatus%3D301%26to%3D/hello")
print(r.status_code, r.url.replace(O, "ORIGIN"), [h.status_code for h in r.history], r.text)
r = requests.post(O + "/redirect?status=307&to=/echo", data=b"keep")
print("307", r.json()["method"], r.json()["body"])
r = requests.post(O + "/redirect?status=303&to=/echo", data=b"drop")
print("303", r.json()["method"], r.json()["size"])
r = requests.get(O + "/redirect?status=302&to=/hello", allow_redirects=False)
print("no follow", r.status_code, r.headers["Location"], r.is_redirect)

r = requests.get(O + "/big?bytes=100000&length=no")
print("chunked", len(r.content))

r = requests.get(O + "/big?bytes=20000000", stream=True)
h = hashlib.sha256()
n = 0
for chunk in r.iter_content(1 << 16):
    h.update(chunk)
    n += len(chunk)
print("streamed", n, h.hexdigest()[:16])

r = requests.head(O + "/hello")
print("HEAD", r.status_code, r.headers["Content-Type"], r.text == "")

with requests.Session() as s:
    print("session", [s.get(O + "/hello").text for _ in range(3)])
