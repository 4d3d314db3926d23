//! `.netrc` files (curl -n/--netrc-file, wget's ~/.netrc): `machine NAME
//! login USER password PASS` entries, a `default` entry, `macdef` bodies
//! skipped; words separated by any whitespace, `"quoted"` words allowed.

/// The credentials an entry gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub login: String,
    pub password: String,
}

fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line.trim_start().starts_with('#') {
            continue;
        }
        let mut chars = line.chars().peekable();
        let mut in_macdef = false;
        loop {
            while chars.peek().map_or(false, |c| c.is_whitespace()) {
                chars.next();
            }
            let mut w = String::new();
            match chars.peek() {
                None => break,
                Some('"') => {
                    chars.next();
                    while let Some(c) = chars.next() {
                        match c {
                            '"' => break,
                            '\\' => w.extend(chars.next()),
                            c => w.push(c),
                        }
                    }
                    out.push(w);
                    continue;
                }
                _ => {}
            }
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() {
                    break;
                }
                w.push(c);
                chars.next();
            }
            if w == "macdef" {
                in_macdef = true;
            }
            out.push(w);
        }
        if in_macdef {
            // A macro's body runs to the next empty line.
            for l in lines.by_ref() {
                if l.trim().is_empty() {
                    break;
                }
            }
        }
    }
    out
}

/// The entry for `host`, else the `default` entry.
pub fn lookup(text: &str, host: &str) -> Option<Entry> {
    let w = words(text);
    // Each entry: its machine name (None for `default`) and credentials.
    let mut entries: Vec<(Option<String>, Entry)> = Vec::new();
    let mut i = 0;
    while i < w.len() {
        let next = w.get(i + 1).cloned().unwrap_or_default();
        match (w[i].as_str(), entries.last_mut()) {
            ("machine", _) => {
                entries.push((
                    Some(next),
                    Entry {
                        login: String::new(),
                        password: String::new(),
                    },
                ));
                i += 2;
            }
            ("default", _) => {
                entries.push((
                    None,
                    Entry {
                        login: String::new(),
                        password: String::new(),
                    },
                ));
                i += 1;
            }
            ("login", Some(e)) => {
                e.1.login = next;
                i += 2;
            }
            ("password", Some(e)) => {
                e.1.password = next;
                i += 2;
            }
            ("login" | "password" | "account" | "macdef", _) => i += 2,
            _ => i += 1,
        }
    }
    let named = entries
        .iter()
        .find(|(m, _)| m.as_deref().map_or(false, |m| m.eq_ignore_ascii_case(host)));
    named
        .or_else(|| entries.iter().find(|(m, _)| m.is_none()))
        .map(|(_, e)| e.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(l: &str, p: &str) -> Option<Entry> {
        Some(Entry {
            login: l.into(),
            password: p.into(),
        })
    }

    #[test]
    fn machines_and_default() {
        let t = "# mine\nmachine a.test login u password p\nmachine\nb.test\nlogin\nv\npassword \"q r\"\n\
                 macdef init\nmachine c.test login bad\n\ndefault login d password dp\n";
        assert_eq!(lookup(t, "a.test"), e("u", "p"));
        assert_eq!(lookup(t, "B.TEST"), e("v", "q r"));
        assert_eq!(lookup(t, "c.test"), e("d", "dp"));
        assert_eq!(lookup("machine x login y password z", "other"), None);
    }
}
