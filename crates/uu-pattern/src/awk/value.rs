//! awk values (numbers, strings, numeric strings), conversions between
//! them and the printf formatter.

use std::rc::Rc;

/// A scalar value.
#[derive(Clone, Debug)]
pub enum Value {
    Uninit,
    Num(f64),
    Str(Rc<[u8]>),
    /// Input that looks numeric: compares as a number.
    StrNum(Rc<[u8]>, f64),
}

impl Value {
    pub fn from_bytes(b: &[u8]) -> Value {
        Value::Str(Rc::from(b))
    }
    /// Input data (fields, getline, split): numeric if it looks numeric.
    pub fn input(b: &[u8]) -> Value {
        match looks_numeric(b) {
            Some(n) => Value::StrNum(Rc::from(b), n),
            None => Value::Str(Rc::from(b)),
        }
    }
    pub fn num(&self) -> f64 {
        match self {
            Value::Uninit => 0.0,
            Value::Num(n) | Value::StrNum(_, n) => *n,
            Value::Str(s) => str_to_num(s),
        }
    }
    pub fn truthy(&self) -> bool {
        match self {
            Value::Uninit => false,
            Value::Num(n) => *n != 0.0,
            Value::StrNum(_, n) => *n != 0.0,
            Value::Str(s) => !s.is_empty(),
        }
    }
    pub fn is_numeric(&self) -> bool {
        matches!(self, Value::Num(_) | Value::StrNum(..) | Value::Uninit)
    }
    /// String form using `convfmt` for non-integral numbers.
    pub fn to_bytes(&self, convfmt: &[u8]) -> Rc<[u8]> {
        match self {
            Value::Uninit => Rc::from(&b""[..]),
            Value::Str(s) | Value::StrNum(s, _) => s.clone(),
            Value::Num(n) => Rc::from(num_to_str(*n, convfmt).as_slice()),
        }
    }
}

/// Number to string as awk does: integers plainly, others via the format.
pub fn num_to_str(n: f64, fmt: &[u8]) -> Vec<u8> {
    if n == n.trunc() && n.is_finite() {
        if n == 0.0 {
            return b"0".to_vec();
        }
        // gawk prints integral values in full, however large.
        return format!("{:.0}", n).into_bytes();
    }
    if n.is_nan() {
        return if n.is_sign_negative() {
            b"-nan".to_vec()
        } else {
            b"nan".to_vec()
        };
    }
    if n.is_infinite() {
        return if n < 0.0 {
            b"-inf".to_vec()
        } else {
            b"inf".to_vec()
        };
    }
    sprintf(fmt, &[Value::Num(n)], b"%.6g")
}

/// strtod-like prefix conversion ("12abc" → 12).
pub fn str_to_num(s: &[u8]) -> f64 {
    match integer_prefix(s) {
        Some(v) => v,
        None => strtod_prefix(s),
    }
}

/// `str_to_num`'s general path: any decimal or inf/nan prefix.
fn strtod_prefix(s: &[u8]) -> f64 {
    let mut i = 0;
    while i < s.len() && matches!(s[i], b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c) {
        i += 1;
    }
    let start = i;
    if i < s.len() && (s[i] == b'+' || s[i] == b'-') {
        i += 1;
    }
    let ds = i;
    while i < s.len() && s[i].is_ascii_digit() {
        i += 1;
    }
    if i < s.len() && s[i] == b'.' {
        i += 1;
        while i < s.len() && s[i].is_ascii_digit() {
            i += 1;
        }
    }
    if i == ds || (i == ds + 1 && s[ds] == b'.') {
        // maybe inf/nan with sign
        let rest = &s[ds..];
        let lower: Vec<u8> = rest
            .iter()
            .take(3)
            .map(|c| c.to_ascii_lowercase())
            .collect();
        if ds > start && (lower == b"inf" || lower == b"nan") {
            let neg = s[start] == b'-';
            let v = if lower == b"inf" {
                f64::INFINITY
            } else {
                f64::NAN
            };
            return if neg { -v } else { v };
        }
        return 0.0;
    }
    if i < s.len() && (s[i] == b'e' || s[i] == b'E') {
        let mut j = i + 1;
        if j < s.len() && (s[j] == b'+' || s[j] == b'-') {
            j += 1;
        }
        if j < s.len() && s[j].is_ascii_digit() {
            while j < s.len() && s[j].is_ascii_digit() {
                j += 1;
            }
            i = j;
        }
    }
    let t = &s[start..i];
    if let Some(v) = fast_decimal(t) {
        return v;
    }
    std::str::from_utf8(t)
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or(0.0)
}

