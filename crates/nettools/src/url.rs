//! The little URL handling curl and wget do themselves: split a URL into
//! its parts, add a missing scheme, resolve a redirect's Location, and
//! name the host and port for messages. Normalisation that decides where a
//! request goes (IDNA, IPv4 shorthands) is the gateway's.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Url {
    /// Lower case: `http` or `https` (others are kept to be refused later).
    pub scheme: String,
    /// `user[:password]`, percent-decoded, when the URL carried one.
    pub userinfo: Option<String>,
    /// As written (brackets kept for IPv6), lower case.
    pub host: String,
    pub port: Option<u16>,
    /// Starts with `/`.
    pub path: String,
    /// Without the `?`.
    pub query: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UrlError {
    /// No host, a bad port or a character a URL cannot hold.
    Malformed,
    /// A scheme other than http and https.
    Unsupported(String),
}

impl Url {
    /// Parse an absolute URL; with `guess_scheme` a URL without one is
    /// taken as http (as curl and wget do).
    pub fn parse(text: &str, guess_scheme: bool) -> Result<Url, UrlError> {
        let text = text.trim_matches(|c| c == ' ' || c == '\t');
        if text.is_empty() || text.bytes().any(|b| b <= b' ' || b == 0x7f) {
            return Err(UrlError::Malformed);
        }
        let (scheme, rest) = match text.find("://") {
            Some(i)
                if i > 0
                    && text[..i]
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b)) =>
            {
                (text[..i].to_ascii_lowercase(), &text[i + 3..])
            }
            _ if guess_scheme => ("http".to_string(), text),
            _ => return Err(UrlError::Malformed),
        };
        let rest = match rest.find('#') {
            Some(i) => &rest[..i],
            None => rest,
        };
        let end = rest.find(|c| c == '/' || c == '?').unwrap_or(rest.len());
        let (authority, tail) = rest.split_at(end);
        let (userinfo, hostport) = match authority.rfind('@') {
            Some(i) => (Some(percent_decode(&authority[..i])), &authority[i + 1..]),
            None => (None, authority),
        };
        let (host, port) = split_host_port(hostport)?;
        if host.is_empty() {
            return Err(UrlError::Malformed);
        }
        if scheme != "http" && scheme != "https" {
            return Err(UrlError::Unsupported(scheme));
        }
        let (path, query) = match tail.find('?') {
            Some(i) => (&tail[..i], Some(tail[i + 1..].to_string())),
            None => (tail, None),
        };
        let path = if path.is_empty() {
            "/".to_string()
        } else {
            path.to_string()
        };
        Ok(Url {
            scheme,
            userinfo,
            host: host.to_ascii_lowercase(),
            port,
            path,
            query,
        })
    }

    pub fn default_port(&self) -> u16 {
        match self.scheme.as_str() {
            "https" => 443,
            "ftp" => 21,
            "ftps" => 990,
            _ => 80,
        }
    }

    /// An ftp:// or ftps:// URL, split as an http one is, for the messages
    /// that say it cannot be fetched (the gateway speaks only HTTP and
    /// HTTPS) where the real tools would connect. None for other text.
    pub fn parse_ftp(text: &str) -> Option<Result<Url, UrlError>> {
        let (scheme, rest) = text.trim().split_once("://")?;
        let scheme = scheme.to_ascii_lowercase();
        if scheme != "ftp" && scheme != "ftps" {
            return None;
        }
        Some(Url::parse(&format!("http://{}", rest), false).map(|mut u| {
            u.scheme = scheme;
            u
        }))
    }

    pub fn port_or_default(&self) -> u16 {
        self.port.unwrap_or_else(|| self.default_port())
    }

    /// The host without IPv6 brackets, as curl names it in messages.
    pub fn host_bare(&self) -> &str {
        self.host.trim_start_matches('[').trim_end_matches(']')
    }

    /// `host[:port]`, the port only when it is not the scheme's default
    /// (the Host header's form).
    pub fn host_header(&self) -> String {
        match self.port {
            Some(p) if p != self.default_port() => format!("{}:{}", self.host, p),
            _ => self.host.clone(),
        }
    }

    /// Path and query: what a request line names.
    pub fn request_target(&self) -> String {
        match &self.query {
            Some(q) => format!("{}?{}", self.path, q),
            None => self.path.clone(),
        }
    }

    /// The last path segment (curl -O's and wget's file name), decoded
    /// when `decode`.
    pub fn file_name(&self) -> String {
        let seg = self.path.rsplit('/').next().unwrap_or("");
        seg.to_string()
    }

    /// Resolve `reference` (a Location header) against this URL (RFC 3986 §5.2).
    pub fn join(&self, reference: &str) -> Result<Url, UrlError> {
        let r = reference.trim();
        let has_scheme = r
            .find(':')
            .map(|i| {
                i > 0
                    && r.as_bytes()[0].is_ascii_alphabetic()
                    && r[..i]
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
            })
            .unwrap_or(false);
        if has_scheme {
            return Url::parse(r, false);
        }
        if let Some(rest) = r.strip_prefix("//") {
            return Url::parse(&format!("{}://{}", self.scheme, rest), false);
        }
        let r = match r.find('#') {
            Some(i) => &r[..i],
            None => r,
        };
        let mut out = self.clone();
        out.userinfo = None;
        if r.is_empty() {
            return Ok(out);
        }
        let (rpath, rquery) = match r.find('?') {
            Some(i) => (&r[..i], Some(r[i + 1..].to_string())),
            None => (r, None),
        };
        if rpath.is_empty() {
            out.query = rquery;
            return Ok(out);
        }
        let merged = if rpath.starts_with('/') {
            rpath.to_string()
        } else {
            let base = match self.path.rfind('/') {
                Some(i) => &self.path[..=i],
                None => "/",
            };
            format!("{}{}", base, rpath)
        };
        out.path = remove_dot_segments(&merged);
        out.query = rquery;
        Ok(out)
    }
}

