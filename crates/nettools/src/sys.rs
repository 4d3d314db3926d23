//! The real transport: the `sandglass` net syscalls through
//! `sandglass_sys::net`. One exchange per hop (redirects are followed by
//! curl and wget themselves, so they can show and count each hop).

use crate::transport::{Exchange, Head, NetError, Reason, Request, SpliceError, Transport};
use sandglass_sys::net;

pub struct SysTransport;

struct SysExchange {
    x: net::Exchange,
    /// A head arrived and the body has not been read to its end.
    body_pending: bool,
}

/// Body bytes read and dropped when an exchange is abandoned mid-body.
const DRAIN_LIMIT: usize = 1024 * 1024;

impl Drop for SysExchange {
    /// A redirect's or an error's body is small: read it to the end, as
    /// curl and wget do to keep a connection, so the gateway ends the
    /// exchange gracefully; a larger rest is dropped with the exchange.
    fn drop(&mut self) {
        let mut left = DRAIN_LIMIT;
        let mut buf = [0u8; 16 * 1024];
        while self.body_pending && left > 0 {
            match self.x.read_body(&mut buf) {
                Ok(n) if n > 0 => left = left.saturating_sub(n),
                _ => break,
            }
        }
    }
}

fn failure(f: net::NetFailure) -> NetError {
    NetError {
        reason: f.reason,
        message: f.message,
        rule: f.rule,
    }
}

fn text(b: Vec<u8>) -> String {
    // Header bytes are Latin-1 on the wire; keep every byte.
    match String::from_utf8(b) {
        Ok(s) => s,
        Err(e) => e.into_bytes().iter().map(|&c| c as char).collect(),
    }
}

impl Transport for SysTransport {
    fn start(&mut self, req: &Request) -> Result<Box<dyn Exchange>, NetError> {
        let mut r = net::Request::new(&req.method, &req.url);
        r.headers = req
            .headers
            .iter()
            .map(|(n, v)| (n.as_bytes().to_vec(), latin1(v)))
            .collect();
        r.body = if req.chunked {
            net::Body::Streamed
        } else if req.body.is_empty() {
            net::Body::Empty
        } else {
            net::Body::Inline(req.body.clone())
        };
        r.no_body = req.head_only;
        r.decode_brotli = req.decode_brotli;
        r.timeout_ms = req.timeout_ms;
        r.connect_timeout_ms = req.connect_timeout_ms;
        r.max_response_bytes = req.max_response_bytes;
        r.connect_to = req
            .connect_to
            .as_ref()
            .map(|(h, p)| (h.as_bytes().to_vec(), u32::from(*p)));
        match r.send() {
            Ok(mut x) => {
                if req.chunked {
                    // A denial or failure here shows at the response.
                    if x.write_all_body(&req.body).is_ok() {
                        let _ = x.finish_body();
                    }
                }
                Ok(Box::new(SysExchange {
                    x,
                    body_pending: false,
                }))
            }
            Err(errno) => Err(NetError::new(
                Reason::BadUrl,
                format!("the request could not be made (errno {})", errno),
            )),
        }
    }
}

/// Header values go out as the bytes the user typed; chars above U+00FF
/// are sent as their UTF-8 bytes.
fn latin1(s: &str) -> Vec<u8> {
    if s.chars().all(|c| (c as u32) < 256) {
        s.chars().map(|c| c as u8).collect()
    } else {
        s.as_bytes().to_vec()
    }
}

impl Exchange for SysExchange {
    fn response(&mut self) -> Result<Head, NetError> {
        loop {
            match self.x.response() {
                Ok(h) => {
                    // Even an empty body (HEAD, 204) is read to its end: that is
                    // what tells the gateway the exchange ended gracefully.
                    self.body_pending = true;
                    return Ok(Head {
                        status: h.status as u16,
                        status_text: text(h.status_text),
                        url: text(h.url),
                        address: text(h.address),
                        version: if h.version.is_empty() {
                            "1.1".to_string()
                        } else {
                            text(h.version)
                        },
                        headers: h
                            .headers
                            .into_iter()
                            .map(|(n, v)| (text(n), text(v)))
                            .collect(),
                        local_address: text(h.local_address),
                        local_port: h.local_port,
                    });
                }
                // A caught signal: the exchange is still open; ask again.
                Err(f) if f.reason == net::Reason::Interrupted => continue,
                Err(f) => return Err(failure(f)),
            }
        }
    }

    fn splice_body(&mut self, fd: u32, max: usize) -> Option<Result<usize, SpliceError>> {
        let max = max.min(u32::MAX as usize) as u32;
        loop {
            match self.x.splice_body(fd, max) {
                Ok(n) => {
                    if n == 0 {
                        self.body_pending = false;
                    }
                    return Some(Ok(n));
                }
                Err(net::SpliceError::Net(f)) if f.reason == net::Reason::Interrupted => continue,
                Err(net::SpliceError::Net(f)) => {
                    self.body_pending = false;
                    return Some(Err(SpliceError::Net(failure(f))));
                }
                // The body is still there: dropping the exchange drains or drops it.
                Err(net::SpliceError::Write(e)) => return Some(Err(SpliceError::Write(e))),
            }
        }
    }

    fn read_body(&mut self, buf: &mut [u8]) -> Result<usize, NetError> {
        loop {
            match self.x.read_body(buf) {
                Ok(n) => {
                    if n == 0 {
                        self.body_pending = false;
                    }
                    return Ok(n);
                }
                Err(f) if f.reason == net::Reason::Interrupted => continue,
                Err(f) => {
                    self.body_pending = false;
                    return Err(failure(f));
                }
            }
        }
    }
}
