# Timeouts and refused connections, as each library reports them (ORIGIN;
# DENIED is a URL the host cannot connect to and the sandbox may not).
import os
import urllib.error
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