impl fmt::Display for Url {
    /// The URL as curl reports it (`url_effective`): scheme, host, the port
    /// when given, path and query; no credentials, no fragment.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}://{}", self.scheme, self.host)?;
        if let Some(p) = self.port {
            write!(f, ":{}", p)?;
        }
        f.write_str(&self.request_target())
    }
}

fn split_host_port(hostport: &str) -> Result<(&str, Option<u16>), UrlError> {
    let (host, port) = if hostport.starts_with('[') {
        let close = hostport.find(']').ok_or(UrlError::Malformed)?;
        let after = &hostport[close + 1..];
        match after.strip_prefix(':') {
            Some(p) => (&hostport[..=close], Some(p)),
            None if after.is_empty() => (&hostport[..=close], None),
            None => return Err(UrlError::Malformed),
        }
    } else {
        match hostport.rfind(':') {
            Some(i) => (&hostport[..i], Some(&hostport[i + 1..])),
            None => (hostport, None),
        }
    };
    let port = match port {
        None | Some("") => None,
        Some(p) => match p.parse::<u16>() {
            Ok(n) if p.bytes().all(|b| b.is_ascii_digit()) => Some(n),
            _ => return Err(UrlError::Malformed),
        },
    };
    Ok((host, port))
}

fn remove_dot_segments(path: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    let segs: Vec<&str> = path.split('/').collect();
    let last = segs.len().saturating_sub(1);
    for (i, seg) in segs.iter().enumerate().skip(1) {
        match *seg {
            "." => {
                if i == last {
                    out.push("");
                }
            }
            ".." => {
                out.pop();
                if i == last {
                    out.push("");
                }
            }
            s => out.push(s),
        }
    }
    format!("/{}", out.join("/"))
}

/// Decode `%XX` escapes (invalid ones are kept as written).
pub fn percent_decode(s: &str) -> String {
    String::from_utf8_lossy(&percent_decode_bytes(s.as_bytes())).into_owned()
}

