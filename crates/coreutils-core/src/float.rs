//! Floating-point text as glibc prints it, where Rust's formatting differs.

/// `%.Nf` with glibc's rounding: an exact tie goes to the even digit.
pub fn fixed(v: f64, p: usize) -> String {
    let wide = format!("{:.*}", p + 30, v);
    if let Some(dot) = wide.find('.') {
        let tail = &wide[dot + 1 + p..];
        if tail.starts_with('5') && tail[1..].bytes().all(|c| c == b'0') {
            // the decimal expansion ends in exactly 5 here: round half even
            let mut digits: Vec<u8> = wide[..dot + 1 + p].bytes().filter(|c| *c != b'.').collect();
            let last = digits.last().map_or(0, |c| c - b'0');
            if last % 2 == 1 {
                let mut k = digits.len();
                loop {
                    if k == 0 || !digits[k - 1].is_ascii_digit() {
                        digits.insert(k, b'1');
                        break;
                    }
                    if digits[k - 1] == b'9' {
                        digits[k - 1] = b'0';
                        k -= 1;
                    } else {
                        digits[k - 1] += 1;
                        break;
                    }
                }
            }
            let s = String::from_utf8(digits).unwrap_or_default();
            let int_len = s.len() - p;
            return if p == 0 {
                s
            } else {
                format!("{}.{}", &s[..int_len], &s[int_len..])
            };
        }
    }
    format!("{:.*}", p, v)
}
