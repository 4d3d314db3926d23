//! HTTP through the sandbox's network gateway (role `net`; docs/abi.md,
//! "Network"). A program describes a request ([`Request`]), sends it
//! ([`Request::send`] gives an [`Exchange`]), optionally streams the request
//! body, then reads the response head and body. The gateway checks the
//! policy, may ask a person, resolves, connects, speaks TLS and follows
//! redirects; a denial or failure comes back as a [`NetFailure`] whose
//! `message` names the rule, ready to print.
//!
//! ```no_run
//! use sandglass_sys::net::Request;
//! use std::io::Read;
//! let mut x = Request::get("http://example.com/").send().expect("send");
//! let head = x.response().expect("head");
//! let mut body = Vec::new();
//! x.read_to_end(&mut body).expect("body");
//! println!("{} {} bytes", head.status, body.len());
//! ```

use crate::format::{
    NetErrorRecord, NetHead, NetRequest, NET_CONNECT_TO, NET_DECODE_BROTLI, NET_FOLLOW_REDIRECTS,
    NET_NO_BODY, NET_STREAMED_BODY,
};
use crate::{check, handle, raw, Errno};

pub use crate::format::NetHead as Head;

/// `EINTR`: a caught signal interrupted a blocking call; the exchange is still open.
pub const EINTR: Errno = 27;

/// Why a request was denied or failed (the reason codes of docs/abi.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// A blockedHosts entry matched.
    Blocked,
    /// No allowedHosts entry matched and nobody approved it.
    NotAllowed,
    /// A loopback, private, metadata, ... address not named by an entry.
    SpecialAddress,
    /// A person (or onRequest) said no.
    DeniedByApprover,
    /// Not an http(s) URL the gateway fetches.
    BadUrl,
    /// A header that could smuggle another header or request.
    BadHeader,
    /// Not an HTTP method token, or CONNECT.
    BadMethod,
    /// The host name did not resolve.
    ResolveFailed,
    /// The connection was refused or unreachable.
    ConnectFailed,
    /// TLS handshake or certificate check failed.
    TlsFailed,
    /// A connect or total timeout passed.
    Timeout,
    /// A request, response or sandbox byte limit was passed.
    ByteLimit,
    /// More redirects than allowed.
    TooManyRedirects,
    /// A streamed body cannot be resent to a redirect.
    RedirectBody,
    /// Cancelled (the exchange was closed, the process killed, ...).
    Cancelled,
    /// The transfer broke off.
    TransferFailed,
    /// The connection closed before the body was complete (curl's 18).
    PartialBody,
    /// The connection closed before any byte of a response (curl's 52).
    EmptyReply,
    /// A response that breaks HTTP/1.1's framing or syntax.
    BadResponse,
    /// An answer that is not HTTP/1.x (curl refuses HTTP/0.9: its 1).
    NotHttp,
    /// A caught signal interrupted the call; no record, the exchange stays open.
    Interrupted,
    /// An errno without a record (a kernel older or newer than this crate).
    Other,
}

const REASONS: [Reason; 20] = [
    Reason::Blocked,
    Reason::NotAllowed,
    Reason::SpecialAddress,
    Reason::DeniedByApprover,
    Reason::BadUrl,
    Reason::BadHeader,
    Reason::BadMethod,
    Reason::ResolveFailed,
    Reason::ConnectFailed,
    Reason::TlsFailed,
    Reason::Timeout,
    Reason::ByteLimit,
    Reason::TooManyRedirects,
    Reason::RedirectBody,
    Reason::Cancelled,
    Reason::TransferFailed,
    Reason::PartialBody,
    Reason::EmptyReply,
    Reason::BadResponse,
    Reason::NotHttp,
];

impl Reason {
    /// The reason with code `code` (its index in the ABI's list).
    pub fn from_code(code: u32) -> Reason {
        REASONS.get(code as usize).copied().unwrap_or(Reason::Other)
    }

    /// True when the policy or a person refused (nothing was sent).
    pub fn is_denial(self) -> bool {
        matches!(
            self,
            Reason::Blocked
                | Reason::NotAllowed
                | Reason::SpecialAddress
                | Reason::DeniedByApprover
                | Reason::BadUrl
                | Reason::BadHeader
                | Reason::BadMethod
        )
    }