pub fn percent_decode_bytes(s: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        if s[i] == b'%' && i + 2 < s.len() {
            let hex = |b: u8| (b as char).to_digit(16);
            if let (Some(h), Some(l)) = (hex(s[i + 1]), hex(s[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(s[i]);
        i += 1;
    }
    out
}

/// wget's escaping of what a URL cannot carry as typed, in everything
/// after the host: spaces, `"<>\\^`{|}`, control and non-ASCII bytes,
/// and a `%` that starts no `%XX`; the rest (`[]`, sub-delimiters) stays.
pub fn escape_unsafe(text: &str) -> String {
    let start = text.find("://").map_or(0, |i| i + 3);
    let tail_at = text[start..]
        .find(|c| c == '/' || c == '?')
        .map_or(text.len(), |i| start + i);
    let (head, tail) = text.split_at(tail_at);
    let b = tail.as_bytes();
    let hex = |i: usize| b.get(i).map_or(false, |c| c.is_ascii_hexdigit());
    let mut out = head.to_string();
    for (i, &c) in b.iter().enumerate() {
        let unsafe_byte = c <= b' '
            || c >= 0x7f
            || b"\"<>\\^`{|}".contains(&c)
            || (c == b'%' && !(hex(i + 1) && hex(i + 2)));
        if unsafe_byte {
            const HEX: &[u8; 16] = b"0123456789ABCDEF";
            out.push('%');
            out.push(HEX[(c >> 4) as usize] as char);
            out.push(HEX[(c & 15) as usize] as char);
        } else {
            out.push(c as char);
        }
    }
    out
}

/// Form-encode as curl's --data-urlencode does: RFC 3986's unreserved
/// characters stay, a space becomes `+`, everything else `%XX`.
pub fn percent_encode(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len());
    for &b in data {
        if b == b' ' {
            out.push('+');
        } else if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            const HEX: &[u8; 16] = b"0123456789ABCDEF";
            out.push('%');
            out.push(HEX[(b >> 4) as usize] as char);
            out.push(HEX[(b & 15) as usize] as char);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints() {
        let u = Url::parse("http://127.0.0.1:8080", false).unwrap();
        assert_eq!(u.to_string(), "http://127.0.0.1:8080/");
        let u = Url::parse("example.com/a?b=1#frag", true).unwrap();
        assert_eq!(u.to_string(), "http://example.com/a?b=1");
        assert_eq!(u.host_header(), "example.com");
        let u = Url::parse("https://u:p%40@[::1]:8443/x", false).unwrap();
        assert_eq!(u.userinfo.as_deref(), Some("u:p@"));
        assert_eq!(u.host_bare(), "::1");
        assert_eq!(u.port_or_default(), 8443);
        assert_eq!(
            Url::parse("ftp://x/", false),
            Err(UrlError::Unsupported("ftp".into()))
        );
        assert_eq!(
            Url::parse("http://x:99999/", false),
            Err(UrlError::Malformed)
        );
        assert_eq!(Url::parse("http:///", false), Err(UrlError::Malformed));
    }

    #[test]
    fn joins_references() {
        let b = Url::parse("http://h:1/a/b/c?q", false).unwrap();
        let j = |r: &str| b.join(r).unwrap().to_string();
        assert_eq!(j("d"), "http://h:1/a/b/d");
        assert_eq!(j("../d"), "http://h:1/a/d");
        assert_eq!(j("/x?y"), "http://h:1/x?y");
        assert_eq!(j("?z"), "http://h:1/a/b/c?z");
        assert_eq!(j("//o:2/p"), "http://o:2/p");
        assert_eq!(j("https://s/"), "https://s/");
        assert_eq!(j("./"), "http://h:1/a/b/");
    }

    #[test]
    fn percent_coding() {
        assert_eq!(percent_encode(b"a b&c=d~\n"), "a+b%26c%3Dd~%0A");
        assert_eq!(percent_decode("a%20b%zz%4"), "a b%zz%4");
        assert_eq!(
            escape_unsafe("http://h:1/a b|{c}[d]~%41%zz?e=\"f\"&g^"),
            "http://h:1/a%20b%7C%7Bc%7D[d]~%41%25zz?e=%22f%22&g%5E"
        );
    }
}