/// The common case of `str_to_num` in one pass: blanks, a sign and up to
/// 15 digits (exact in a double), ending the text or followed by something
/// that cannot continue a number. None for anything else.
fn integer_prefix(s: &[u8]) -> Option<f64> {
    let mut i = 0;
    while i < s.len() && matches!(s[i], b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c) {
        i += 1;
    }
    let neg = match s.get(i) {
        Some(b'-') => {
            i += 1;
            true
        }
        Some(b'+') => {
            i += 1;
            false
        }
        _ => false,
    };
    let ds = i;
    let mut mant: u64 = 0;
    while i < s.len() && s[i].is_ascii_digit() {
        if i - ds == 15 {
            return None;
        }
        mant = mant * 10 + u64::from(s[i] - b'0');
        i += 1;
    }
    if i == ds || matches!(s.get(i), Some(b'.' | b'e' | b'E')) {
        return None;
    }
    let v = mant as f64;
    Some(if neg { -v } else { v })
}

/// Powers of ten a double holds exactly.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// `[+-]digits[.digits]` with at most 15 significant digits and 22
/// decimals, converted without the general parser: the digits are an exact
/// integer below 2^53 and the scale an exact power of ten, so one division
/// rounds correctly (Clinger's fast path). Most awk input numbers take it;
/// anything else returns None.
fn fast_decimal(t: &[u8]) -> Option<f64> {
    let (neg, body) = match t.first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let mut mant: u64 = 0;
    let mut any = false;
    let mut sig = 0usize;
    let mut frac: Option<usize> = None;
    for &c in body {
        match c {
            b'0'..=b'9' => {
                any = true;
                if mant > 0 || c != b'0' {
                    sig += 1;
                    if sig > 15 {
                        return None;
                    }
                }
                mant = mant * 10 + u64::from(c - b'0');
                if let Some(f) = frac.as_mut() {
                    *f += 1;
                }
            }
            b'.' if frac.is_none() => frac = Some(0),
            _ => return None,
        }
    }
    let scale = *POW10.get(frac.unwrap_or(0))?;
    if !any {
        return None;
    }
    let v = mant as f64 / scale;
    Some(if neg { -v } else { v })
}

/// Whether input text is a numeric string; returns its value.
pub fn looks_numeric(s: &[u8]) -> Option<f64> {
    let t = trim(s);
    if t.is_empty() {
        return None;
    }
    let mut i = 0;
    if t[0] == b'+' || t[0] == b'-' {
        i = 1;
    }
    let ds = i;
    let mut digits = 0;
    while i < t.len() && t[i].is_ascii_digit() {
        i += 1;
        digits += 1;
    }
    if i < t.len() && t[i] == b'.' {
        i += 1;
        while i < t.len() && t[i].is_ascii_digit() {
            i += 1;
            digits += 1;
        }
    }
    if digits == 0 {
        let rest: Vec<u8> = t[ds..].iter().map(|c| c.to_ascii_lowercase()).collect();
        if ds == 1 && (rest == b"inf" || rest == b"nan") {
            return Some(str_to_num(t));
        }
        return None;
    }
    if i < t.len() && (t[i] == b'e' || t[i] == b'E') {
        let mut j = i + 1;
        if j < t.len() && (t[j] == b'+' || t[j] == b'-') {
            j += 1;
        }
        if j < t.len() && t[j].is_ascii_digit() {
            while j < t.len() && t[j].is_ascii_digit() {
                j += 1;
            }
            i = j;
        } else {
            return None;
        }
    }
    if i != t.len() {
        return None;
    }
    Some(str_to_num(t))
}

