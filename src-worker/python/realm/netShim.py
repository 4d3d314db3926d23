# HTTP for Python through the sandbox's network gateway (docs/python.md,
# "Network"), installed by the driver before user code. http.client's
# connections keep their request state machine and their HTTPResponse, but
# have no socket: putrequest/putheader record the request, the body and the
# head travel through the net syscalls (the `_sandglass_net` bridge: numbers
# and strings only, buffers as heap addresses), and the response is parsed by
# http.client itself from the head the gateway returns. urllib.request and
# urllib3 (requests) build on these classes, so they follow; redirects stay
# the library's, and the gateway checks each hop as a new request. Raw
# sockets fail with PermissionError naming the policy.
import errno as _errno
import io
import json
import struct
import sys

_net = None
# Raw kernel answers are Emscripten's numbers; taken before linuxErrno renumbers the errno module.
_WASI_EINTR = _errno.EINTR
_WASI_ETIMEDOUT = _errno.ETIMEDOUT
_ctypes = None
# The kernel shim's errno -> OSError (kernelShim.errno_error), given at install.
_errno_error = None

_FOLLOW_NONE = 0
_STREAMED = 2
_NO_BODY = 4
# Framing and connection headers are the gateway's; the libraries set them
# for a socket they no longer have.
_GATEWAY_OWNED = {
    "connection", "keep-alive", "proxy-connection", "transfer-encoding", "te",
    "trailer", "upgrade", "expect", "http2-settings",
}
# Error-record reason codes (docs/abi.md) that mean the request never got an answer.
_TIMEOUT_CODE = 10
_RESOLVE_CODE = 7
# The server closed the connection without a byte of answer: to http.client
# that is a response stream that ends at once (RemoteDisconnected, as CPython
# raises it from getresponse), not a failed request.
_EMPTY_REPLY_CODE = 17
_CHUNK = 1024 * 1024
# Room for the body bytes that come with a head (one buffer: a process reads
# one head at a time, and they are copied out at once).
_AHEAD = bytearray(64 * 1024)
_ahead_at = 0


def _ahead_address():
    global _ahead_at
    if _ahead_at == 0:
        _ahead_at = _address(_AHEAD)  # fixed: a bytearray never resized keeps its buffer
    return _ahead_at
_WRITE_BATCH = 256 * 1024
_POLICY_HINT = (
    "raw sockets are not available in the sandbox; HTTP and HTTPS go through "
    "the network gateway (http.client, urllib.request, requests)"
)


def _c():
    global _ctypes
    if _ctypes is None:
        import ctypes

        _ctypes = ctypes
    return _ctypes


def _address(buf):
    """Heap address of a writable buffer (bytearray, memoryview of one)."""
    c = _c()
    n = len(buf)
    if n == 0:
        return 0
    return c.addressof((c.c_char * n).from_buffer(buf))


def _idle_ms(timeout):
    if isinstance(timeout, (int, float)) and timeout is not True and timeout > 0:
        return max(1, int(timeout * 1000))
    return 0


def _check_signals():
    """Run a pending signal's handler now (SIGINT: KeyboardInterrupt), as C
    code does after EINTR; Pyodide's own check runs only every so many
    bytecodes, which a retry loop around a blocking call may never reach."""
    _c().pythonapi.PyErr_CheckSignals()


def _timeout_error():
    import socket

    return socket.timeout("timed out")


def _raise(err):
    """An error record (the bridge's JSON) as the OSError a socket would give."""
    code, msg, no = err.get("code", -1), err.get("message") or "", err["errno"]
    if code == -1 and no == _WASI_ETIMEDOUT:
        raise _timeout_error()
    if code == _TIMEOUT_CODE:
        raise _timeout_error()
    if code == _RESOLVE_CODE:
        import socket

        raise socket.gaierror(-2, msg or "Name or service not known")
    raise _errno_error(no, msg)