    /// The exit status curl uses for this reason.
    pub fn curl_exit(self) -> i32 {
        match self {
            Reason::Blocked
            | Reason::NotAllowed
            | Reason::SpecialAddress
            | Reason::DeniedByApprover
            | Reason::ConnectFailed => 7,
            Reason::BadUrl => 3,
            Reason::BadHeader | Reason::BadMethod => 43,
            Reason::ResolveFailed => 6,
            Reason::TlsFailed => 60,
            Reason::Timeout => 28,
            Reason::ByteLimit => 63,
            Reason::TooManyRedirects => 47,
            Reason::RedirectBody => 65,
            Reason::Cancelled | Reason::Interrupted => 42,
            Reason::PartialBody => 18,
            Reason::EmptyReply => 52,
            Reason::NotHttp => 1,
            Reason::TransferFailed | Reason::BadResponse | Reason::Other => 56,
        }
    }

    /// The exit status wget uses for this reason.
    pub fn wget_exit(self) -> i32 {
        match self {
            Reason::Blocked
            | Reason::NotAllowed
            | Reason::SpecialAddress
            | Reason::DeniedByApprover
            | Reason::ResolveFailed
            | Reason::ConnectFailed
            | Reason::Timeout
            | Reason::TransferFailed
            | Reason::PartialBody
            | Reason::EmptyReply
            | Reason::BadResponse
            | Reason::NotHttp
            | Reason::Other => 4,
            Reason::TlsFailed => 5,
            Reason::ByteLimit => 3,
            Reason::BadUrl
            | Reason::BadHeader
            | Reason::BadMethod
            | Reason::TooManyRedirects
            | Reason::RedirectBody
            | Reason::Cancelled
            | Reason::Interrupted => 1,
        }
    }
}

/// A denial or failure: the errno, the reason and the one-line message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetFailure {
    /// The errno the call returned.
    pub errno: Errno,
    /// Why, machine-readable.
    pub reason: Reason,
    /// One line naming the rule (`network policy denied HOST:PORT: ...`).
    pub message: String,
    /// The policy entry or limit that decided; empty if none.
    pub rule: String,
}

/// Why `Exchange::splice_body` failed.
#[derive(Debug)]
pub enum SpliceError {
    /// The response body failed (or a caught signal: `Reason::Interrupted`).
    Net(NetFailure),
    /// Writing to the descriptor failed with this errno.
    Write(Errno),
}

impl NetFailure {
    fn bare(errno: Errno) -> NetFailure {
        let reason = if errno == EINTR {
            Reason::Interrupted
        } else {
            Reason::Other
        };
        let message = if errno == EINTR {
            "interrupted".to_string()
        } else {
            format!("network call failed (errno {})", errno)
        };
        NetFailure {
            errno,
            reason,
            message,
            rule: String::new(),
        }
    }

    fn from_record(errno: Errno, bytes: &[u8]) -> NetFailure {
        match NetErrorRecord::decode(bytes) {
            Some(r) => NetFailure {
                errno,
                reason: Reason::from_code(r.code),
                message: String::from_utf8_lossy(&r.message).into_owned(),
                rule: String::from_utf8_lossy(&r.rule).into_owned(),
            },
            None => NetFailure::bare(errno),
        }
    }
}

impl std::fmt::Display for NetFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for NetFailure {}

/// The request body of a [`Request`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Body {
    /// No body.
    Empty,
    /// The whole body, sent with the request (resent on a 307/308 redirect).
    Inline(Vec<u8>),
    /// Written afterwards with [`Exchange::write_body`], ended by
    /// [`Exchange::finish_body`] (not resent to a redirect).
    Streamed,
}

/// One HTTP request to make through the gateway.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// Any HTTP token but CONNECT.
    pub method: Vec<u8>,
    /// An http or https URL.
    pub url: Vec<u8>,
    /// In order, as given; the gateway owns framing headers (`Connection`, ...).
    pub headers: Vec<(Vec<u8>, Vec<u8>)>,
    /// The body.
    pub body: Body,
    /// Follow redirects (each hop is checked, and may be approved, again).
    pub follow_redirects: bool,
    /// 0 = the gateway's default (20).
    pub max_redirects: u32,
    /// Total time in ms, 0 = the gateway's default; may only tighten it.
    pub timeout_ms: u32,
    /// Time to connect in ms, 0 = the gateway's default.
    pub connect_timeout_ms: u32,
    /// Largest response body, 0 = the gateway's default.
    pub max_response_bytes: u64,
    /// No response body expected (HEAD).
    pub no_body: bool,
    /// Have the gateway decode a `Content-Encoding: br` body.
    pub decode_brotli: bool,
    /// Connect to this host or address and port instead of where the URL's
    /// host resolves (curl --resolve / --connect-to; the policy checks both).
    pub connect_to: Option<(Vec<u8>, u32)>,
}

