//! File-name quoting as GNU prints names in diagnostics (`'a b'`).

/// Quote a name the way GNU coreutils do in error messages: bare when it
/// contains only safe characters, otherwise in single quotes (with `'\''`
/// for embedded quotes).
pub fn quote(name: &str) -> String {
    let safe = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || "-_./,+:@%^=".contains(c));
    if safe {
        return name.to_string();
    }
    if !name.contains('\'') {
        return format!("'{}'", name);
    }
    if !name.contains('"') && !name.contains('$') && !name.contains('`') && !name.contains('\\') {
        return format!("\"{}\"", name);
    }
    format!("'{}'", name.replace('\'', "'\\''"))
}

/// GNU's shell-escape quoting of raw bytes; `always` forces quotes even
/// for safe names (the style of `quote()` in `cannot access 'x'`), else
/// quotes only when needed (the style of `quotef()` in `cat: x: ...`).
pub fn quote_bytes(name: &[u8], always: bool) -> String {
    let printable = |c: u8| (0x20..0x7f).contains(&c);
    let safe = |c: u8| c.is_ascii_alphanumeric() || b"-_./,+:@%{}".contains(&c);
    // `~` and `#` need quotes only first in a word
    let safe_at = |i: usize| safe(name[i]) || (b"#~".contains(&name[i]) && i > 0);
    if !always && !name.is_empty() && (0..name.len()).all(safe_at) {
        return String::from_utf8_lossy(name).into_owned();
    }
    if name.iter().all(|&c| printable(c)) {
        let s = String::from_utf8_lossy(name);
        if !s.contains('\'') {
            return format!("'{}'", s);
        }
        if !s.contains('"') && !s.contains('$') && !s.contains('`') && !s.contains('\\') {
            return format!("\"{}\"", s);
        }
        return format!("'{}'", s.replace('\'', "'\\''"));
    }
    // Mixed: quoted printable runs and $'...' escapes for the rest.
    let mut out = String::new();
    let mut i = 0;
    while i < name.len() {
        if printable(name[i]) {
            let start = i;
            while i < name.len() && printable(name[i]) {
                i += 1;
            }
            let s = String::from_utf8_lossy(&name[start..i]).replace('\'', "'\\''");
            out.push('\'');
            out.push_str(&s);
            out.push('\'');
        } else {
            out.push_str("$'");
            while i < name.len() && !printable(name[i]) {
                match name[i] {
                    b'\n' => out.push_str("\\n"),
                    b'\t' => out.push_str("\\t"),
                    b'\r' => out.push_str("\\r"),
                    c => {
                        use std::fmt::Write;
                        let _ = write!(out, "\\{:03o}", c);
                    }
                }
                i += 1;
            }
            out.push('\'');
        }
    }
    if name.first().map_or(false, |&c| !printable(c)) {
        out.insert_str(0, "''");
    }
    out
}

/// `quote_bytes(name, true)` for an OS string: `'x'` as in
/// `ls: cannot access 'x': No such file or directory`.
pub fn quote_gnu(name: &std::ffi::OsStr) -> String {
    quote_bytes(crate::bytes::os_bytes(name), true)
}

/// `quote_bytes(name, false)` for an OS string: bare when safe, as in
/// `cat: x: No such file or directory`.
pub fn quotef(name: &std::ffi::OsStr) -> String {
    quote_bytes(crate::bytes::os_bytes(name), false)
}

#[cfg(test)]
mod tests {
    use super::quote;
    #[test]
    fn quotes_like_gnu() {
        assert_eq!(quote("a.txt"), "a.txt");
        assert_eq!(quote("a b"), "'a b'");
        assert_eq!(quote("it's"), "\"it's\"");
        assert_eq!(super::quote_bytes(b"x", true), "'x'");
        assert_eq!(super::quote_bytes(b"x~#{}", false), "x~#{}");
        assert_eq!(super::quote_bytes(b"~x", false), "'~x'");
        assert_eq!(super::quote_bytes(b"a=b", false), "'a=b'");
        assert_eq!(super::quote_bytes(b"a\nb", false), "'a'$'\\n''b'");
        assert_eq!(super::quote_bytes(b"\xff", false), "''$'\\377'");
    }
}
