//! The orderings behind sort's key options: numeric (`-n`), general
//! numeric (`-g`), human (`-h`), month (`-M`), version (`-V`) and the
//! byte comparison with ignored/folded characters (`-d -i -f`).

use std::cmp::Ordering;

fn skip_blanks(s: &[u8]) -> &[u8] {
    let i = s
        .iter()
        .position(|&c| c != b' ' && c != b'\t')
        .unwrap_or(s.len());
    &s[i..]
}

/// A decimal number split GNU-style: sign, integer digits without leading
/// zeros, fraction digits without trailing zeros.
pub struct Num<'a> {
    neg: bool,
    int: &'a [u8],
    frac: &'a [u8],
    /// Bytes consumed (for the human suffix).
    end: usize,
}

/// Parse the numeric prefix of `s` (after blanks) for `-n`.
pub fn split_num(s: &[u8]) -> Num<'_> {
    let s = skip_blanks(s);
    let mut i = 0;
    let neg = s.first() == Some(&b'-');
    if neg {
        i = 1;
    }
    let ist = i;
    while i < s.len() && s[i].is_ascii_digit() {
        i += 1;
    }
    let mut int = &s[ist..i];
    while int.first() == Some(&b'0') {
        int = &int[1..];
    }
    let mut frac: &[u8] = &[];
    if i < s.len() && s[i] == b'.' {
        let fst = i + 1;
        i += 1;
        while i < s.len() && s[i].is_ascii_digit() {
            i += 1;
        }
        frac = &s[fst..i];
        while frac.last() == Some(&b'0') {
            frac = &frac[..frac.len() - 1];
        }
    }
    let zero = int.is_empty() && frac.is_empty();
    Num {
        neg: neg && !zero,
        int,
        frac,
        end: i,
    }
}

fn cmp_mag(a: &Num, b: &Num) -> Ordering {
    a.int
        .len()
        .cmp(&b.int.len())
        .then_with(|| a.int.cmp(b.int))
        .then_with(|| a.frac.cmp(b.frac))
}

/// Compare two parsed numbers.
pub fn cmp_nums(a: &Num, b: &Num) -> Ordering {
    match (a.neg, b.neg) {
        (false, true) => Ordering::Greater,
        (true, false) => Ordering::Less,
        (false, false) => cmp_mag(a, b),
        (true, true) => cmp_mag(b, a),
    }
}

/// `-n`: leading blanks, optional `-`, digits, optional `.` fraction.
pub fn numeric(a: &[u8], b: &[u8]) -> Ordering {
    cmp_nums(&split_num(skip_blanks(a)), &split_num(skip_blanks(b)))
}

fn unit_order(c: Option<&u8>) -> i32 {
    match c {
        Some(b'k') | Some(b'K') => 1,
        Some(b'M') => 2,
        Some(b'G') => 3,
        Some(b'T') => 4,
        Some(b'P') => 5,
        Some(b'E') => 6,
        Some(b'Z') => 7,
        Some(b'Y') => 8,
        Some(b'R') => 9,
        Some(b'Q') => 10,
        _ => 0,
    }
}

fn human_order(s: &[u8]) -> i32 {
    let n = split_num(s);
    if n.int.is_empty() && n.frac.is_empty() {
        return 0;
    }
    let o = unit_order(s.get(n.end));
    if s.first() == Some(&b'-') {
        -o
    } else {
        o
    }
}

/// `-h`: numbers with SI suffixes; the suffix ranks first.
pub fn human(a: &[u8], b: &[u8]) -> Ordering {
    let (a, b) = (skip_blanks(a), skip_blanks(b));
    human_order(a)
        .cmp(&human_order(b))
        .then_with(|| numeric(a, b))
}

/// The longest prefix of `s` that `strtod` would accept, as a value.
pub fn strtod(s: &[u8]) -> Option<f64> {
    let st = s
        .iter()
        .position(|c| !c.is_ascii_whitespace())
        .unwrap_or(s.len());
    let t = &s[st..];
    let mut i = 0;
    if i < t.len() && (t[i] == b'+' || t[i] == b'-') {
        i += 1;
    }
    let rest = &t[i..];
    let lower: Vec<u8> = rest
        .iter()
        .take(8)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let neg = t.first() == Some(&b'-');
    if lower.starts_with(b"inf") {
        return Some(if neg {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        });
    }
    if lower.starts_with(b"nan") {
        return Some(f64::NAN);
    }
    let ds = i;
    while i < t.len() && t[i].is_ascii_digit() {
        i += 1;
    }
    let mut digits = i - ds;
    if i < t.len() && t[i] == b'.' {
        i += 1;
        let fs = i;
        while i < t.len() && t[i].is_ascii_digit() {
            i += 1;
        }
        digits += i - fs;
    }
    if digits == 0 {
        return None;
    }
    if i < t.len() && (t[i] == b'e' || t[i] == b'E') {
        let mut j = i + 1;
        if j < t.len() && (t[j] == b'+' || t[j] == b'-') {
            j += 1;
        }
        let es = j;
        while j < t.len() && t[j].is_ascii_digit() {
            j += 1;
        }
        if j > es {
            i = j;
        }
    }
    std::str::from_utf8(&t[..i])
        .ok()
        .and_then(|x| x.parse::<f64>().ok())
}