impl Request {
    /// A request with `method` to `url`, no headers, no body.
    pub fn new(method: &str, url: &str) -> Request {
        Request {
            method: method.as_bytes().to_vec(),
            url: url.as_bytes().to_vec(),
            headers: Vec::new(),
            body: Body::Empty,
            follow_redirects: false,
            max_redirects: 0,
            timeout_ms: 0,
            connect_timeout_ms: 0,
            max_response_bytes: 0,
            no_body: method.eq_ignore_ascii_case("HEAD"),
            decode_brotli: false,
            connect_to: None,
        }
    }

    /// A GET of `url`.
    pub fn get(url: &str) -> Request {
        Request::new("GET", url)
    }

    /// Add a header (kept in order).
    pub fn header(mut self, name: &[u8], value: &[u8]) -> Request {
        self.headers.push((name.to_vec(), value.to_vec()));
        self
    }

    /// Set the body.
    pub fn body(mut self, body: Body) -> Request {
        self.body = body;
        self
    }

    /// The request's wire bytes (what `net_request` takes).
    pub fn encode(&self) -> Vec<u8> {
        let mut flags = 0;
        if self.follow_redirects {
            flags |= NET_FOLLOW_REDIRECTS;
        }
        if self.body == Body::Streamed {
            flags |= NET_STREAMED_BODY;
        }
        if self.no_body {
            flags |= NET_NO_BODY;
        }
        if self.decode_brotli {
            flags |= NET_DECODE_BROTLI;
        }
        if self.connect_to.is_some() {
            flags |= NET_CONNECT_TO;
        }
        let inline: &[u8] = match &self.body {
            Body::Inline(b) => b,
            _ => &[],
        };
        NetRequest {
            flags,
            max_redirects: self.max_redirects,
            timeout_ms: self.timeout_ms,
            connect_timeout_ms: self.connect_timeout_ms,
            max_response_bytes: self.max_response_bytes,
            method: &self.method,
            url: &self.url,
            headers: &self.headers,
            body: inline,
            connect_to: self.connect_to.as_ref().map(|(h, p)| (h.as_slice(), *p)),
        }
        .encode()
    }

    /// Start the exchange. Returns at once: the policy's answer (and a
    /// person's) is awaited by the first call that needs it. `Err` only
    /// for a malformed request (`EINVAL`) or too many open exchanges.
    pub fn send(&self) -> Result<Exchange, Errno> {
        let bytes = self.encode();
        let mut x = 0u32;
        // SAFETY: the pointer is valid for the length; x_out is one u32.
        check(unsafe { raw::net_request(bytes.as_ptr(), bytes.len() as u32, &mut x) })?;
        Ok(Exchange { id: x, open: true })
    }
}

/// One open exchange: a request, its redirects and its response. Closed on
/// drop (an unread body is dropped, the connection closed).
#[derive(Debug)]
pub struct Exchange {
    id: u32,
    open: bool,
}

impl Exchange {
    /// Send request body bytes (with [`Body::Streamed`]); returns how many
    /// were taken. Blocks while the gateway's buffer is full or a person
    /// has not answered yet. A denial comes back here too: the details are
    /// in [`Exchange::response`]'s error.
    pub fn write_body(&mut self, buf: &[u8]) -> Result<usize, Errno> {
        if buf.is_empty() {
            return Ok(0);
        }
        let mut n = 0u32;
        // SAFETY: the pointer is valid for the length; n_out is one u32.
        check(unsafe { raw::net_body_write(self.id, buf.as_ptr(), buf.len() as u32, &mut n) })?;
        Ok(n as usize)
    }

