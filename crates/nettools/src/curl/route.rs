//! curl's `--connect-to HOST1:PORT1:HOST2:PORT2` and `--resolve
//! [+]HOST:PORT:ADDR[,ADDR]...` (`-HOST:PORT` removes an entry): where a
//! transfer to a URL's host and port connects instead. The gateway gets the
//! place with the request and checks it against the policy as well as the
//! URL's host, so neither option reaches an address the policy forbids.

use std::net::IpAddr;

/// Where one host and port connect to instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// A name (from --connect-to) or an address; IPv6 without brackets.
    pub host: String,
    pub port: u16,
    /// A --connect-to entry moved it (curl then names this place in errors).
    pub moved: bool,
    /// --resolve's further addresses, tried in order when `host` refuses.
    pub others: Vec<String>,
}

#[derive(Clone, Debug, Default)]
pub struct Routes {
    /// (host or `*`, port, addresses), later entries first.
    resolve: Vec<(String, u16, Vec<String>)>,
    /// (host or "" for any, port or None for any, host2 or "", port2 or None).
    connect_to: Vec<(String, Option<u16>, String, Option<u16>)>,
}

/// Host text without brackets, lower case (curl compares names so).
fn bare(host: &str) -> String {
    host.trim_start_matches('[')
        .trim_end_matches(']')
        .to_ascii_lowercase()
}

/// Split `a:b:c` where any part may be a bracketed IPv6 address.
fn fields(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut depth = 0;
    for (i, c) in s.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            ':' if depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

fn port(s: &str) -> Option<u16> {
    s.parse::<u16>().ok()
}

impl Routes {
    /// Parse the options' values in command-line order. Err is the
    /// --resolve entry curl could not parse (its exit 49).
    pub fn parse(resolve: &[String], connect_to: &[String]) -> Result<Routes, String> {
        let mut r = Routes::default();
        for entry in resolve {
            let text = entry.strip_prefix('+').unwrap_or(entry);
            if let Some(gone) = text.strip_prefix('-') {
                let f = fields(gone);
                match (f.first(), f.get(1).and_then(|p| port(p))) {
                    (Some(h), Some(p)) if f.len() == 2 => {
                        let h = bare(h);
                        r.resolve.retain(|(rh, rp, _)| !(*rh == h && *rp == p));
                    }
                    _ => return Err(entry.clone()),
                }
                continue;
            }
            let f = fields(text);
            let (host, p, addrs) = match (f.first(), f.get(1).and_then(|p| port(p)), f.get(2)) {
                (Some(h), Some(p), Some(a)) if f.len() == 3 && !h.is_empty() => (h, p, a),
                _ => return Err(entry.clone()),
            };
            let mut list = Vec::new();
            for a in addrs.split(',') {
                let a = a.trim().trim_start_matches('[').trim_end_matches(']');
                if a.parse::<IpAddr>().is_err() {
                    return Err(entry.clone());
                }
                list.push(a.to_string());
            }
            r.resolve.insert(0, (bare(host), p, list));
        }
        for entry in connect_to {
            // curl skips an entry it cannot read.
            let f = fields(entry);
            if f.len() != 4 {
                continue;
            }
            let opt_port = |s: &str| {
                if s.is_empty() {
                    Some(None)
                } else {
                    port(s).map(Some)
                }
            };
            if let (Some(p1), Some(p2)) = (opt_port(f[1]), opt_port(f[3])) {
                r.connect_to.push((bare(f[0]), p1, bare(f[2]), p2));
            }
        }
        Ok(r)
    }

    /// Where a transfer to `host`:`port` connects, when an entry moves it.
    pub fn place(&self, host: &str, port: u16) -> Option<Place> {
        let host = bare(host);
        let mut to = (host.clone(), port);
        let mut moved = false;
        if let Some((_, _, h2, p2)) = self
            .connect_to
            .iter()
            .find(|(h, p, _, _)| (h.is_empty() || *h == host) && p.map_or(true, |p| p == port))
        {
            if !h2.is_empty() {
                to.0 = h2.clone();
            }
            if let Some(p2) = p2 {
                to.1 = *p2;
            }
            moved = to != (host.clone(), port);
        }
        let resolved = self
            .resolve
            .iter()
            .find(|(h, p, _)| (*h == to.0 || h == "*") && *p == to.1)
            .map(|(_, _, a)| a.clone());
        if !moved && resolved.is_none() {
            return None;
        }
        let mut addresses = resolved.unwrap_or_default().into_iter();
        Some(Place {
            host: addresses.next().unwrap_or(to.0),
            port: to.1,
            moved,
            others: addresses.collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn routes(resolve: &[&str], connect_to: &[&str]) -> Result<Routes, String> {
        let v = |l: &[&str]| l.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        Routes::parse(&v(resolve), &v(connect_to))
    }

    #[test]
    fn resolve_entries() {
        let r = routes(&["a.test:80:127.0.0.1", "B.test:443:[::1],10.0.0.1"], &[]).unwrap();
        let p = r.place("a.test", 80).unwrap();
        assert_eq!((p.host.as_str(), p.port, p.moved), ("127.0.0.1", 80, false));
        assert_eq!(r.place("b.test", 443).unwrap().host, "::1");
        assert_eq!(r.place("b.test", 443).unwrap().others, ["10.0.0.1"]);
        assert_eq!(r.place("a.test", 81), None);
        assert_eq!(r.place("c.test", 80), None);
        let any = routes(&["*:80:10.1.1.1"], &[]).unwrap();
        assert_eq!(any.place("x.test", 80).unwrap().host, "10.1.1.1");
        // The later entry wins; `-HOST:PORT` removes.
        let r = routes(&["a:80:1.1.1.1", "+a:80:2.2.2.2"], &[]).unwrap();
        assert_eq!(r.place("a", 80).unwrap().host, "2.2.2.2");
        let r = routes(&["a:80:1.1.1.1", "-a:80"], &[]).unwrap();
        assert_eq!(r.place("a", 80), None);
        for bad in [
            "bad",
            "a:80",
            "a:x:1.1.1.1",
            "a:80:nothost",
            ":80:1.1.1.1",
            "a:80:",
        ] {
            assert_eq!(routes(&[bad], &[]).unwrap_err(), bad);
        }
    }

    #[test]
    fn connect_to_entries() {
        let r = routes(&[], &["a.test:80:127.0.0.1:8080", "::b.test:"]).unwrap();
        let p = r.place("a.test", 80).unwrap();
        assert_eq!(
            (p.host.as_str(), p.port, p.moved),
            ("127.0.0.1", 8080, true)
        );
        let p = r.place("z.test", 99).unwrap();
        assert_eq!((p.host.as_str(), p.port), ("b.test", 99));
        // Unreadable entries are skipped, as curl does.
        assert!(routes(&[], &["bad", "a:b:c:d"])
            .unwrap()
            .place("a", 80)
            .is_none());
        // --resolve applies to the place --connect-to chose.
        let r = routes(&["b.test:99:10.0.0.9"], &["::b.test:"]).unwrap();
        assert_eq!(r.place("z.test", 99).unwrap().host, "10.0.0.9");
        let r = routes(&[], &["[::1]:80:[::2]:81"]).unwrap();
        assert_eq!(r.place("[::1]", 80).unwrap().host, "::2");
    }
}