/// `-g`: floating point; unparsable first, then NaN, then numbers.
pub fn general(a: &[u8], b: &[u8]) -> Ordering {
    match (strtod(a), strtod(b)) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Less,
        (Some(_), None) => Ordering::Greater,
        (Some(x), Some(y)) => match (x.is_nan(), y.is_nan()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            _ => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
        },
    }
}

/// Month number of the key (0 when not a month name).
pub fn month_of(s: &[u8]) -> u8 {
    let s = skip_blanks(s);
    if s.len() < 3 {
        return 0;
    }
    let m = [
        s[0].to_ascii_uppercase(),
        s[1].to_ascii_uppercase(),
        s[2].to_ascii_uppercase(),
    ];
    const NAMES: [&[u8; 3]; 12] = [
        b"JAN", b"FEB", b"MAR", b"APR", b"MAY", b"JUN", b"JUL", b"AUG", b"SEP", b"OCT", b"NOV",
        b"DEC",
    ];
    NAMES
        .iter()
        .position(|n| **n == m)
        .map_or(0, |p| p as u8 + 1)
}

/// `-M`.
pub fn month(a: &[u8], b: &[u8]) -> Ordering {
    month_of(a).cmp(&month_of(b))
}

/// `-V`: gnulib's `filevercmp` (shared with `ls -v`).
pub use coreutils_core::version::filevercmp as version;

/// Byte comparison skipping ignored bytes and optionally folding case.
pub fn text(a: &[u8], b: &[u8], dict: bool, printable: bool, fold: bool) -> Ordering {
    if !dict && !printable && !fold {
        return a.cmp(b);
    }
    let ignored = |c: u8| {
        (dict && !(c.is_ascii_alphanumeric() || c == b' ' || c == b'\t'))
            || (printable && !(0x20..0x7f).contains(&c))
    };
    let (mut i, mut j) = (0, 0);
    loop {
        while i < a.len() && ignored(a[i]) {
            i += 1;
        }
        while j < b.len() && ignored(b[j]) {
            j += 1;
        }
        if i >= a.len() || j >= b.len() {
            return (i < a.len()).cmp(&(j < b.len()));
        }
        let (x, y) = if fold {
            (a[i].to_ascii_uppercase(), b[j].to_ascii_uppercase())
        } else {
            (a[i], b[j])
        };
        if x != y {
            return x.cmp(&y);
        }
        i += 1;
        j += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cmp::Ordering::*;

    #[test]
    fn numeric_order() {
        assert_eq!(numeric(b"10", b"9"), Greater);
        assert_eq!(numeric(b" -5", b"3"), Less);
        assert_eq!(numeric(b"-0", b"0"), Equal);
        assert_eq!(numeric(b"1.50", b"1.5"), Equal);
        assert_eq!(numeric(b"-1.2", b"-1.15"), Less);
        assert_eq!(numeric(b"abc", b"0"), Equal);
        assert_eq!(numeric(b"007", b"7x"), Equal);
    }

    #[test]
    fn human_and_general() {
        assert_eq!(human(b"2K", b"1M"), Less);
        assert_eq!(human(b"1G", b"999M"), Greater);
        assert_eq!(human(b"-1G", b"1K"), Less);
        assert_eq!(general(b"1e3", b"999"), Greater);
        assert_eq!(general(b"abc", b"-inf"), Less);
        assert_eq!(general(b"nan", b"-inf"), Less);
    }

    #[test]
    fn version_order() {
        assert_eq!(version(b"a2", b"a10"), Less);
        assert_eq!(version(b"1.2.3", b"1.10"), Less);
        assert_eq!(version(b"x-1.0~rc1", b"x-1.0"), Less);
        assert_eq!(version(b"foo.tar.gz", b"foo2.tar.gz"), Less);
        assert_eq!(version(b".a", b"a"), Less);
    }

    #[test]
    fn months_and_text() {
        assert_eq!(month(b" feb", b"JAN"), Greater);
        assert_eq!(month(b"xyz", b"jan"), Less);
        assert_eq!(text(b"a-b", b"ab", true, false, false), Equal);
        assert_eq!(text(b"ABC", b"abd", false, false, true), Less);
    }
}
