//! C-style number formatting (`%d %o %x %e %f %g %a` with flags, width and
//! precision) shared by `printf` and `seq -f`.

/// Flags and sizes of one conversion.
#[derive(Clone, Copy, Default, Debug)]
pub struct Spec {
    /// `-`: pad on the right.
    pub left: bool,
    /// `+`: always a sign.
    pub plus: bool,
    /// ` `: a space where a plus sign would be.
    pub space: bool,
    /// `#`: alternate form.
    pub alt: bool,
    /// `0`: pad with zeros.
    pub zero: bool,
    /// Minimum field width.
    pub width: usize,
    /// Precision, when given.
    pub prec: Option<usize>,
}

impl Spec {
    /// Read the flag characters (`-+ #0` and the ignored `'`) at `f[*i..]`,
    /// leaving `*i` on the first byte that is not one.
    pub fn read_flags(&mut self, f: &[u8], i: &mut usize) {
        while let Some(&c) = f.get(*i) {
            match c {
                b'-' => self.left = true,
                b'+' => self.plus = true,
                b' ' => self.space = true,
                b'#' => self.alt = true,
                b'0' => self.zero = true,
                b'\'' => {}
                _ => break,
            }
            *i += 1;
        }
    }
}

/// Pad `body` (with `prefix` = sign/radix prefix) to the spec's width.
pub fn pad(out: &mut Vec<u8>, prefix: &[u8], body: &[u8], spec: &Spec, zero_ok: bool) {
    let len = prefix.len() + body.len();
    let fill = spec.width.saturating_sub(len);
    if spec.left {
        out.extend_from_slice(prefix);
        out.extend_from_slice(body);
        out.extend(std::iter::repeat(b' ').take(fill));
    } else if spec.zero && zero_ok {
        out.extend_from_slice(prefix);
        out.extend(std::iter::repeat(b'0').take(fill));
        out.extend_from_slice(body);
    } else {
        out.extend(std::iter::repeat(b' ').take(fill));
        out.extend_from_slice(prefix);
        out.extend_from_slice(body);
    }
}

fn sign_prefix(neg: bool, spec: &Spec) -> &'static [u8] {
    if neg {
        b"-"
    } else if spec.plus {
        b"+"
    } else if spec.space {
        b" "
    } else {
        b""
    }
}

/// Format a signed integer for `%d`/`%i`.
pub fn fmt_signed(out: &mut Vec<u8>, v: i128, spec: &Spec) {
    let neg = v < 0;
    let mut digits = v.unsigned_abs().to_string().into_bytes();
    if let Some(p) = spec.prec {
        if p == 0 && v == 0 {
            digits.clear();
        }
        while digits.len() < p {
            digits.insert(0, b'0');
        }
    }
    pad(
        out,
        sign_prefix(neg, spec),
        &digits,
        spec,
        spec.prec.is_none(),
    );
}

/// Format an unsigned integer for `%u %o %x %X`.
pub fn fmt_unsigned(out: &mut Vec<u8>, v: u64, conv: u8, spec: &Spec) {
    let mut digits = match conv {
        b'o' => format!("{:o}", v),
        b'x' => format!("{:x}", v),
        b'X' => format!("{:X}", v),
        _ => v.to_string(),
    }
    .into_bytes();
    if let Some(p) = spec.prec {
        if p == 0 && v == 0 {
            digits.clear();
        }
        while digits.len() < p {
            digits.insert(0, b'0');
        }
    }
    let mut prefix: &[u8] = b"";
    if spec.alt {
        match conv {
            b'o' if digits.first() != Some(&b'0') => digits.insert(0, b'0'),
            b'x' if v != 0 => prefix = b"0x",
            b'X' if v != 0 => prefix = b"0X",
            _ => {}
        }
    }
    pad(out, prefix, &digits, spec, spec.prec.is_none());
}

/// `d.ddde±XX` with `prec` fraction digits.
fn exp_form(v: f64, prec: usize, upper: bool) -> String {
    let s = format!("{:.*e}", prec, v);
    let (mant, exp) = match s.split_once('e') {
        Some(x) => x,
        None => return s,
    };
    let e: i32 = exp.parse().unwrap_or(0);
    let r = format!(
        "{}{}{}{:02}",
        mant,
        if upper { 'E' } else { 'e' },
        if e < 0 { '-' } else { '+' },
        e.abs()
    );
    r
}

fn strip_zeros(s: &mut String) {
    if s.contains('.') {
        while s.ends_with('0') {
            s.pop();
        }
        if s.ends_with('.') {
            s.pop();
        }
    }
}

