# Timeouts and refused connections, as each library reports them (ORIGIN;
# DENIED is a URL the host cannot connect to and the sandbox may not).
import http.client
import os
import urllib.error
import urllib.parse
import urllib.request

import requests

O = os.environ["ORIGIN"]
DENIED = os.environ["DENIED"]


def show(label, f, inner=True):
    try:
        f()
        print(label, "no error")
    except Exception as e:  # noqa: BLE001
        reason = getattr(e, "reason", None)
        # A refused connection (host) and a denial (sandbox) differ inside.
        inner = type(reason).__name__ if inner and reason is not None else ""
        print(label, type(e).__name__, inner)


show("urllib timeout", lambda: urllib.request.urlopen(O + "/slow?ms=5000", timeout=0.5).read())
show("requests timeout", lambda: requests.get(O + "/slow?ms=5000", timeout=0.5))
show("requests timeout tuple", lambda: requests.get(O + "/slow?ms=5000", timeout=(3, 0.5)))
show("urllib refused", lambda: urllib.request.urlopen(DENIED, timeout=5), False)
show("requests refused", lambda: requests.get(DENIED, timeout=5), False)
r = requests.get(O + "/slow?ms=300", timeout=5)
print("slow but in time", r.text)


def empty_reply():
    u = urllib.parse.urlsplit(O)
    c = http.client.HTTPConnection(u.hostname, u.port, timeout=5)
    c.request("GET", "/empty-reply")
    try:
        c.getresponse()
    except http.client.RemoteDisconnected as e:
        print("http.client empty reply", type(e).__mro__[1].__name__, e)


# A server that closes without a byte of answer: getresponse's error.
empty_reply()
show("urllib empty reply", lambda: urllib.request.urlopen(O + "/empty-reply", timeout=5))
show("requests empty reply", lambda: requests.get(O + "/empty-reply", timeout=5))
