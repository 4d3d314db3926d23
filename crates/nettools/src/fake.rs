//! A scripted transport for tests: each request is answered by a closure
//! from a route table, and every request is recorded.

use crate::transport::{Exchange, Head, NetError, Request, Transport};

/// What a route answers: a head and a body, or an error.
pub type Answer = Result<(Head, Vec<u8>), NetError>;

/// A route's answering function.
pub type Handler = Box<dyn Fn(&Request) -> Answer>;

#[derive(Default)]
pub struct FakeTransport {
    routes: Vec<(String, Handler)>,
    /// Every request started, in order.
    pub requests: Vec<Request>,
}

/// A response head with a status and headers.
pub fn head(status: u16, text: &str, headers: &[(&str, &str)]) -> Head {
    Head {
        status,
        status_text: text.to_string(),
        url: String::new(),
        address: "127.0.0.1".to_string(),
        version: "1.1".to_string(),
        local_address: "127.0.0.1".to_string(),
        local_port: 40000,
        headers: headers
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect(),
    }
}

impl FakeTransport {
    /// Answer requests whose URL's path (and query) starts with `prefix`;
    /// the first route that matches wins.
    pub fn route(mut self, prefix: &str, f: impl Fn(&Request) -> Answer + 'static) -> Self {
        self.routes.push((prefix.to_string(), Box::new(f)));
        self
    }
}

struct FakeExchange {
    answer: Option<Answer>,
    url: String,
    body: Vec<u8>,
    pos: usize,
}

impl Exchange for FakeExchange {
    fn response(&mut self) -> Result<Head, NetError> {
        match self.answer.take() {
            Some(Ok((mut h, body))) => {
                h.url = self.url.clone();
                self.body = body;
                Ok(h)
            }
            Some(Err(e)) => Err(e),
            None => Err(NetError::new(
                crate::transport::Reason::TransferFailed,
                "response asked twice",
            )),
        }
    }

    fn read_body(&mut self, buf: &mut [u8]) -> Result<usize, NetError> {
        // Small pieces, so readers are exercised across chunk boundaries.
        let n = (self.body.len() - self.pos).min(buf.len()).min(4096);
        buf[..n].copy_from_slice(&self.body[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

impl Transport for FakeTransport {
    fn start(&mut self, req: &Request) -> Result<Box<dyn Exchange>, NetError> {
        self.requests.push(req.clone());
        let target = match crate::url::Url::parse(&req.url, false) {
            Ok(u) => u.request_target(),
            Err(_) => req.url.clone(),
        };
        let answer = self
            .routes
            .iter()
            .find(|(p, _)| target.starts_with(p.as_str()))
            .map(|(_, f)| f(req))
            .unwrap_or_else(|| {
                Ok((
                    head(404, "Not Found", &[("Content-Length", "0")]),
                    Vec::new(),
                ))
            });
        Ok(Box::new(FakeExchange {
            answer: Some(answer),
            url: req.url.clone(),
            body: Vec::new(),
            pos: 0,
        }))
    }
}