fn trim(s: &[u8]) -> &[u8] {
    let ws = |c: &u8| matches!(*c, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c);
    let a = s.iter().position(|c| !ws(c)).unwrap_or(s.len());
    let b = s.iter().rposition(|c| !ws(c)).map(|p| p + 1).unwrap_or(a);
    &s[a..b.max(a)]
}

fn pad(out: &mut Vec<u8>, body: &[u8], width: usize, left: bool, zero: bool) {
    if body.len() >= width {
        out.extend_from_slice(body);
        return;
    }
    let n = width - body.len();
    if left {
        out.extend_from_slice(body);
        out.extend(std::iter::repeat(b' ').take(n));
    } else if zero {
        // Zero padding goes after the sign.
        let sign = if !body.is_empty() && matches!(body[0], b'-' | b'+' | b' ') {
            1
        } else {
            0
        };
        let (s, rest) = body.split_at(sign);
        let (pfx, rest2) =
            if rest.len() >= 2 && rest[0] == b'0' && (rest[1] == b'x' || rest[1] == b'X') {
                rest.split_at(2)
            } else {
                rest.split_at(0)
            };
        out.extend_from_slice(s);
        out.extend_from_slice(pfx);
        out.extend(std::iter::repeat(b'0').take(n));
        out.extend_from_slice(rest2);
    } else {
        out.extend(std::iter::repeat(b' ').take(n));
        out.extend_from_slice(body);
    }
}

/// %e formatting with C's exponent style (at least two digits).
fn fmt_e(v: f64, prec: usize, upper: bool) -> String {
    let s = format!("{:.*e}", prec, v);
    let (m, e) = match s.split_once('e') {
        Some(x) => x,
        None => return s,
    };
    let ev: i32 = e.parse().unwrap_or(0);
    let r = format!("{}e{}{:02}", m, if ev < 0 { '-' } else { '+' }, ev.abs());
    if upper {
        r.to_uppercase()
    } else {
        r
    }
}

/// %g formatting.
fn fmt_g(v: f64, prec: usize, alt: bool, upper: bool) -> String {
    let p = if prec == 0 { 1 } else { prec };
    if v == 0.0 {
        let mut s = String::from(if v.is_sign_negative() { "-0" } else { "0" });
        if alt && p > 1 {
            s.push('.');
            s.push_str(&"0".repeat(p - 1));
        }
        return s;
    }
    let e_s = format!("{:.*e}", p - 1, v);
    let x: i32 = e_s
        .split_once('e')
        .and_then(|(_, e)| e.parse().ok())
        .unwrap_or(0);
    let mut s = if x < -4 || x >= p as i32 {
        fmt_e(v, p - 1, upper)
    } else {
        format!("{:.*}", (p as i32 - 1 - x).max(0) as usize, v)
    };
    if !alt {
        // Strip trailing zeros of the fraction.
        let (mant, exp) = match s.find(['e', 'E']) {
            Some(i) => (s[..i].to_string(), s[i..].to_string()),
            None => (s.clone(), String::new()),
        };
        let mant = if mant.contains('.') {
            mant.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            mant
        };
        s = mant + &exp;
    }
    s
}

fn non_finite(v: f64, upper: bool) -> Option<String> {
    if v.is_nan() {
        let s = if v.is_sign_negative() { "-nan" } else { "nan" };
        return Some(if upper { s.to_uppercase() } else { s.into() });
    }
    if v.is_infinite() {
        let s = if v < 0.0 { "-inf" } else { "inf" };
        return Some(if upper { s.to_uppercase() } else { s.into() });
    }
    None
}