class _Exchange:
    """One request and its response through the gateway."""

    def __init__(self, method, url, headers, body, streamed, connect_ms):
        enc = []
        flags = (_STREAMED if streamed else 0) | (_NO_BODY if method.upper() == "HEAD" else 0)
        enc.append(struct.pack("<IIIIIQ", 1, flags | _FOLLOW_NONE, 0, 0, connect_ms, 0))
        for s in (method.encode("latin-1"), url.encode("utf-8")):
            enc.append(struct.pack("<I", len(s)) + s)
        enc.append(struct.pack("<I", len(headers)))
        for name, value in headers:
            for s in (name.encode("latin-1"), value.encode("latin-1")):
                enc.append(struct.pack("<I", len(s)) + s)
        body = body or b""
        enc.append(struct.pack("<I", len(body)))
        buf = bytearray(b"".join(enc))
        buf += body
        self.head = None
        self.empty = False  # the server sent nothing at all
        self.early = None  # the head reply that came with net_request
        self.ahead = b""  # body bytes that came with the head
        self.at_end = False  # ...and they were the whole body
        self.streaming = streamed
        self.pending = bytearray()
        self.closed = False
        if streamed:
            x = _net.request(_address(buf), len(buf))
            if x < 0:
                raise _errno_error(-x)
            self.x = x
            return
        # The whole request is here: send it and wait for the head and the
        # first body bytes in one round trip (a small GET: this and net_close).
        r = json.loads(_net.fetch(_address(buf), len(buf), connect_ms, _ahead_address(), len(_AHEAD)))
        if r["x"] == 0:
            raise _errno_error(r["errno"])
        self.x = r["x"]
        self.early = r

    def write(self, data):
        # Small writes (http.client sends files in 8 KiB blocks) are gathered
        # into fewer, larger net_body_write calls.
        if not self.streaming:
            raise OSError(_errno.EINVAL, "request body already sent")
        self.pending += data
        if len(self.pending) >= _WRITE_BATCH:
            self._flush()

    def _flush(self):
        buf, self.pending = self.pending, bytearray()
        at = 0
        while at < len(buf):
            view = memoryview(buf)[at : at + _CHUNK]
            n = _net.write(self.x, _address(view), len(view))
            if n == -_WASI_EINTR:
                _check_signals()
                continue
            if n < 0:
                self.fetch_head(0)  # the gateway's record says why
                raise _errno_error(-n)
            at += n

    def end_body(self):
        if self.streaming:
            self._flush()
            self.streaming = False
            n = _net.write(self.x, 0, 0)
            if n < 0:
                self.fetch_head(0)
                raise _errno_error(-n)

    def fetch_head(self, idle_ms):
        """Wait for the head: its dict (None for an empty reply), or raise
        as a socket would."""
        if self.head is None and not self.empty:
            r, self.early = self.early, None
            while r is None or r["errno"] == _WASI_EINTR:
                if r is not None:
                    _check_signals()
                r = json.loads(_net.response(self.x, idle_ms, _ahead_address(), len(_AHEAD)))
            if r["errno"] != 0 and r.get("code") == _EMPTY_REPLY_CODE:
                self.empty = True
                return None
            if r["errno"] != 0:
                _raise(r)
            if r.get("body"):
                self.ahead = bytes(_AHEAD[: r["body"]])
            self.at_end = bool(r.get("end"))
            self.head = r
        return self.head

    def read_into(self, buf, idle_ms):
        if self.ahead:
            n = min(len(buf), len(self.ahead))
            buf[:n] = self.ahead[:n]
            self.ahead = self.ahead[n:]
            return n
        if self.at_end:
            return 0
        while True:
            n = _net.read(self.x, _address(buf), len(buf), idle_ms)
            if n != -_WASI_EINTR:
                break
            _check_signals()
        if n < 0:
            r = json.loads(_net.response(self.x, 0))
            if r["errno"] == 0:
                r = {"errno": -n, "code": -1, "message": ""}
            _raise(r)
        return n

    def close(self):
        if not self.closed:
            self.closed = True
            _net.close(self.x)


