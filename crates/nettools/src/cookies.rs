//! A cookie jar: Set-Cookie in, Cookie out, and the Netscape cookie file
//! format curl reads (-b FILE) and writes (-c FILE).

use crate::time;
use crate::url::Url;
use std::fmt::Write as _;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cookie {
    /// Without a leading dot.
    pub domain: String,
    /// Also sent to subdomains (a Domain attribute, or TRUE in a file).
    pub subdomains: bool,
    pub path: String,
    pub secure: bool,
    pub http_only: bool,
    /// Unix seconds; 0 = a session cookie.
    pub expires: i64,
    pub name: String,
    pub value: String,
    /// The port a host-only cookie came from when not 80/443 (wget's
    /// files say `host:port`); 0 = any.
    pub port: u16,
    /// Arrival order, for the order cookies are sent and saved in.
    created: u64,
}

#[derive(Debug, Default)]
pub struct Jar {
    cookies: Vec<Cookie>,
    counter: u64,
}

/// `host:port` → `host` (an IPv6 literal keeps its colons).
fn strip_port(d: &str) -> &str {
    match d.rfind(':') {
        Some(i) if !d.contains(']') && d[..i].find(':').is_none() => &d[..i],
        _ => d,
    }
}

fn domain_matches(host: &str, domain: &str, subdomains: bool) -> bool {
    host == domain
        || (subdomains
            && host.len() > domain.len()
            && host.ends_with(domain)
            && host.as_bytes()[host.len() - domain.len() - 1] == b'.')
}

fn path_matches(req: &str, cookie: &str) -> bool {
    req == cookie
        || (req.starts_with(cookie)
            && (cookie.ends_with('/') || req.as_bytes().get(cookie.len()) == Some(&b'/')))
}

/// The default cookie path for a request path (RFC 6265 §5.1.4).
fn default_path(path: &str) -> String {
    match path.rfind('/') {
        Some(0) | None => "/".to_string(),
        Some(i) => path[..i].to_string(),
    }
}

impl Jar {
    pub fn is_empty(&self) -> bool {
        self.cookies.is_empty()
    }

    /// `-j`: forget cookies that end with the session.
    pub fn drop_session_cookies(&mut self) {
        self.cookies.retain(|c| c.expires != 0);
    }

    fn insert(&mut self, mut c: Cookie) {
        self.counter += 1;
        c.created = self.counter;
        let now = time::now();
        self.cookies
            .retain(|o| !(o.name == c.name && o.domain == c.domain && o.path == c.path));
        if c.expires == 0 || c.expires > now {
            self.cookies.push(c);
        }
    }

    /// Read a Netscape cookie file (lines of seven tab-separated fields;
    /// `#HttpOnly_` marks HttpOnly cookies; other `#` lines are comments).
    pub fn load_netscape(&mut self, text: &str) {
        for line in text.lines() {
            let (line, http_only) = match line.strip_prefix("#HttpOnly_") {
                Some(rest) => (rest, true),
                None => (line, false),
            };
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let f: Vec<&str> = line.trim_end_matches('\r').split('\t').collect();
            if f.len() < 7 {
                continue;
            }
            let subdomains = f[1].eq_ignore_ascii_case("TRUE");
            self.insert(Cookie {
                // wget writes `host:port` for a host-only cookie.
                domain: strip_port(f[0].trim_start_matches('.')).to_ascii_lowercase(),
                subdomains: subdomains || f[0].starts_with('.'),
                path: f[2].to_string(),
                secure: f[3].eq_ignore_ascii_case("TRUE"),
                http_only,
                expires: f[4].parse().unwrap_or(0),
                name: f[5].to_string(),
                value: f[6].to_string(),
                port: 0,
                created: 0,
            });
        }
    }