/// awk's sprintf. `convfmt` is used for %s of numbers.
/// Check that `nargs` values satisfy `fmt` (gawk makes a shortfall
/// fatal); the error is gawk's message pointing at the conversion.
pub fn check_format_args(fmt: &[u8], nargs: usize) -> Result<(), String> {
    let mut need = 0usize;
    let mut i = 0;
    let fail = |at: usize| {
        // gawk's caret sits one column left of the byte that ran out.
        Err(format!(
            "not enough arguments to satisfy format string\n\t`{}'\n\t{}^ ran out for this one",
            String::from_utf8_lossy(fmt),
            " ".repeat(at)
        ))
    };
    while i < fmt.len() {
        if fmt[i] != b'%' {
            i += 1;
            continue;
        }
        i += 1;
        if i < fmt.len() && fmt[i] == b'%' {
            i += 1;
            continue;
        }
        while i < fmt.len() && b"-+ #0".contains(&fmt[i]) {
            i += 1;
        }
        for part in 0..2 {
            if part == 1 {
                if i < fmt.len() && fmt[i] == b'.' {
                    i += 1;
                } else {
                    break;
                }
            }
            if i < fmt.len() && fmt[i] == b'*' {
                need += 1;
                if need > nargs {
                    return fail(i);
                }
                i += 1;
            } else {
                while i < fmt.len() && fmt[i].is_ascii_digit() {
                    i += 1;
                }
            }
        }
        if i < fmt.len() && b"cdiouxXeEfFgGs".contains(&fmt[i]) {
            need += 1;
            if need > nargs {
                return fail(i);
            }
            i += 1;
        }
    }
    Ok(())
}

