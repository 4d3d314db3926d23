//! Shell-pattern matching as fnmatch(3) without FNM_PERIOD or
//! FNM_PATHNAME (`*` matches `/` and leading dots): what find's -name and
//! -path use, and ls's --hide/-I (which check FNM_PERIOD themselves).

/// Does `name` match `pat`? `fold` compares ASCII letters case-blind.
pub fn fnmatch(pat: &[u8], name: &[u8], fold: bool) -> bool {
    let eq = |a: u8, b: u8| {
        if fold {
            a.eq_ignore_ascii_case(&b)
        } else {
            a == b
        }
    };
    let (mut p, mut n) = (0usize, 0usize);
    // Backtrack point: pattern index after the last `*`, and the name
    // index it currently absorbs up to.
    let mut star: Option<(usize, usize)> = None;
    loop {
        if p < pat.len() {
            match pat[p] {
                b'*' => {
                    while p < pat.len() && pat[p] == b'*' {
                        p += 1;
                    }
                    star = Some((p, n));
                    continue;
                }
                b'?' if n < name.len() => {
                    p += 1;
                    n += 1;
                    continue;
                }
                b'[' if n < name.len() => {
                    if let Some((ok, next)) = bracket(pat, p, name[n], fold) {
                        if ok {
                            p = next;
                            n += 1;
                            continue;
                        }
                    } else if eq(b'[', name[n]) {
                        p += 1;
                        n += 1;
                        continue;
                    }
                }
                b'\\' if p + 1 < pat.len() && n < name.len() && eq(pat[p + 1], name[n]) => {
                    p += 2;
                    n += 1;
                    continue;
                }
                c if c != b'?' && c != b'[' && c != b'\\' && n < name.len() && eq(c, name[n]) => {
                    p += 1;
                    n += 1;
                    continue;
                }
                b'\\' if p + 1 == pat.len() && n < name.len() && name[n] == b'\\' => {
                    p += 1;
                    n += 1;
                    continue;
                }
                _ => {}
            }
        } else if n == name.len() {
            return true;
        }
        match star {
            Some((sp, sn)) if sn < name.len() => {
                star = Some((sp, sn + 1));
                p = sp;
                n = sn + 1;
            }
            _ => return false,
        }
    }
}

/// Match one byte against the bracket expression at `pat[start]` (`[`).
/// Returns (matched, index after `]`), or None when the bracket is not
/// closed (then `[` is literal).
fn bracket(pat: &[u8], start: usize, c: u8, fold: bool) -> Option<(bool, usize)> {
    let mut i = start + 1;
    let negate = i < pat.len() && (pat[i] == b'!' || pat[i] == b'^');
    if negate {
        i += 1;
    }
    let mut matched = false;
    let mut first = true;
    let lc = c.to_ascii_lowercase();
    while i < pat.len() {
        if pat[i] == b']' && !first {
            return Some((matched != negate, i + 1));
        }
        first = false;
        if pat[i] == b'[' && i + 1 < pat.len() && pat[i + 1] == b':' {
            if let Some(end) = find_class_end(pat, i + 2) {
                let name = &pat[i + 2..end];
                if class_has(name, c)
                    || (fold && (class_has(name, lc) || class_has(name, c.to_ascii_uppercase())))
                {
                    matched = true;
                }
                i = end + 2;
                continue;
            }
        }
        let mut lo = pat[i];
        if lo == b'\\' && i + 1 < pat.len() {
            i += 1;
            lo = pat[i];
        }
        i += 1;
        let mut hi = lo;
        if i + 1 < pat.len() && pat[i] == b'-' && pat[i + 1] != b']' {
            hi = pat[i + 1];
            if hi == b'\\' && i + 2 < pat.len() {
                hi = pat[i + 2];
                i += 1;
            }
            i += 2;
        }
        let inr = |x: u8| lo <= x && x <= hi;
        if inr(c) || (fold && (inr(lc) || inr(c.to_ascii_uppercase()))) {
            matched = true;
        }
    }
    None
}

fn find_class_end(pat: &[u8], from: usize) -> Option<usize> {
    let mut j = from;
    while j + 1 < pat.len() {
        if pat[j] == b':' && pat[j + 1] == b']' {
            return Some(j);
        }
        j += 1;
    }
    None
}

fn class_has(name: &[u8], c: u8) -> bool {
    match name {
        b"alpha" => c.is_ascii_alphabetic(),
        b"digit" => c.is_ascii_digit(),
        b"alnum" => c.is_ascii_alphanumeric(),
        b"upper" => c.is_ascii_uppercase(),
        b"lower" => c.is_ascii_lowercase(),
        b"space" => matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c),
        b"blank" => c == b' ' || c == b'\t',
        b"punct" => c.is_ascii_punctuation(),
        b"xdigit" => c.is_ascii_hexdigit(),
        b"cntrl" => c.is_ascii_control(),
        b"print" => (0x20..0x7f).contains(&c),
        b"graph" => (0x21..0x7f).contains(&c),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::fnmatch;

    #[test]
    fn matches_like_fnmatch() {
        assert!(fnmatch(b"*.txt", b"a.txt", false));
        assert!(fnmatch(b"*", b".hidden", false));
        assert!(!fnmatch(b"*.txt", b"a.log", false));
        assert!(fnmatch(b"a?c", b"abc", false));
        assert!(fnmatch(b"[a-c]x", b"bx", false));
        assert!(!fnmatch(b"[!a-c]x", b"bx", false));
        assert!(fnmatch(b"*.TXT", b"a.txt", true));
        assert!(fnmatch(b"./dir/*", b"./dir/sub/c.txt", false));
        assert!(fnmatch(b"\\*", b"*", false));
        assert!(!fnmatch(b"\\*", b"a", false));
        assert!(fnmatch(b"[[:digit:]]*", b"9z", false));
        assert!(fnmatch(b"[", b"[", false));
        assert!(fnmatch(b"*a*b*c", b"xxaxxbxxc", false));
    }
}