    /// Send all of `buf` (retrying after `EINTR`).
    pub fn write_all_body(&mut self, mut buf: &[u8]) -> Result<(), Errno> {
        while !buf.is_empty() {
            match self.write_body(buf) {
                Ok(n) => buf = &buf[n..],
                Err(EINTR) => continue,
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// End a streamed request body.
    pub fn finish_body(&mut self) -> Result<(), Errno> {
        let mut n = 0u32;
        // SAFETY: a zero-length write ends the body; n_out is one u32.
        check(unsafe { raw::net_body_write(self.id, [].as_ptr(), 0, &mut n) })
    }

    /// Wait for the response head (after redirects). On a denial or
    /// failure, the failure with its message. `Reason::Interrupted` means a
    /// caught signal arrived; the call may be repeated.
    pub fn response(&mut self) -> Result<Head, NetFailure> {
        let (mut h, mut len) = (0u32, 0u32);
        // SAFETY: both outputs are one u32.
        let e = unsafe { raw::net_response(self.id, &mut h, &mut len) };
        if e != 0 && len == 0 {
            return Err(NetFailure::bare(e));
        }
        let bytes = handle::read(h, len).map_err(NetFailure::bare)?;
        if e != 0 {
            return Err(NetFailure::from_record(e, &bytes));
        }
        NetHead::decode(&bytes).ok_or_else(|| NetFailure::bare(crate::EIO))
    }

    /// Read response body bytes; 0 at the end. Blocks while nothing is
    /// buffered. A failure mid-body (a byte limit, a timeout, a broken
    /// connection) comes with its message.
    pub fn read_body(&mut self, buf: &mut [u8]) -> Result<usize, NetFailure> {
        let mut n = 0u32;
        // SAFETY: the pointer is valid for the length; n_out is one u32.
        let e = unsafe { raw::net_body_read(self.id, buf.as_mut_ptr(), buf.len() as u32, &mut n) };
        if e == 0 {
            return Ok(n as usize);
        }
        if e == EINTR {
            return Err(NetFailure::bare(e));
        }
        // The exchange keeps its failure: net_response hands back the record.
        match self.response() {
            Err(f) => Err(f),
            Ok(_) => Err(NetFailure::bare(e)),
        }
    }

    /// Move up to `max` response body bytes straight to descriptor `fd`:
    /// the kernel writes them there, so they never pass through this
    /// program's memory. The count, 0 at the end. Blocks like `read_body`
    /// while nothing is buffered, and like a write while `fd` is full.
    pub fn splice_body(&mut self, fd: u32, max: u32) -> Result<usize, SpliceError> {
        let mut n = 0u32;
        // SAFETY: integer arguments; n_out is one u32.
        let e = unsafe { raw::net_body_splice(self.id, fd, max, &mut n) };
        if e == 0 {
            return Ok(n as usize);
        }
        if e == EINTR {
            return Err(SpliceError::Net(NetFailure::bare(e)));
        }
        // A body failure leaves its record with the exchange; without one
        // the write to `fd` failed (EPIPE, ENOSPC, EBADF, ...).
        match self.response() {
            Err(f) => Err(SpliceError::Net(f)),
            Ok(_) => Err(SpliceError::Write(e)),
        }
    }

    /// End the exchange now (also done on drop).
    pub fn close(mut self) -> Result<(), Errno> {
        self.open = false;
        // SAFETY: integer argument only.
        check(unsafe { raw::net_close(self.id) })
    }
}

impl std::io::Read for Exchange {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            match self.read_body(buf) {
                Ok(n) => return Ok(n),
                Err(f) if f.reason == Reason::Interrupted => continue,
                Err(f) => return Err(std::io::Error::new(std::io::ErrorKind::Other, f)),
            }
        }
    }
}

impl Drop for Exchange {
    fn drop(&mut self) {
        if self.open {
            // SAFETY: integer argument only.
            unsafe { raw::net_close(self.id) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_follow_the_abi_codes() {
        assert_eq!(Reason::from_code(0), Reason::Blocked);
        assert_eq!(Reason::from_code(3), Reason::DeniedByApprover);
        assert_eq!(Reason::from_code(15), Reason::TransferFailed);
        assert_eq!(Reason::from_code(16), Reason::PartialBody);
        assert_eq!(Reason::from_code(17), Reason::EmptyReply);
        assert_eq!(Reason::from_code(19), Reason::NotHttp);
        assert_eq!(Reason::PartialBody.curl_exit(), 18);
        assert_eq!(Reason::EmptyReply.curl_exit(), 52);
        assert_eq!(Reason::from_code(99), Reason::Other);
        assert!(Reason::NotAllowed.is_denial());
        assert!(!Reason::Timeout.is_denial());
        assert_eq!(Reason::NotAllowed.curl_exit(), 7);
        assert_eq!(Reason::TooManyRedirects.curl_exit(), 47);
        assert_eq!(Reason::NotAllowed.wget_exit(), 4);
    }

    #[test]
    fn request_flags() {
        let r = Request::new("HEAD", "http://a/").body(Body::Streamed);
        let b = r.encode();
        assert_eq!(&b[4..8], &(NET_STREAMED_BODY | NET_NO_BODY).to_le_bytes());
        let mut r = Request::get("http://a/");
        r.decode_brotli = true;
        assert_eq!(&r.encode()[4..8], &NET_DECODE_BROTLI.to_le_bytes());
    }

    #[test]
    fn off_wasm_every_call_is_enosys() {
        assert_eq!(Request::get("http://a/").send().unwrap_err(), crate::ENOSYS);
    }
}
