//! The binary formats of docs/abi.md: a *string* is `u32 len` then the
//! bytes, a *list* is `u32 count` then that many strings, integers are
//! little-endian. Plain code, usable and tested on every target.

/// Spawn request flag: the child is the tty's foreground job.
pub const SPAWN_FOREGROUND: u32 = 1;
/// Spawn request flag: the environment is exactly the one given (the kernel adds no PWD).
pub const SPAWN_EXACT_ENV: u32 = 2;
/// Spawn request flag: the child starts with SIGINT and SIGQUIT ignored (a
/// background job of a shell without job control).
pub const SPAWN_IGNORE_INTQUIT: u32 = 4;
/// Spawn request flag: the child starts with SIGINT and SIGQUIT at their
/// default action even where the parent ignores them.
pub const SPAWN_DEFAULT_INTQUIT: u32 = 8;

/// `pgid` of a spawn request: a new group led by the child.
pub const PGID_NEW: i32 = 0;
/// `pgid` of a spawn request: stay in the parent's group.
pub const PGID_PARENT: i32 = -1;

/// A child to start, as `spawn` takes it.
pub struct SpawnRequest<'a, A: AsRef<[u8]>, E: AsRef<[u8]>> {
    /// Program path as resolved by the caller (absolute or relative to cwd).
    pub path: &'a [u8],
    /// argv, argv[0] included.
    pub argv: &'a [A],
    /// `KEY=VALUE` entries.
    pub env: &'a [E],
    /// The child's cwd; empty inherits the parent's kernel cwd.
    pub cwd: &'a [u8],
    /// The child's fd table as (child fd, parent fd); others are not inherited.
    pub fds: &'a [(u32, u32)],
    /// [`PGID_NEW`], [`PGID_PARENT`] or a group to join.
    pub pgid: i32,
    /// [`SPAWN_FOREGROUND`] or 0.
    pub flags: u32,
}

impl<'a, A: AsRef<[u8]>, E: AsRef<[u8]>> SpawnRequest<'a, A, E> {
    /// The request's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer(Vec::with_capacity(256));
        w.bytes(self.path);
        w.list(self.argv);
        w.list(self.env);
        w.bytes(self.cwd);
        w.u32(self.fds.len() as u32);
        for &(child, parent) in self.fds {
            w.u32(child);
            w.u32(parent);
        }
        w.0.extend_from_slice(&self.pgid.to_le_bytes());
        w.u32(self.flags);
        w.0
    }
}

struct Writer(Vec<u8>);

impl Writer {
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn bytes(&mut self, s: &[u8]) {
        self.u32(s.len() as u32);
        self.0.extend_from_slice(s);
    }
    fn list<S: AsRef<[u8]>>(&mut self, items: &[S]) {
        self.u32(items.len() as u32);
        for s in items {
            self.bytes(s.as_ref());
        }
    }
}

/// One command of the shell's API mode, as `session_next` hands it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SessionRequest {
    /// The script text to run.
    pub command: Vec<u8>,
    /// Directory to run it in; empty keeps the current one.
    pub cwd: Vec<u8>,
    /// `KEY=VALUE` entries exported for this command only.
    pub env: Vec<Vec<u8>>,
    /// Reserved, 0.
    pub flags: u32,
}

impl SessionRequest {
    /// Decode a request; `None` when the bytes end early. Fields after
    /// `cwd` are optional (an older kernel may send only the first two).
    pub fn decode(b: &[u8]) -> Option<SessionRequest> {
        let mut r = Reader { b, off: 0 };
        let command = r.bytes()?;
        let cwd = r.bytes()?;
        let mut req = SessionRequest {
            command,
            cwd,
            ..SessionRequest::default()
        };
        if r.off < b.len() {
            let n = r.u32()?;
            for _ in 0..n {
                req.env.push(r.bytes()?);
            }
            req.flags = r.u32().unwrap_or(0);
        }
        Some(req)
    }
}

/// Net request flag: follow redirects (each hop is checked again).
pub const NET_FOLLOW_REDIRECTS: u32 = 1;
/// Net request flag: the body comes through `net_body_write` (else the inline body).
pub const NET_STREAMED_BODY: u32 = 2;
/// Net request flag: no response body expected (HEAD).
pub const NET_NO_BODY: u32 = 4;
/// Net request flag: the gateway decodes a `Content-Encoding: br` body (the
/// head stays as sent).
pub const NET_DECODE_BROTLI: u32 = 8;
/// Request flag: `connect_to` follows the body (curl's --resolve, --connect-to).
pub const NET_CONNECT_TO: u32 = 16;
/// Version of the net request format.
pub const NET_REQUEST_VERSION: u32 = 1;