class _ResponseStream(io.RawIOBase):
    """The response as http.client reads it from a socket: a status line and
    headers made from the gateway's head, then the body (already de-chunked
    by the gateway, so Transfer-Encoding is left out)."""

    def __init__(self, ex, sock):
        self._ex = ex
        self._sock = sock
        self._head = None

    def readable(self):
        return True

    def _head_bytes(self):
        h = self._ex.fetch_head(_idle_ms(self._sock.gettimeout()))
        if h is None:
            return memoryview(b"")
        # The status line as the server sent it: an HTTP/1.0 server's
        # response reads `version == 10` in http.client, as over a socket.
        lines = ["HTTP/%s %d %s" % (h.get("version", "1.1"), h["status"], h["reason"])]
        for name, value in h["headers"]:
            if name.lower() != "transfer-encoding":
                lines.append("%s: %s" % (name, value))
        return memoryview(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))

    def readinto(self, b):
        if self._head is None:
            self._head = self._head_bytes()
        if len(self._head) > 0:
            n = min(len(b), len(self._head))
            b[:n] = self._head[:n]
            self._head = self._head[n:]
            return n
        if self._ex.empty:
            return 0
        return self._ex.read_into(memoryview(b).cast("B"), _idle_ms(self._sock.gettimeout()))

    def close(self):
        if not self.closed:
            self._ex.close()
        super().close()


class _Dechunker:
    """Turns a body the caller chunk-encodes itself (urllib3's
    request_chunked) back into plain bytes; `done` after the last chunk."""

    def __init__(self):
        self.pending = bytearray()
        self.left = -1  # -1: expecting a size line; -2: expecting CRLF after data
        self.done = False

    def feed(self, data):
        self.pending += data
        out = bytearray()
        while not self.done:
            if self.left == -1:
                i = self.pending.find(b"\r\n")
                if i < 0:
                    break
                size = int(bytes(self.pending[:i]).split(b";")[0].strip() or b"0", 16)
                del self.pending[: i + 2]
                self.left = size
                if size == 0:
                    self.done = True
            elif self.left == -2:
                if len(self.pending) < 2:
                    break
                del self.pending[:2]
                self.left = -1
            else:
                take = bytes(self.pending[: self.left])
                if not take:
                    break
                out += take
                del self.pending[: len(take)]
                self.left -= len(take)
                if self.left == 0:
                    self.left = -2
        return bytes(out)


class _GatewaySocket:
    """What a connection holds instead of a socket: urllib3 sets its read
    timeout here, http.client sends body bytes and makes the response file."""

    def __init__(self, conn):
        self._conn = conn
        t = conn.timeout
        self._timeout = t if isinstance(t, (int, float)) else None

    def settimeout(self, t):
        self._timeout = t

    def gettimeout(self):
        return self._timeout

    def setsockopt(self, *args):
        pass

    def sendall(self, data):
        _conn_send(self._conn, data)

    def makefile(self, mode="rb", buffering=None, **kw):
        conn = self._conn
        ex = conn._sg_exchange
        if ex is None:
            raise OSError(_errno.ENOTCONN, "no request was sent")
        conn._sg_exchange = None
        # Each request is an exchange of its own: urllib3 then sees a closed
        # connection to recycle (it would poll a socket's descriptor).
        conn.sock = None
        ex.end_body()
        return io.BufferedReader(_ResponseStream(ex, self), 64 * 1024)

    def close(self):
        pass

    def fileno(self):
        return -1


def _conn_url(conn, target):
    if target.startswith(("http://", "https://")):
        return target
    host, port = conn.host, conn.port
    tunnel = getattr(conn, "_sg_tunnel", None)
    if tunnel is not None:
        # A proxy's CONNECT target: the gateway is the only way out, so the
        # request goes to the target itself.
        host, port = tunnel
    if ":" in host and not host.startswith("["):
        host = "[%s]" % host
    scheme = getattr(conn, "_sg_scheme", "http")
    default = 443 if scheme == "https" else 80
    port = "" if port in (None, default) else ":%d" % port
    return "%s://%s%s%s" % (scheme, host, port, target if target.startswith("/") else "/" + target)


