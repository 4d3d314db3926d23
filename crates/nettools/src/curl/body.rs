//! Request bodies from -d and friends, -F and -T.

use super::args::Data;
use crate::url::percent_encode;
use std::io::Read;

/// Read `@file` (`-` = stdin); a missing file is `None`.
pub fn read_source(name: &str, stdin: &mut dyn Read) -> Option<Vec<u8>> {
    if name == "-" {
        let mut v = Vec::new();
        stdin.read_to_end(&mut v).ok()?;
        Some(v)
    } else {
        std::fs::read(name).ok()
    }
}

/// The joined -d/--data-*/--json body, and warnings for unreadable files
/// (curl then sends the rest, as it does).
pub fn join_data(items: &[Data], stdin: &mut dyn Read) -> (Vec<u8>, Vec<String>) {
    let mut out = Vec::new();
    let mut warnings = Vec::new();
    let load =
        |f: &str, stdin: &mut dyn Read, warnings: &mut Vec<String>| match read_source(f, stdin) {
            Some(v) => v,
            None => {
                warnings.push(format!(
                    "Couldn't read data from file \"{}\", this makes an empty POST.",
                    f
                ));
                Vec::new()
            }
        };
    for (i, d) in items.iter().enumerate() {
        let json = matches!(d, Data::Json(_));
        if i > 0 && !(json && matches!(items[i - 1], Data::Json(_))) {
            out.push(b'&');
        }
        match d {
            Data::Ascii(s) => match s.strip_prefix('@') {
                Some(f) => {
                    let v = load(f, stdin, &mut warnings);
                    out.extend(v.into_iter().filter(|&b| b != b'\r' && b != b'\n'));
                }
                None => out.extend_from_slice(s.as_bytes()),
            },
            Data::Raw(s) => out.extend_from_slice(s.as_bytes()),
            Data::Binary(s) | Data::Json(s) => match s.strip_prefix('@') {
                Some(f) => out.extend(load(f, stdin, &mut warnings)),
                None => out.extend_from_slice(s.as_bytes()),
            },
            Data::UrlEncode(s) => {
                // name=content, =content, content, name@file, @file.
                let eq = s.find('=');
                let at = s.find('@');
                match (eq, at) {
                    (Some(e), a) if a.map_or(true, |a| e < a) => {
                        if e > 0 {
                            out.extend_from_slice(s[..e].as_bytes());
                            out.push(b'=');
                        }
                        out.extend_from_slice(percent_encode(s[e + 1..].as_bytes()).as_bytes());
                    }
                    (_, Some(a)) => {
                        if a > 0 {
                            out.extend_from_slice(s[..a].as_bytes());
                            out.push(b'=');
                        }
                        let v = load(&s[a + 1..], stdin, &mut warnings);
                        out.extend_from_slice(percent_encode(&v).as_bytes());
                    }
                    _ => out.extend_from_slice(percent_encode(s.as_bytes()).as_bytes()),
                }
            }
        }
    }
    (out, warnings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_like_curl() {
        let mut none: &[u8] = b"";
        let (b, w) = join_data(
            &[
                Data::Ascii("a=1".into()),
                Data::UrlEncode("b=x y&z".into()),
                Data::UrlEncode("=q r".into()),
                Data::UrlEncode("plain text".into()),
                Data::Raw("@lit".into()),
                Data::Ascii("@/no/such/file".into()),
            ],
            &mut none,
        );
        assert_eq!(
            String::from_utf8(b).unwrap(),
            "a=1&b=x+y%26z&q+r&plain+text&@lit&"
        );
        assert_eq!(w.len(), 1);
        let mut input: &[u8] = b"l1\r\nl2\n";
        let (b, _) = join_data(&[Data::Ascii("@-".into())], &mut input);
        assert_eq!(b, b"l1l2");
        let (b, _) = join_data(
            &[Data::Json("{\"a\":".into()), Data::Json("1}".into())],
            &mut none,
        );
        assert_eq!(b, b"{\"a\":1}");
    }
}