/// A request as `net_request` takes it (docs/abi.md, "Network").
pub struct NetRequest<'a> {
    /// [`NET_FOLLOW_REDIRECTS`], [`NET_STREAMED_BODY`], [`NET_NO_BODY`],
    /// [`NET_DECODE_BROTLI`].
    pub flags: u32,
    /// 0 = the gateway's default (the same for the limits below; they only tighten).
    pub max_redirects: u32,
    /// Total time for the exchange in ms, redirects and bodies included.
    pub timeout_ms: u32,
    /// Time to connect in ms.
    pub connect_timeout_ms: u32,
    /// Largest response body accepted.
    pub max_response_bytes: u64,
    /// Any HTTP token but CONNECT, passed through as given.
    pub method: &'a [u8],
    /// An http or https URL.
    pub url: &'a [u8],
    /// In order, as given.
    pub headers: &'a [(Vec<u8>, Vec<u8>)],
    /// The whole body when [`NET_STREAMED_BODY`] is clear.
    pub body: &'a [u8],
    /// Connect here (host or address, port) instead of where the URL's
    /// host resolves; sent after the body with [`NET_CONNECT_TO`]. The
    /// policy checks both places.
    pub connect_to: Option<(&'a [u8], u32)>,
}

impl NetRequest<'_> {
    /// The request's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer(Vec::with_capacity(128 + self.url.len() + self.body.len()));
        w.u32(NET_REQUEST_VERSION);
        w.u32(self.flags);
        w.u32(self.max_redirects);
        w.u32(self.timeout_ms);
        w.u32(self.connect_timeout_ms);
        w.0.extend_from_slice(&self.max_response_bytes.to_le_bytes());
        w.bytes(self.method);
        w.bytes(self.url);
        w.u32(self.headers.len() as u32);
        for (n, v) in self.headers {
            w.bytes(n);
            w.bytes(v);
        }
        w.bytes(self.body);
        if let Some((host, port)) = self.connect_to {
            w.bytes(host);
            w.u32(port);
        }
        w.0
    }
}

/// A response head as `net_response` hands it back.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NetHead {
    /// HTTP status code.
    pub status: u32,
    /// Redirects followed to get here.
    pub redirects: u32,
    /// The reason phrase as received (may be empty).
    pub status_text: Vec<u8>,
    /// The URL that answered (after redirects).
    pub url: Vec<u8>,
    /// The checked address the connection used.
    pub address: Vec<u8>,
    /// As received: order and spelling kept.
    pub headers: Vec<(Vec<u8>, Vec<u8>)>,
    /// The status line's HTTP version (`1.1`, `1.0`); empty from a kernel
    /// that does not say (it comes last, after the headers).
    pub version: Vec<u8>,
    /// The connection's local address (empty from a kernel that does not
    /// say; it comes after the version).
    pub local_address: Vec<u8>,
    /// The connection's local port (0 when unknown).
    pub local_port: u32,
}

impl NetHead {
    /// Decode a head; `None` when the bytes are malformed.
    pub fn decode(b: &[u8]) -> Option<NetHead> {
        let mut r = Reader { b, off: 0 };
        let mut h = NetHead {
            status: r.u32()?,
            redirects: r.u32()?,
            status_text: r.bytes()?,
            url: r.bytes()?,
            address: r.bytes()?,
            headers: Vec::new(),
            version: Vec::new(),
            local_address: Vec::new(),
            local_port: 0,
        };
        let n = r.u32()?;
        for _ in 0..n {
            let name = r.bytes()?;
            h.headers.push((name, r.bytes()?));
        }
        if r.off < r.b.len() {
            h.version = r.bytes()?;
        }
        if r.off < r.b.len() {
            h.local_address = r.bytes()?;
            h.local_port = r.u32()?;
        }
        Some(h)
    }
}

/// Why an exchange was denied or failed, as `net_response` hands it back.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NetErrorRecord {
    /// Index in the reason list (`crate::net::Reason`).
    pub code: u32,
    /// One line naming the rule, for the program to print.
    pub message: Vec<u8>,
    /// The policy entry or limit that decided (may be empty).
    pub rule: Vec<u8>,
}

impl NetErrorRecord {
    /// Decode an error record; `None` when the bytes are malformed.
    pub fn decode(b: &[u8]) -> Option<NetErrorRecord> {
        let mut r = Reader { b, off: 0 };
        Some(NetErrorRecord {
            code: r.u32()?,
            message: r.bytes()?,
            rule: r.bytes()?,
        })
    }
}

struct Reader<'a> {
    b: &'a [u8],
    off: usize,
}