def _install_http_client(hc):
    base_putrequest = hc.HTTPConnection.putrequest
    base_putheader = hc.HTTPConnection.putheader

    def connect(self):
        self.sock = _GatewaySocket(self)
        if getattr(self, "_sg_scheme", "http") == "https":
            self.is_verified = True  # the gateway verifies certificates

    def putrequest(self, method, url, *args, **kwargs):
        if self.sock is None:
            self.connect()
        old = getattr(self, "_sg_exchange", None)
        if old is not None:
            old.close()
        self._sg_exchange = None
        self._sg_request = [method, _conn_url(self, url), []]
        self._sg_dechunk = None
        return base_putrequest(self, method, url, *args, **kwargs)

    def putheader(self, header, *values):
        base_putheader(self, header, *values)
        name = header.decode("latin-1") if isinstance(header, bytes) else str(header)
        vals = []
        for v in values:
            if isinstance(v, bytes):
                vals.append(v.decode("latin-1"))
            elif isinstance(v, int):
                vals.append(str(v))
            else:
                vals.append(str(v))
        # http.client folds several values onto continuation lines; the
        # gateway takes one line (obs-fold is read as a space).
        self._sg_request[2].append((name, " ".join(vals)))

    def _send_output(self, message_body=None, encode_chunked=False):
        del self._buffer[:]
        method, url, headers = self._sg_request
        lower = {n.lower(): v for n, v in headers}
        sent = [(n, v) for n, v in headers if n.lower() not in _GATEWAY_OWNED]
        user_chunked = "chunked" in lower.get("transfer-encoding", "").lower() and not encode_chunked
        length = lower.get("content-length", "0").strip()
        # A malformed length is the gateway's to refuse; it still means a body.
        declared = user_chunked or not length.isdigit() or int(length) > 0
        inline = None
        if isinstance(message_body, str):
            message_body = message_body.encode("iso-8859-1")
        if isinstance(message_body, (bytes, bytearray, memoryview)):
            inline = bytes(message_body)
        streamed = inline is None and (message_body is not None or declared)
        connect_ms = _idle_ms(self.timeout)
        ex = _Exchange(method, url, sent, inline, streamed, connect_ms)
        self._sg_exchange = ex
        if user_chunked:
            self._sg_dechunk = _Dechunker()
        if message_body is not None and inline is None:
            if hasattr(message_body, "read"):
                text = self._is_textIO(message_body)
                while True:
                    block = message_body.read(self.blocksize)
                    if not block:
                        break
                    ex.write(block.encode("iso-8859-1") if text else block)
            else:
                for chunk in message_body:
                    if isinstance(chunk, str):
                        chunk = chunk.encode("iso-8859-1")
                    if chunk:
                        ex.write(chunk)
            ex.end_body()
        if not ex.streaming:
            # The whole request is out: a denial or a failed connection is
            # the request's error (urllib's URLError, urllib3's ConnectionError).
            try:
                ex.fetch_head(connect_ms)
            except TimeoutError:
                pass  # no answer yet: getresponse waits with the read timeout
            except OSError:
                ex.close()
                self._sg_exchange = None
                raise

    def send(self, data):
        if self.sock is None:
            if self.auto_open:
                self.connect()
            else:
                raise hc.NotConnected()
        if hasattr(data, "read"):
            text = self._is_textIO(data)
            while True:
                block = data.read(self.blocksize)
                if not block:
                    break
                _conn_send(self, block.encode("iso-8859-1") if text else block)
            return
        if isinstance(data, (bytes, bytearray, memoryview)):
            _conn_send(self, data)
            return
        try:
            for d in data:
                _conn_send(self, d)
        except TypeError:
            raise TypeError("data should be a bytes-like object or an iterable, got %r" % type(data))

    base_close = hc.HTTPConnection.close

    def close(self):
        ex = getattr(self, "_sg_exchange", None)
        if ex is not None:
            ex.close()
            self._sg_exchange = None
        base_close(self)

    cls = hc.HTTPConnection
    cls._sg_scheme = "http"
    cls._sg_exchange = None
    cls.connect = connect
    cls.putrequest = putrequest
    cls.putheader = putheader
    cls._send_output = _send_output
    cls.send = send
    cls.close = close
    def set_tunnel(self, host, port=None, headers=None):
        # http.client's putrequest then names the target in Host; nothing
        # tunnels (connect is ours).
        h, p = self._get_hostport(host, port)
        self._sg_tunnel = (h, p)
        self._tunnel_host, self._tunnel_port = h, p

    cls._sg_tunnel = None
    cls.set_tunnel = set_tunnel
    if hasattr(hc, "HTTPSConnection"):
        hc.HTTPSConnection._sg_scheme = "https"
        hc.HTTPSConnection.connect = connect
    else:
        class HTTPSConnection(hc.HTTPConnection):
            default_port = hc.HTTPS_PORT
            _sg_scheme = "https"

            def __init__(self, host, port=None, *, context=None, **kw):
                super().__init__(host, port, **kw)

        hc.HTTPSConnection = HTTPSConnection
        hc.__all__.append("HTTPSConnection")