/// Format a float for `%f %F %e %E %g %G %a %A`.
pub fn fmt_float(out: &mut Vec<u8>, v: f64, conv: u8, spec: &Spec) {
    let upper = conv.is_ascii_uppercase();
    let neg = v.is_sign_negative();
    let a = v.abs();
    if !a.is_finite() {
        let body = if a.is_nan() { "nan" } else { "inf" };
        let body = if upper {
            body.to_uppercase()
        } else {
            body.to_string()
        };
        pad(out, sign_prefix(neg, spec), body.as_bytes(), spec, false);
        return;
    }
    let prec = spec.prec.unwrap_or(6);
    let mut body = match conv.to_ascii_lowercase() {
        b'f' => coreutils_core::float::fixed(a, prec),
        b'e' => exp_form(a, prec, upper),
        b'g' => {
            let p = if prec == 0 { 1 } else { prec };
            let e = exp_form(a, p - 1, false);
            let x: i32 = e
                .rsplit_once('e')
                .and_then(|(_, x)| x.parse().ok())
                .unwrap_or(0);
            let mut s = if (p as i32) > x && x >= -4 {
                format!("{:.*}", (p as i32 - 1 - x) as usize, a)
            } else {
                exp_form(a, p - 1, upper)
            };
            if !spec.alt {
                match s.find(['e', 'E']) {
                    Some(i) => {
                        let tail = s.split_off(i);
                        strip_zeros(&mut s);
                        s.push_str(&tail);
                    }
                    None => strip_zeros(&mut s),
                }
            }
            s
        }
        _ => hex_float(a, spec.prec, upper),
    };
    if spec.alt && !body.contains('.') && !conv.eq_ignore_ascii_case(&b'a') {
        match body.find(['e', 'E']) {
            Some(i) => body.insert(i, '.'),
            None => body.push('.'),
        }
    }
    pad(out, sign_prefix(neg, spec), body.as_bytes(), spec, true);
}

/// `%a`: hexadecimal floating point the way glibc prints a `long double`
/// (GNU printf converts through one): a 64-bit mantissa whose first hex
/// digit holds the top four bits (`3` prints as `0xcp-2`).
fn hex_float(a: f64, prec: Option<usize>, upper: bool) -> String {
    let s = if a == 0.0 {
        match prec {
            Some(p) if p > 0 => format!("0x0.{}p+0", "0".repeat(p)),
            _ => "0x0p+0".to_string(),
        }
    } else {
        let bits = a.to_bits();
        let mut exp = ((bits >> 52) & 0x7ff) as i64;
        let mut frac = bits & ((1u64 << 52) - 1);
        if exp == 0 {
            let shift = frac.leading_zeros() as i64 - 11;
            frac = (frac << shift) & ((1u64 << 52) - 1);
            exp = 1 - shift;
        }
        let m: u64 = (1u64 << 63) | (frac << 11);
        let e = exp - 1023 - 3;
        let lead = m >> 60;
        let mut rest = format!("{:015x}", m & ((1u64 << 60) - 1));
        match prec {
            Some(p) if p < 15 => rest.truncate(p),
            Some(p) => {
                while rest.len() < p {
                    rest.push('0');
                }
            }
            None => {
                while rest.ends_with('0') {
                    rest.pop();
                }
            }
        }
        format!(
            "0x{:x}{}{}p{}{}",
            lead,
            if rest.is_empty() { "" } else { "." },
            rest,
            if e < 0 { '-' } else { '+' },
            e.abs()
        )
    };
    if upper {
        s.to_uppercase()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    fn f(v: f64, conv: u8, prec: Option<usize>) -> String {
        let mut o = Vec::new();
        let spec = Spec {
            prec,
            ..Spec::default()
        };
        fmt_float(&mut o, v, conv, &spec);
        String::from_utf8(o).unwrap()
    }
    #[test]
    fn floats_like_c() {
        assert_eq!(f(1.5, b'e', None), "1.500000e+00");
        assert_eq!(f(0.0001234, b'g', None), "0.0001234");
        assert_eq!(f(123456789.0, b'g', None), "1.23457e+08");
        assert_eq!(f(100.0, b'g', None), "100");
        assert_eq!(f(3.0, b'a', None), "0xcp-2");
        assert_eq!(f(-2.5, b'f', Some(2)), "-2.50");
        assert_eq!(f(f64::INFINITY, b'f', None), "inf");
    }
    #[test]
    fn ints_like_c() {
        let mut o = Vec::new();
        let spec = Spec {
            width: 6,
            zero: true,
            ..Spec::default()
        };
        fmt_signed(&mut o, -42, &spec);
        assert_eq!(o, b"-00042");
        o.clear();
        let spec = Spec {
            alt: true,
            ..Spec::default()
        };
        fmt_unsigned(&mut o, 255, b'x', &spec);
        assert_eq!(o, b"0xff");
    }
}