pub fn sprintf(fmt: &[u8], args: &[Value], convfmt: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(fmt.len() + 16);
    let mut ai = 0;
    let mut i = 0;
    let next_arg = |ai: &mut usize| -> Value {
        let v = args.get(*ai).cloned().unwrap_or(Value::Uninit);
        *ai += 1;
        v
    };
    while i < fmt.len() {
        let c = fmt[i];
        if c != b'%' {
            out.push(c);
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        if i >= fmt.len() {
            out.push(b'%');
            break;
        }
        if fmt[i] == b'%' {
            out.push(b'%');
            i += 1;
            continue;
        }
        let (mut left, mut plus, mut space, mut alt, mut zero) =
            (false, false, false, false, false);
        while i < fmt.len() {
            match fmt[i] {
                b'-' => left = true,
                b'+' => plus = true,
                b' ' => space = true,
                b'#' => alt = true,
                b'0' => zero = true,
                _ => break,
            }
            i += 1;
        }
        let mut width = 0usize;
        if i < fmt.len() && fmt[i] == b'*' {
            let w = next_arg(&mut ai).num() as i64;
            if w < 0 {
                left = true;
            }
            width = w.unsigned_abs() as usize;
            i += 1;
        } else {
            while i < fmt.len() && fmt[i].is_ascii_digit() {
                width = width * 10 + (fmt[i] - b'0') as usize;
                i += 1;
            }
        }
        let mut prec: Option<usize> = None;
        if i < fmt.len() && fmt[i] == b'.' {
            i += 1;
            let mut p = 0usize;
            if i < fmt.len() && fmt[i] == b'*' {
                let v = next_arg(&mut ai).num() as i64;
                p = v.max(0) as usize;
                i += 1;
            } else {
                while i < fmt.len() && fmt[i].is_ascii_digit() {
                    p = p * 10 + (fmt[i] - b'0') as usize;
                    i += 1;
                }
            }
            prec = Some(p);
        }
        while i < fmt.len() && matches!(fmt[i], b'h' | b'l' | b'L' | b'q' | b'j' | b'z' | b't') {
            i += 1;
        }
        if i >= fmt.len() {
            out.extend_from_slice(&fmt[start..]);
            break;
        }
        let conv = fmt[i];
        i += 1;
        let sign = |neg: bool| -> &'static str {
            if neg {
                "-"
            } else if plus {
                "+"
            } else if space {
                " "
            } else {
                ""
            }
        };
        match conv {
            b'd' | b'i' => {
                let v = next_arg(&mut ai).num();
                if let Some(s) = non_finite(v, false) {
                    pad(&mut out, s.as_bytes(), width, left, false);
                    continue;
                }
                let t = v.trunc();
                let mut digits = if t.abs() < 1e18 {
                    format!("{}", (t as i64).unsigned_abs())
                } else {
                    format!("{:.0}", t.abs())
                };
                if let Some(p) = prec {
                    if p == 0 && t == 0.0 {
                        digits.clear();
                    }
                    while digits.len() < p {
                        digits.insert(0, '0');
                    }
                }
                let body = format!("{}{}", sign(t < 0.0), digits);
                pad(
                    &mut out,
                    body.as_bytes(),
                    width,
                    left,
                    zero && prec.is_none(),
                );
            }
            b'o' | b'x' | b'X' | b'u' => {
                let v = next_arg(&mut ai).num();
                let t = v.trunc();
                let n: u64 = if t < 0.0 { (t as i64) as u64 } else { t as u64 };
                let mut digits = match conv {
                    b'o' => format!("{:o}", n),
                    b'x' => format!("{:x}", n),
                    b'X' => format!("{:X}", n),
                    _ => format!("{}", n),
                };
                if let Some(p) = prec {
                    if p == 0 && n == 0 {
                        digits.clear();
                    }
                    while digits.len() < p {
                        digits.insert(0, '0');
                    }
                }
                if alt && n != 0 {
                    match conv {
                        b'o' => digits.insert(0, '0'),
                        b'x' => digits.insert_str(0, "0x"),
                        b'X' => digits.insert_str(0, "0X"),
                        _ => {}
                    }
                }
                pad(
                    &mut out,
                    digits.as_bytes(),
                    width,
                    left,
                    zero && prec.is_none(),
                );
            }
            b'e' | b'E' | b'f' | b'F' | b'g' | b'G' => {
                let v = next_arg(&mut ai).num();
                let upper = conv.is_ascii_uppercase();
                if let Some(s) = non_finite(v, upper) {
                    let body = if !v.is_nan() && v > 0.0 || (v.is_nan() && !v.is_sign_negative()) {
                        format!("{}{}", sign(false), s)
                    } else {
                        s
                    };
                    pad(&mut out, body.as_bytes(), width, left, false);
                    continue;
                }
                let p = prec.unwrap_or(6);
                let mag = match conv {
                    b'e' | b'E' => fmt_e(v.abs(), p, upper),
                    b'f' | b'F' => {
                        let mut s = format!("{:.*}", p, v.abs());
                        if alt && p == 0 {
                            s.push('.');
                        }
                        s
                    }
                    _ => fmt_g(v.abs(), p, alt, upper),
                };
                let neg = v < 0.0 || (v == 0.0 && v.is_sign_negative());
                let body = format!("{}{}", sign(neg), mag);
                pad(&mut out, body.as_bytes(), width, left, zero);
            }
            b'c' => {
                let v = next_arg(&mut ai);
                let body: Vec<u8> = match &v {
                    Value::Num(n) => {
                        // C locale: the low byte of the code.
                        vec![(*n as i64 & 0xff) as u8]
                    }
                    other => {
                        let s = other.to_bytes(convfmt);
                        s.first().map(|b| vec![*b]).unwrap_or_default()
                    }
                };
                pad(&mut out, &body, width, left, false);
            }
            b's' => {
                let v = next_arg(&mut ai);
                let s = v.to_bytes(convfmt);
                let s: &[u8] = match prec {
                    Some(p) if p < s.len() => &s[..p],
                    _ => &s,
                };
                pad(&mut out, s, width, left, false);
            }
            _ => {
                out.extend_from_slice(&fmt[start..i]);
            }
        }
    }
    out
}

#[cfg(test)]
mod fast_decimal_tests {
    use super::*;

