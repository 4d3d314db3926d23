//! Shell-style wildcard matching (`*`, `?`, `[...]`) on bytes, as
//! fnmatch(3) without flags does for grep's `--include`/`--exclude`.

/// Whether `name` matches the wildcard `pat`.
pub fn fnmatch(pat: &[u8], name: &[u8]) -> bool {
    // Iterative matcher with single-star backtracking: linear in practice.
    let (mut p, mut n) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        if p < pat.len() {
            match pat[p] {
                b'*' => {
                    star = Some((p, n));
                    p += 1;
                    continue;
                }
                b'?' => {
                    p += 1;
                    n += 1;
                    continue;
                }
                b'[' => {
                    if let Some((ok, next)) = bracket(pat, p + 1, name[n]) {
                        if ok {
                            p = next;
                            n += 1;
                            continue;
                        }
                    } else if name[n] == b'[' {
                        p += 1;
                        n += 1;
                        continue;
                    }
                }
                b'\\' if p + 1 < pat.len() => {
                    if pat[p + 1] == name[n] {
                        p += 2;
                        n += 1;
                        continue;
                    }
                }
                c => {
                    if c == name[n] {
                        p += 1;
                        n += 1;
                        continue;
                    }
                }
            }
        }
        match star {
            Some((sp, sn)) => {
                p = sp + 1;
                n = sn + 1;
                star = Some((sp, sn + 1));
            }
            None => return false,
        }
    }
    while p < pat.len() && pat[p] == b'*' {
        p += 1;
    }
    p == pat.len()
}

/// Match one byte against a bracket body starting at `i`; returns whether
/// it matched and the index after `]`, or None if the bracket is unclosed.
fn bracket(pat: &[u8], mut i: usize, c: u8) -> Option<(bool, usize)> {
    let mut neg = false;
    if i < pat.len() && (pat[i] == b'!' || pat[i] == b'^') {
        neg = true;
        i += 1;
    }
    let mut matched = false;
    let mut first = true;
    loop {
        if i >= pat.len() {
            return None;
        }
        let b = pat[i];
        if b == b']' && !first {
            return Some((matched != neg, i + 1));
        }
        first = false;
        if b == b'[' && i + 1 < pat.len() && pat[i + 1] == b':' {
            if let Some(end) = pat[i + 2..].windows(2).position(|w| w == b":]") {
                let name = &pat[i + 2..i + 2 + end];
                let ok = match name {
                    b"alpha" => c.is_ascii_alphabetic(),
                    b"digit" => c.is_ascii_digit(),
                    b"alnum" => c.is_ascii_alphanumeric(),
                    b"upper" => c.is_ascii_uppercase(),
                    b"lower" => c.is_ascii_lowercase(),
                    b"space" => c.is_ascii_whitespace() || c == 0x0b,
                    b"punct" => c.is_ascii_punctuation(),
                    b"xdigit" => c.is_ascii_hexdigit(),
                    _ => false,
                };
                matched |= ok;
                i += end + 4;
                continue;
            }
        }
        if i + 2 < pat.len() && pat[i + 1] == b'-' && pat[i + 2] != b']' {
            matched |= b <= c && c <= pat[i + 2];
            i += 3;
        } else {
            matched |= b == c;
            i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::fnmatch;
    #[test]
    fn wildcards() {
        assert!(fnmatch(b"*.txt", b"a.txt"));
        assert!(!fnmatch(b"*.txt", b"a.txt.bak"));
        assert!(fnmatch(b"a?c", b"abc"));
        assert!(fnmatch(b"[ab]*", b"bx"));
        assert!(!fnmatch(b"[!ab]*", b"bx"));
        assert!(fnmatch(b"*a*b*", b"xxaxxbxx"));
    }
}
