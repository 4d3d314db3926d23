//! Numbers for printf's floating conversions: arguments read the way bash's
//! strtold does (hex, `'c` character codes, a valid prefix of a bad number),
//! and `%a`, which bash prints from an x86 long double (a leading hex digit
//! from 8 to f).

use std::fmt::Write;

/// A floating argument: its value and whether all of it was a number.
pub fn float_arg(a: &[u8]) -> (f64, bool) {
    if let Some(&q) = a.first() {
        if q == b'\'' || q == b'"' {
            let c = std::str::from_utf8(&a[1..])
                .ok()
                .and_then(|t| t.chars().next())
                .map(|c| c as u32)
                .or_else(|| a.get(1).map(|b| *b as u32))
                .unwrap_or(0);
            return (c as f64, true);
        }
    }
    let t = String::from_utf8_lossy(a);
    let s = t.trim_start();
    if s.is_empty() {
        return (0.0, a.is_empty());
    }
    let (v, used) = strtod_prefix(s);
    (v, used == s.len() && used > 0)
}

/// The longest prefix of `s` that is a C floating constant: value and length.
fn strtod_prefix(s: &str) -> (f64, usize) {
    let b = s.as_bytes();
    let (neg, i) = sign_prefix(b);
    let sign = |v: f64| if neg { -v } else { v };
    let rest = s[i..].to_ascii_lowercase();
    for (word, v) in [
        ("infinity", f64::INFINITY),
        ("inf", f64::INFINITY),
        ("nan", f64::NAN),
    ] {
        if rest.starts_with(word) {
            return (sign(v), i + word.len());
        }
    }
    if rest.starts_with("0x") {
        let mut j = i + 2;
        let mut m = 0f64;
        let mut digits = 0;
        let mut scale = 0i32;
        let mut dot = false;
        while j < b.len() {
            let c = b[j];
            if c == b'.' && !dot {
                dot = true;
            } else if let Some(d) = (c as char).to_digit(16) {
                m = m * 16.0 + d as f64;
                digits += 1;
                if dot {
                    scale -= 4;
                }
            } else {
                break;
            }
            j += 1;
        }
        if digits == 0 {
            // only the 0 of "0x" is a number
            return (sign(0.0), i + 1);
        }
        if j < b.len() && (b[j] == b'p' || b[j] == b'P') {
            let (e, n) = exponent(&b[j + 1..]);
            if n > 0 {
                scale += e;
                j += 1 + n;
            }
        }
        return (sign(m * 2f64.powi(scale)), j);
    }
    let start = i;
    let mut j = i;
    let mut digits = 0;
    while j < b.len() && b[j].is_ascii_digit() {
        j += 1;
        digits += 1;
    }
    if j < b.len() && b[j] == b'.' {
        j += 1;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
            digits += 1;
        }
    }
    if digits == 0 {
        return (0.0, 0);
    }
    if j < b.len() && (b[j] == b'e' || b[j] == b'E') {
        let (_, n) = exponent(&b[j + 1..]);
        if n > 0 {
            j += 1 + n;
        }
    }
    (sign(s[start..j].parse().unwrap_or(0.0)), j)
}

/// A leading `-` or `+`: whether negative, and its length.
fn sign_prefix(b: &[u8]) -> (bool, usize) {
    match b.first() {
        Some(b'-') => (true, 1),
        Some(b'+') => (false, 1),
        _ => (false, 0),
    }
}

/// An optionally signed decimal exponent: value and length (0: none).
fn exponent(b: &[u8]) -> (i32, usize) {
    let (neg, mut i) = sign_prefix(b);
    let s = i;
    let mut e: i32 = 0;
    while i < b.len() && b[i].is_ascii_digit() {
        e = e.saturating_mul(10).saturating_add((b[i] - b'0') as i32);
        i += 1;
    }
    if i == s {
        return (0, 0);
    }
    (if neg { -e } else { e }, i)
}