    #[test]
    fn matches_the_general_parser() {
        for t in [
            "0",
            "7",
            "-7",
            "+7",
            "-0",
            "12345",
            "0.1",
            "-0.5",
            "123.45",
            "999999999999999",
            "0.000000000000001",
            "0.0000000000000000000001",
            "3.",
            ".5",
            "-.25",
            "100000.00001",
            "98765.4321",
        ] {
            let want: f64 = t.trim_start_matches('+').parse().unwrap();
            let got = fast_decimal(t.as_bytes()).unwrap();
            assert_eq!(got.to_bits(), want.to_bits(), "{}", t);
        }
        for t in [
            "1e5",
            "1234567890123456",
            "12345678901234567890123",
            "0.00000000000000000000001",
            "",
            "-",
            ".",
            "1.2.3",
        ] {
            assert_eq!(fast_decimal(t.as_bytes()), None, "{}", t);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_fast_path_agrees_with_the_general_one() {
        let cases: &[&[u8]] = &[
            b"0",
            b"-0",
            b"+0",
            b"7",
            b"  42",
            b"\t-13 ",
            b"123456789012345",
            b"1234567890123456",
            b"00000000000000012",
            b"12abc",
            b"3.5",
            b"3.",
            b"1e5",
            b"1E-2",
            b"-",
            b"+",
            b"",
            b" ",
            b"0x1A",
            b"inf",
            b"-inf",
            b"nan",
            b"+nan",
            b"9007199254740993",
            b"-999999999999999",
            b"5\n",
            b"12 34",
        ];
        for c in cases {
            let (a, b) = (str_to_num(c), strtod_prefix(c));
            assert!(
                a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
                "{:?}: {} vs {}",
                String::from_utf8_lossy(c),
                a,
                b
            );
        }
    }
    fn f(fmt: &str, args: &[Value]) -> String {
        String::from_utf8(sprintf(fmt.as_bytes(), args, b"%.6g")).unwrap()
    }
    #[test]
    fn formats_like_c() {
        assert_eq!(
            f(
                "%5.2f|%-4d|%04d",
                &[Value::Num(3.14259), Value::Num(7.0), Value::Num(-5.0)]
            ),
            " 3.14|7   |-005"
        );
        assert_eq!(
            f(
                "%g %g %g",
                &[Value::Num(100000.0), Value::Num(1e6), Value::Num(0.0001)]
            ),
            "100000 1e+06 0.0001"
        );
        assert_eq!(f("%e", &[Value::Num(12345.678)]), "1.234568e+04");
        assert_eq!(
            f(
                "%x %o %c%c",
                &[
                    Value::Num(255.0),
                    Value::Num(8.0),
                    Value::Num(65.0),
                    Value::from_bytes(b"hi")
                ]
            ),
            "ff 10 Ah"
        );
        assert_eq!(
            f(
                "%.3s|%5s",
                &[Value::from_bytes(b"abcdef"), Value::from_bytes(b"ab")]
            ),
            "abc|   ab"
        );
    }
    #[test]
    fn short_argument_lists_are_reported() {
        assert!(check_format_args(b"%s %d%%\n", 2).is_ok());
        let e = check_format_args(b"%s %*d", 2).unwrap_err();
        assert!(e.ends_with("\t     ^ ran out for this one"), "{}", e);
        assert!(check_format_args(b"100%%", 0).is_ok());
    }

    #[test]
    fn numbers() {
        assert_eq!(num_to_str(0.1 + 0.2, b"%.6g"), b"0.3".to_vec());
        assert_eq!(num_to_str(1e20, b"%.6g"), b"100000000000000000000".to_vec());
        assert_eq!(num_to_str(2.5e-7, b"%.6g"), b"2.5e-07".to_vec());
        assert_eq!(looks_numeric(b" 12 "), Some(12.0));
        assert_eq!(looks_numeric(b"12abc"), None);
        assert_eq!(str_to_num(b"12abc"), 12.0);
    }
}
