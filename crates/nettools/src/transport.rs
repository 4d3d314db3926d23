//! What curl and wget need from the network: one HTTP exchange at a time,
//! as the gateway offers it (docs/network.md, "the sandglass net
//! syscalls"). Programs never open connections; the `sys` transport calls
//! the net syscalls and tests use a scripted fake.

use std::fmt;

/// How much body one read asks for: the syscall channel's data area, so a
/// large download costs one round trip per MiB.
pub const BODY_CHUNK: usize = 1024 * 1024;
/// Most body bytes one splice may move (the kernel moves what it holds, up
/// to this, and returns: the progress meter still ticks).
pub const SPLICE_MAX: usize = 16 * 1024 * 1024;

/// Why an exchange failed: the gateway's reasons, as the ABI crate names them.
pub use sandglass_sys::net::Reason;

/// A denial or failure: the reason, the gateway's one-line message and the
/// rule that decided (empty when none did).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetError {
    pub reason: Reason,
    pub message: String,
    pub rule: String,
}

impl NetError {
    pub fn new(reason: Reason, message: impl Into<String>) -> NetError {
        NetError {
            reason,
            message: message.into(),
            rule: String::new(),
        }
    }
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// One request, one hop: redirects are followed by the programs themselves
/// so that they can show, count and re-cookie every hop.
#[derive(Clone, Debug, Default)]
pub struct Request {
    pub method: String,
    pub url: String,
    /// In order and spelling; the gateway adds Host, Connection and framing.
    pub headers: Vec<(String, String)>,
    /// Sent inline with the request.
    pub body: Vec<u8>,
    /// Stream `body` after the request instead (the gateway frames it
    /// chunked, as curl does for `-T -`).
    pub chunked: bool,
    /// HEAD: no body is expected in the response.
    pub head_only: bool,
    /// The gateway decodes a `br` body (the programs have no brotli
    /// decoder); the head still says `Content-Encoding: br`.
    pub decode_brotli: bool,
    /// 0 = the gateway's default (a request can only tighten it).
    pub timeout_ms: u32,
    pub connect_timeout_ms: u32,
    pub max_response_bytes: u64,
    /// Connect here (host or address, port) instead of where the URL's
    /// host resolves: curl --resolve / --connect-to. The gateway checks it.
    pub connect_to: Option<(String, u16)>,
}

/// The response head as received.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Head {
    pub status: u16,
    pub status_text: String,
    /// The URL that answered.
    pub url: String,
    /// The checked address the connection used (may be empty).
    pub address: String,
    pub headers: Vec<(String, String)>,
    /// The status line's version, `1.1` or `1.0`.
    pub version: String,
    /// The connection's local end (empty and 0 when the kernel does not say).
    pub local_address: String,
    pub local_port: u32,
}

impl Head {
    /// The first header of that name (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Every header of that name, in order.
    pub fn headers_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.headers
            .iter()
            .filter(move |(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The file name a `Content-Disposition` header gives (curl -J, wget
    /// --content-disposition): its last path segment, never `.` or `..`.
    pub fn disposition_name(&self) -> Option<String> {
        for part in self.header("content-disposition")?.split(';') {
            if let Some(rest) = part.trim().strip_prefix("filename=") {
                let name = rest.trim().trim_matches('"');
                let base = name.rsplit(|c| c == '/' || c == '\\').next().unwrap_or("");
                if !base.is_empty() && base != "." && base != ".." {
                    return Some(base.to_string());
                }
            }
        }
        None
    }

    /// The head as HTTP text, the way curl -i and wget -S show it.
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "HTTP/{} {} {}\r\n",
            self.version, self.status, self.status_text
        );
        for (n, v) in &self.headers {
            s.push_str(n);
            s.push_str(": ");
            s.push_str(v);
            s.push_str("\r\n");
        }
        s.push_str("\r\n");
        s
    }
}

/// One exchange in progress; dropping it ends it (an unread body is dropped).
pub trait Exchange {
    /// Block until the response head arrives, or the denial or failure.
    fn response(&mut self) -> Result<Head, NetError>;
    /// Read response body bytes; 0 at the end.
    fn read_body(&mut self, buf: &mut [u8]) -> Result<usize, NetError>;
    /// Move up to `max` body bytes straight to descriptor `fd` (they never
    /// enter this program): `Some(count)`, 0 at the end; `None` when this
    /// transport cannot, and the caller reads and writes instead.
    fn splice_body(&mut self, _fd: u32, _max: usize) -> Option<Result<usize, SpliceError>> {
        None
    }
}

/// Why a splice failed: the body, or writing it out (an errno).
#[derive(Debug)]
pub enum SpliceError {
    Net(NetError),
    Write(i32),
}

/// Starts exchanges.
pub trait Transport {
    fn start(&mut self, req: &Request) -> Result<Box<dyn Exchange>, NetError>;
}