/// `%a`: hexadecimal with a 64-bit mantissa, as glibc prints a long double.
pub fn hex_float(v: f64, prec: Option<usize>, upper: bool) -> String {
    let mut out = String::new();
    if v.is_sign_negative() {
        out.push('-');
    }
    let a = v.abs();
    if !a.is_finite() {
        out.push_str(if a.is_nan() { "nan" } else { "inf" });
    } else if a == 0.0 {
        out.push_str("0x0");
        if let Some(p) = prec.filter(|p| *p > 0) {
            out.push('.');
            out.push_str(&"0".repeat(p));
        }
        out.push_str("p+0");
    } else {
        let bits = a.to_bits();
        let raw_exp = ((bits >> 52) & 0x7ff) as i32;
        let frac = bits & ((1u64 << 52) - 1);
        // normalise to a 64-bit mantissa with its top bit set
        let (m, mut e) = if raw_exp == 0 {
            // subnormal: frac * 2^-1074
            let lz = frac.leading_zeros();
            (frac << lz, 63 - 1074 - lz as i32)
        } else {
            ((1u64 << 63) | (frac << 11), raw_exp - 1023)
        };
        // value = m * 2^(e - 63); printed as (m >> 60).(rest) * 2^(e - 3)
        let mut lead = m >> 60;
        let mut rest = m & ((1u64 << 60) - 1);
        let mut digits = format!("{:015x}", rest);
        if let Some(p) = prec {
            if p < 15 {
                // round to p hex digits, half to even
                let drop = 4 * (15 - p) as u32;
                let keep = rest >> drop;
                let rem = rest & ((1u64 << drop) - 1);
                let half = 1u64 << (drop - 1);
                let mut k = keep;
                if rem > half || (rem == half && keep & 1 == 1) {
                    k += 1;
                }
                if p > 0 && k >> (4 * p) != 0 || p == 0 && k != 0 {
                    lead += 1;
                    k &= if p == 0 { 0 } else { (1u64 << (4 * p)) - 1 };
                }
                rest = k;
                digits = if p == 0 {
                    String::new()
                } else {
                    format!("{:0width$x}", rest, width = p)
                };
            } else {
                digits.push_str(&"0".repeat(p - 15));
            }
        } else {
            while digits.ends_with('0') {
                digits.pop();
            }
        }
        if lead == 16 {
            lead = 1;
            e += 4;
        }
        let ep = e - 3;
        let _ = write!(out, "0x{:x}", lead);
        if !digits.is_empty() {
            out.push('.');
            out.push_str(&digits);
        }
        let _ = write!(out, "p{}{}", if ep < 0 { '-' } else { '+' }, ep.abs());
    }
    if upper {
        out.to_uppercase()
    } else {
        out
    }
}

/// `%.Nf` with glibc's rounding (shared with coreutils' printf).
pub use coreutils_core::float::fixed;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn args() {
        assert_eq!(float_arg(b"0x1F"), (31.0, true));
        assert_eq!(float_arg(b"010"), (10.0, true));
        assert_eq!(float_arg(b"'b"), (98.0, true));
        assert_eq!(float_arg(b"3.5x"), (3.5, false));
        assert_eq!(float_arg(b"A"), (0.0, false));
    }

    #[test]
    fn hex() {
        assert_eq!(hex_float(1.0, None, false), "0x8p-3");
        assert_eq!(hex_float(42.0, None, false), "0xa.8p+2");
        assert_eq!(hex_float(2.0, None, false), "0x8p-2");
        assert_eq!(hex_float(0.0, None, false), "0x0p+0");
        assert_eq!(hex_float(-7.0, None, false), "-0xep-1");
    }

    #[test]
    fn ties() {
        assert_eq!(fixed(0.5, 0), "0");
        assert_eq!(fixed(1.5, 0), "2");
        assert_eq!(fixed(2.5, 0), "2");
        assert_eq!(fixed(0.125, 2), "0.12");
        assert_eq!(fixed(-0.5, 0), "-0");
    }
}