    /// Take a Set-Cookie header received from `url`; a cookie for another
    /// domain, or with no name, is ignored as browsers and curl do.
    pub fn set_cookie(&mut self, url: &Url, header: &str) {
        let mut parts = header.split(';');
        let first = parts.next().unwrap_or("");
        let (name, value) = match first.find('=') {
            Some(i) => (first[..i].trim(), first[i + 1..].trim()),
            None => return,
        };
        if name.is_empty() {
            return;
        }
        let host = url.host_bare().to_ascii_lowercase();
        let mut c = Cookie {
            domain: host.clone(),
            subdomains: false,
            path: default_path(&url.path),
            secure: false,
            http_only: false,
            expires: 0,
            name: name.to_string(),
            value: value.to_string(),
            port: match url.port_or_default() {
                80 | 443 => 0,
                p => p,
            },
            created: 0,
        };
        let mut max_age = None;
        for attr in parts {
            let (k, v) = match attr.find('=') {
                Some(i) => (attr[..i].trim(), attr[i + 1..].trim()),
                None => (attr.trim(), ""),
            };
            match k.to_ascii_lowercase().as_str() {
                "domain" if !v.is_empty() => {
                    let d = v.trim_start_matches('.').to_ascii_lowercase();
                    if !domain_matches(&host, &d, true) {
                        return;
                    }
                    c.subdomains = true;
                    c.domain = d;
                    c.port = 0;
                }
                "path" if v.starts_with('/') => c.path = v.to_string(),
                "secure" => c.secure = true,
                "httponly" => c.http_only = true,
                "expires" => {
                    if let Some(t) = time::parse_http_date(v) {
                        // 0 means "session" in the file format: an expiry
                        // at the epoch is simply past.
                        c.expires = t.max(1);
                    }
                }
                "max-age" => max_age = v.parse::<i64>().ok(),
                _ => {}
            }
        }
        if let Some(age) = max_age {
            c.expires = if age <= 0 { 1 } else { time::now() + age };
        }
        self.insert(c);
    }

    /// The Cookie header value for a request to `url`, if any cookie applies:
    /// longest path first, then longest domain, longest name, oldest first.
    pub fn header_for(&self, url: &Url) -> Option<String> {
        let host = url.host_bare().to_ascii_lowercase();
        let now = time::now();
        let mut hits: Vec<&Cookie> = self
            .cookies
            .iter()
            .filter(|c| {
                domain_matches(&host, &c.domain, c.subdomains)
                    && path_matches(&url.path, &c.path)
                    && (!c.secure || url.scheme == "https")
                    && (c.expires == 0 || c.expires > now)
            })
            .collect();
        if hits.is_empty() {
            return None;
        }
        hits.sort_by(|a, b| {
            b.path
                .len()
                .cmp(&a.path.len())
                .then(b.domain.len().cmp(&a.domain.len()))
                .then(b.name.len().cmp(&a.name.len()))
                .then(a.created.cmp(&b.created))
        });
        let parts: Vec<String> = hits
            .iter()
            .map(|c| format!("{}={}", c.name, c.value))
            .collect();
        Some(parts.join("; "))
    }

    /// The jar in curl's Netscape file layout, newest cookie first.
    pub fn to_netscape(&self) -> String {
        self.lines(
            "# Netscape HTTP Cookie File\n\
             # https://curl.se/docs/http-cookies.html\n\
             # This file was generated by libcurl! Edit at your own risk.\n\n",
            false,
        )
    }

    /// The jar as wget's --save-cookies writes it (`stamp` is the local
    /// time wget names): host-only cookies from another port than 80/443
    /// say `host:port`.
    pub fn to_wget_file(&self, stamp: &str) -> String {
        self.lines(
            &format!(
                "# HTTP Cookie File\n# Generated by Wget on {}.\n# Edit at your own risk.\n\n",
                stamp
            ),
            true,
        )
    }