impl Reader<'_> {
    fn u32(&mut self) -> Option<u32> {
        let w = self.b.get(self.off..self.off.checked_add(4)?)?;
        self.off += 4;
        Some(u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
    }
    fn bytes(&mut self) -> Option<Vec<u8>> {
        let len = self.u32()? as usize;
        let s = self.b.get(self.off..self.off.checked_add(len)?)?.to_vec();
        self.off += len;
        Some(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spawn_request_layout() {
        let req = SpawnRequest {
            path: b"/bin/x",
            argv: &["x", "-a"],
            env: &[b"A=1".to_vec()],
            cwd: b"",
            fds: &[(0, 5), (1, 1)],
            pgid: PGID_PARENT,
            flags: SPAWN_FOREGROUND,
        }
        .encode();
        let mut want = Vec::new();
        let s = |w: &mut Vec<u8>, b: &[u8]| {
            w.extend_from_slice(&(b.len() as u32).to_le_bytes());
            w.extend_from_slice(b);
        };
        s(&mut want, b"/bin/x");
        want.extend_from_slice(&2u32.to_le_bytes());
        s(&mut want, b"x");
        s(&mut want, b"-a");
        want.extend_from_slice(&1u32.to_le_bytes());
        s(&mut want, b"A=1");
        s(&mut want, b"");
        for v in [2u32, 0, 5, 1, 1] {
            want.extend_from_slice(&v.to_le_bytes());
        }
        want.extend_from_slice(&(-1i32).to_le_bytes());
        want.extend_from_slice(&1u32.to_le_bytes());
        assert_eq!(req, want);
    }

    #[test]
    fn session_request_round_trip_and_truncation() {
        let mut b = Vec::new();
        let mut w = Writer(Vec::new());
        w.bytes(b"echo hi");
        w.bytes(b"/tmp");
        w.list(&[b"X=1".as_ref()]);
        w.u32(0);
        b.extend_from_slice(&w.0);
        let r = SessionRequest::decode(&b).unwrap();
        assert_eq!(r.command, b"echo hi");
        assert_eq!(r.cwd, b"/tmp");
        assert_eq!(r.env, vec![b"X=1".to_vec()]);
        // Only command and cwd: still a request.
        let short = &b[..4 + 7 + 4 + 4];
        assert_eq!(SessionRequest::decode(short).unwrap().env.len(), 0);
        assert_eq!(SessionRequest::decode(&b[..6]), None);
    }

    #[test]
    fn net_request_layout() {
        let headers = vec![(b"Accept".to_vec(), b"*/*".to_vec())];
        let req = NetRequest {
            flags: NET_FOLLOW_REDIRECTS,
            max_redirects: 5,
            timeout_ms: 0,
            connect_timeout_ms: 1000,
            max_response_bytes: 1 << 33,
            method: b"GET",
            url: b"http://a/",
            headers: &headers,
            body: b"",
            connect_to: None,
        }
        .encode();
        let mut w = Writer(Vec::new());
        for v in [1u32, 1, 5, 0, 1000] {
            w.u32(v);
        }
        w.0.extend_from_slice(&(1u64 << 33).to_le_bytes());
        w.bytes(b"GET");
        w.bytes(b"http://a/");
        w.u32(1);
        w.bytes(b"Accept");
        w.bytes(b"*/*");
        w.bytes(b"");
        assert_eq!(req, w.0);
        // A connect-to place follows the body.
        let to = NetRequest {
            flags: NET_CONNECT_TO,
            max_redirects: 0,
            timeout_ms: 0,
            connect_timeout_ms: 0,
            max_response_bytes: 0,
            method: b"GET",
            url: b"http://a/",
            headers: &[],
            body: b"",
            connect_to: Some((b"127.0.0.1", 8080)),
        }
        .encode();
        let mut tail = Writer(Vec::new());
        tail.bytes(b"");
        tail.bytes(b"127.0.0.1");
        tail.u32(8080);
        assert!(to.ends_with(&tail.0));
    }

    #[test]
    fn net_head_and_error_decode() {
        let mut w = Writer(Vec::new());
        w.u32(200);
        w.u32(1);
        w.bytes(b"OK");
        w.bytes(b"http://b/");
        w.bytes(b"127.0.0.1");
        w.u32(1);
        w.bytes(b"Content-Type");
        w.bytes(b"text/plain");
        let h = NetHead::decode(&w.0).unwrap();
        assert_eq!(h.status, 200);
        assert_eq!(h.headers[0].1, b"text/plain");
        assert_eq!((h.version.len(), h.local_port), (0, 0));
        assert_eq!(NetHead::decode(&w.0[..10]), None);
        // The version, then the local end, appended by later kernels.
        w.bytes(b"1.0");
        w.bytes(b"127.0.0.1");
        w.u32(40123);
        let h = NetHead::decode(&w.0).unwrap();
        assert_eq!(h.version, b"1.0");
        assert_eq!(
            (h.local_address.as_slice(), h.local_port),
            (b"127.0.0.1".as_ref(), 40123)
        );
        let mut e = Writer(Vec::new());
        e.u32(1);
        e.bytes(b"network policy denied a:80: no");
        e.bytes(b"default");
        let r = NetErrorRecord::decode(&e.0).unwrap();
        assert_eq!((r.code, r.rule.as_slice()), (1, b"default".as_ref()));
    }
}