def _conn_send(conn, data):
    ex = conn._sg_exchange
    if ex is None:
        raise OSError(_errno.ENOTCONN, "send before the request headers were sent")
    data = bytes(data)
    if conn._sg_dechunk is not None:
        data = conn._sg_dechunk.feed(data)
        if data:
            ex.write(data)
        if conn._sg_dechunk.done:
            ex.end_body()
        return
    if data:
        ex.write(data)


def _install_urllib3(mod):
    for name in ("HTTPConnection", "HTTPSConnection", "VerifiedHTTPSConnection"):
        cls = getattr(mod, name, None)
        if cls is None or not isinstance(cls, type):
            continue
        cls.connect = sys.modules["http.client"].HTTPConnection.connect
        cls._sg_scheme = "https" if "HTTPS" in name else "http"


def _install_requests_adapters(mod):
    base = mod.HTTPAdapter.cert_verify

    def cert_verify(self, conn, url, verify, cert):
        # The gateway verifies certificates against its own trust store;
        # Python's CA bundle file (Debian's certifi names a host path) is
        # not used, so its absence must not fail the request.
        base(self, conn, url, False if verify is True else verify, cert)

    mod.HTTPAdapter.cert_verify = cert_verify


def _install_socket(socket):
    def connect(self, address):
        raise PermissionError(
            _errno.EACCES, "network policy denied %s: %s" % (_describe(address), _POLICY_HINT)
        )

    def connect_ex(self, address):
        return _errno.EACCES

    socket.socket.connect = connect
    socket.socket.connect_ex = connect_ex


def _describe(address):
    if isinstance(address, tuple) and len(address) >= 2:
        return "%s:%s" % (address[0], address[1])
    return repr(address)


_PATCHES = {
    "socket": _install_socket,
    "http.client": _install_http_client,
    "urllib3.connection": _install_urllib3,
    "requests.adapters": _install_requests_adapters,
}


class _PatchingLoader:
    def __init__(self, loader, patch):
        self._loader = loader
        self._patch = patch

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        self._loader.exec_module(module)
        self._patch(module)


class _PatchFinder:
    """Patches a module right after its first import, so nothing is imported
    (or paid for) by programs that make no HTTP request."""

    def find_spec(self, name, path=None, target=None):
        patch = _PATCHES.get(name)
        if patch is None:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None:
                if spec.loader is not None:
                    spec.loader = _PatchingLoader(spec.loader, patch)
                return spec
        return None


def install(bridge, errno_error):
    global _net, _errno_error
    _net = bridge
    _errno_error = errno_error
    for name, patch in _PATCHES.items():
        if name in sys.modules:
            patch(sys.modules[name])
    sys.meta_path.insert(0, _PatchFinder())