    fn lines(&self, header: &str, ports: bool) -> String {
        let mut s = header.to_string();
        let mut all: Vec<&Cookie> = self.cookies.iter().collect();
        all.sort_by(|a, b| b.created.cmp(&a.created));
        for c in all {
            let _ = writeln!(
                s,
                "{}{}{}\t{}\t{}\t{}\t{}\t{}\t{}",
                if c.http_only { "#HttpOnly_" } else { "" },
                if c.subdomains { "." } else { "" },
                if ports && c.port != 0 {
                    format!("{}:{}", c.domain, c.port)
                } else {
                    c.domain.clone()
                },
                if c.subdomains { "TRUE" } else { "FALSE" },
                c.path,
                if c.secure { "TRUE" } else { "FALSE" },
                c.expires,
                c.name,
                c.value
            );
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(s: &str) -> Url {
        Url::parse(s, false).unwrap()
    }

    #[test]
    fn wget_files_name_a_non_default_port() {
        let mut j = Jar::default();
        j.set_cookie(
            &u("http://127.0.0.1:8080/x"),
            "a=1; Expires=Wed, 01 Jan 2098 00:00:00 GMT",
        );
        j.set_cookie(
            &u("http://h.test/"),
            "b=2; Expires=Wed, 01 Jan 2098 00:00:00 GMT",
        );
        let w = j.to_wget_file("2026-01-01 00:00:00");
        assert!(w.starts_with("# HTTP Cookie File\n# Generated by Wget on 2026-01-01 00:00:00.\n"));
        assert!(w.contains("\n127.0.0.1:8080\tFALSE\t/\tFALSE\t4039372800\ta\t1\n"));
        assert!(w.contains("\nh.test\tFALSE\t/\tFALSE\t4039372800\tb\t2\n"));
        // curl's file has no port; a wget file loads back without it.
        assert!(j.to_netscape().contains("\n127.0.0.1\tFALSE"));
        let mut k = Jar::default();
        k.load_netscape(&w);
        assert_eq!(
            k.header_for(&u("http://127.0.0.1:8080/")).as_deref(),
            Some("a=1")
        );
    }

    #[test]
    fn set_and_send() {
        let mut j = Jar::default();
        j.set_cookie(&u("http://a.test/x/set"), "s=1; Path=/");
        j.set_cookie(&u("http://a.test/x/set"), "d=2");
        j.set_cookie(&u("http://www.a.test/"), "w=3; Domain=.a.test; HttpOnly");
        j.set_cookie(&u("http://a.test/"), "evil=1; Domain=b.test");
        j.set_cookie(&u("http://a.test/"), "gone=1; Max-Age=0");
        assert_eq!(
            j.header_for(&u("http://a.test/x/y")).as_deref(),
            Some("d=2; s=1; w=3")
        );
        assert_eq!(
            j.header_for(&u("http://a.test/")).as_deref(),
            Some("s=1; w=3")
        );
        assert_eq!(j.header_for(&u("http://c.test/")), None);
        let file = j.to_netscape();
        assert!(file.contains("#HttpOnly_.a.test\tTRUE\t/\tFALSE\t0\tw\t3\n"));
        assert!(file.contains("a.test\tFALSE\t/x\tFALSE\t0\td\t2\n"));
        let mut k = Jar::default();
        k.load_netscape(&file);
        // Loaded cookies are as old as their place in the file (newest first).
        assert_eq!(
            k.header_for(&u("http://a.test/x/y")).as_deref(),
            Some("d=2; w=3; s=1")
        );
    }

    #[test]
    fn replaces_and_expires() {
        let mut j = Jar::default();
        j.set_cookie(&u("http://a.test/"), "k=1");
        j.set_cookie(
            &u("http://a.test/"),
            "k=2; Expires=Wed, 01 Jan 2098 00:00:00 GMT",
        );
        assert_eq!(j.header_for(&u("http://a.test/")).as_deref(), Some("k=2"));
        j.set_cookie(
            &u("http://a.test/"),
            "k=3; Expires=Thu, 01 Jan 1970 00:00:01 GMT",
        );
        assert!(j.is_empty());
    }
}
