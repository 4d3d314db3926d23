//! `seq [-s SEP] [-w] [-f FMT] [FIRST [INCR]] LAST`: number sequences,
//! exact for decimal operands (scaled integers), floating otherwise.

use crate::printf::numfmt::{fmt_float, Spec};
use coreutils_core::args::{
    extra_operand, long, missing_operand, parse, usage_error, HasArg, LongOpt, HELP, VERSION,
};
use coreutils_core::bytes::os_bytes;
use coreutils_core::io::{exit_on_write_error, stdout};
use coreutils_core::quote::quote_gnu;
use std::ffi::OsString;
use std::io::Write;

const LONGS: &[LongOpt] = &[
    long("separator", HasArg::Required, 's'),
    long("equal-width", HasArg::No, 'w'),
    long("format", HasArg::Required, 'f'),
    long("help", HasArg::No, HELP),
    long("version", HasArg::No, VERSION),
];

/// A decimal operand as `digits / 10^frac`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Dec {
    val: i128,
    frac: u32,
}

fn parse_dec(s: &str) -> Option<Dec> {
    let t = s.trim_start();
    let (neg, b) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    if b.is_empty() || b.len() > 30 {
        return None;
    }
    let (ip, fp) = match b.split_once('.') {
        Some((a, f)) => (a, f),
        None => (b, ""),
    };
    if (ip.is_empty() && fp.is_empty())
        || !ip.bytes().all(|c| c.is_ascii_digit())
        || !fp.bytes().all(|c| c.is_ascii_digit())
    {
        return None;
    }
    let mut v: i128 = 0;
    for c in ip.bytes().chain(fp.bytes()) {
        v = v.checked_mul(10)?.checked_add((c - b'0') as i128)?;
    }
    Some(Dec {
        val: if neg { -v } else { v },
        frac: fp.len() as u32,
    })
}

fn rescale(d: Dec, frac: u32) -> Option<i128> {
    d.val.checked_mul(10i128.checked_pow(frac - d.frac)?)
}

/// Adds one to a non-negative decimal number written in ASCII digits.
fn increment_digits(d: &mut Vec<u8>) {
    for c in d.iter_mut().rev() {
        if *c == b'9' {
            *c = b'0';
        } else {
            *c += 1;
            return;
        }
    }
    d.insert(0, b'1');
}

fn fmt_dec(out: &mut Vec<u8>, v: i128, frac: u32) {
    if frac == 0 {
        out.extend_from_slice(v.to_string().as_bytes());
        return;
    }
    let neg = v < 0;
    let s = v.unsigned_abs().to_string();
    let s = if s.len() <= frac as usize {
        format!("{}{}", "0".repeat(frac as usize + 1 - s.len()), s)
    } else {
        s
    };
    let (a, b) = s.split_at(s.len() - frac as usize);
    if neg {
        out.push(b'-');
    }
    out.extend_from_slice(a.as_bytes());
    out.push(b'.');
    out.extend_from_slice(b.as_bytes());
}

/// Split a `-f` format into prefix, spec, conversion and suffix.
fn parse_format(f: &[u8]) -> Result<(Vec<u8>, Spec, u8, Vec<u8>), String> {
    let mut i = 0;
    let mut prefix = Vec::new();
    while i < f.len() {
        if f[i] == b'%' {
            if f.get(i + 1) == Some(&b'%') {
                prefix.push(b'%');
                i += 2;
                continue;
            }
            break;
        }
        prefix.push(f[i]);
        i += 1;
    }
    let bad = || {
        format!(
            "format {} has no % directive",
            quote_gnu(&coreutils_core::bytes::os_from_bytes(f))
        )
    };
    if i >= f.len() {
        return Err(bad());
    }
    let start = i;
    i += 1;
    let mut spec = Spec::default();
    spec.read_flags(f, &mut i);
    while let Some(d) = f.get(i).filter(|d| d.is_ascii_digit()) {
        spec.width = spec.width * 10 + (d - b'0') as usize;
        i += 1;
    }
    if f.get(i) == Some(&b'.') {
        i += 1;
        let mut p = 0;
        while let Some(d) = f.get(i).filter(|d| d.is_ascii_digit()) {
            p = p * 10 + (d - b'0') as usize;
            i += 1;
        }
        spec.prec = Some(p);
    }
    if f.get(i) == Some(&b'L') {
        i += 1;
    }
    let conv = match f.get(i) {
        Some(&c) if b"eEfFgGaA".contains(&c) => c,
        _ => {
            return Err(format!(
                "format {} has unknown %{} directive",
                quote_gnu(&coreutils_core::bytes::os_from_bytes(f)),
                String::from_utf8_lossy(&f[start + 1..(i + 1).min(f.len())])
            ))
        }
    };
    i += 1;
    let mut suffix = Vec::new();
    while i < f.len() {
        if f[i] == b'%' {
            if f.get(i + 1) == Some(&b'%') {
                suffix.push(b'%');
                i += 2;
                continue;
            }
            return Err(format!(
                "format {} has too many % directives",
                quote_gnu(&coreutils_core::bytes::os_from_bytes(f))
            ));
        }
        suffix.push(f[i]);
        i += 1;
    }
    Ok((prefix, spec, conv, suffix))
}

fn parse_float(s: &str) -> Option<f64> {
    let t = s.trim_start();
    let l = t.to_ascii_lowercase();
    if l.contains("nan") {
        return Some(f64::NAN);
    }
    t.parse::<f64>().ok()
}

/// A hexadecimal integer operand (`0x10`, which GNU reads with strtold)
/// in decimal.
fn hex_integer(s: &str) -> Option<String> {
    let (sign, rest) = match s.strip_prefix('-') {
        Some(r) => ("-", r),
        None => ("", s.strip_prefix('+').unwrap_or(s)),
    };
    let digits = rest
        .strip_prefix("0x")
        .or_else(|| rest.strip_prefix("0X"))?;
    let n = u128::from_str_radix(digits, 16).ok()?;
    Some(format!("{}{}", sign, n))
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    // Negative numbers are operands, not options: stop option parsing at
    // the first argument that looks like one.
    let mut split = args.len();
    for (i, a) in args.iter().enumerate().skip(1) {
        let b = os_bytes(a);
        if b.len() >= 2 && b[0] == b'-' && (b[1].is_ascii_digit() || b[1] == b'.') {
            split = i;
            break;
        }
    }
    let p = match parse(&args[1..split], "s:wf:", LONGS) {
        Ok(p) => p,
        Err(e) => return usage_error("seq", &e.message, 1),
    };
    if let Some(c) = coreutils_core::args::std_opts("seq", &p, "Usage: seq [OPTION]... LAST\n  or:  seq [OPTION]... FIRST LAST\n  or:  seq [OPTION]... FIRST INCREMENT LAST\nPrint numbers from FIRST to LAST, in steps of INCREMENT.\n") {
        return c;
    }
    let mut ops: Vec<String> = p
        .operands
        .iter()
        .map(|o| o.to_string_lossy().into_owned())
        .collect();
    ops.extend(
        args[split..]
            .iter()
            .map(|o| o.to_string_lossy().into_owned()),
    );
    // GNU's -w takes no width from a hexadecimal operand.
    let mut hex = Vec::with_capacity(ops.len());
    for o in ops.iter_mut() {
        let h = hex_integer(o);
        hex.push(h.is_some());
        if let Some(d) = h {
            *o = d;
        }
    }
    if ops.is_empty() {
        return missing_operand("seq", 1);
    }
    if ops.len() > 3 {
        return extra_operand("seq", &OsString::from(&ops[3]), 1);
    }
    let sep: Vec<u8> = p
        .last('s')
        .map(|s| os_bytes(s).to_vec())
        .unwrap_or_else(|| b"\n".to_vec());
    let width = p.has('w');
    let fmt = match p.last('f') {
        Some(f) => match parse_format(os_bytes(f)) {
            Ok(x) => Some(x),
            Err(m) => {
                eprintln!("{}: {}", coreutils_core::prog("seq"), m);
                return 1;
            }
        },
        None => None,
    };
    if fmt.is_some() && width {
        return usage_error(
            "seq",
            "format string may not be specified when printing equal width strings",
            1,
        );
    }
    for o in &ops {
        if parse_float(o).map_or(false, f64::is_nan) {
            return usage_error(
                "seq",
                &format!(
                    "invalid 'not-a-number' argument: {}",
                    quote_gnu(&OsString::from(o))
                ),
                1,
            );
        }
        if parse_float(o).is_none() {
            return usage_error(
                "seq",
                &format!(
                    "invalid floating point argument: {}",
                    quote_gnu(&OsString::from(o))
                ),
                1,
            );
        }
    }
    let first_hex = ops.len() > 1 && hex[0];
    let last_hex = hex.last() == Some(&true);
    let (first_s, incr_s, last_s) = match ops.len() {
        1 => ("1".to_string(), "1".to_string(), ops[0].clone()),
        2 => (ops[0].clone(), "1".to_string(), ops[1].clone()),
        _ => (ops[0].clone(), ops[1].clone(), ops[2].clone()),
    };
    if parse_float(&incr_s) == Some(0.0) {
        return usage_error(
            "seq",
            &format!(
                "invalid Zero increment value: {}",
                quote_gnu(&OsString::from(&incr_s))
            ),
            1,
        );
    }
    let mut out = stdout();
    let mut buf: Vec<u8> = Vec::with_capacity(80 * 1024);
    let mut emitted = false;
    let mut emit = |item: &[u8], out: &mut dyn Write, buf: &mut Vec<u8>| {
        if emitted {
            buf.extend_from_slice(&sep);
        }
        emitted = true;
        buf.extend_from_slice(item);
        if buf.len() >= 64 * 1024 {
            if let Err(e) = out.write_all(buf) {
                exit_on_write_error(e);
            }
            buf.clear();
        }
    };
    let decs = (parse_dec(&first_s), parse_dec(&incr_s), parse_dec(&last_s));
    let mut item = Vec::with_capacity(64);
    match (decs, &fmt) {
        ((Some(a), Some(d), Some(z)), None) => {
            // Exact path: output precision follows FIRST and INCREMENT.
            let out_frac = a.frac.max(d.frac);
            let scale = out_frac.max(z.frac);
            let (a2, d2, z2) = match (rescale(a, scale), rescale(d, scale), rescale(z, scale)) {
                (Some(x), Some(y), Some(w)) => (x, y, w),
                _ => return 1,
            };
            let div = 10i128.pow(scale - out_frac);
            let w = if width {
                let mut s1 = Vec::new();
                if !first_hex {
                    fmt_dec(&mut s1, a2 / div, out_frac);
                }
                let mut s2 = Vec::new();
                // The largest value printed has the width of LAST truncated.
                let last_val = z2 / div;
                if !last_hex {
                    fmt_dec(&mut s2, last_val, out_frac);
                }
                s1.len().max(s2.len())
            } else {
                0
            };
            let mut v = a2;
            // Counting up by one in whole numbers (`seq N`, `seq A B`): the
            // decimal text is incremented in place, as GNU does, instead of
            // formatting an i128 per line.
            let counting = scale == 0 && d2 == 1 && w == 0 && v >= 0;
            if counting {
                fmt_dec(&mut item, v, 0);
            }
            while (d2 > 0 && v <= z2) || (d2 < 0 && v >= z2) {
                if !counting {
                    item.clear();
                    fmt_dec(&mut item, v / div, out_frac);
                    if item.len() < w {
                        let neg = item.first() == Some(&b'-');
                        let pad = w - item.len();
                        let at = if neg { 1 } else { 0 };
                        item.splice(at..at, std::iter::repeat(b'0').take(pad));
                    }
                }
                emit(&item, &mut out, &mut buf);
                v += d2;
                if counting {
                    increment_digits(&mut item);
                }
            }
        }
        _ => {
            let a = parse_float(&first_s).unwrap_or(0.0);
            let d = parse_float(&incr_s).unwrap_or(1.0);
            let z = parse_float(&last_s).unwrap_or(0.0);
            let (prefix, spec, conv, suffix) =
                fmt.clone()
                    .unwrap_or((Vec::new(), Spec::default(), b'g', Vec::new()));
            let mut i = 0u64;
            loop {
                let v = a + (i as f64) * d;
                if (d > 0.0 && v > z) || (d < 0.0 && v < z) || v.is_nan() {
                    break;
                }
                item.clear();
                item.extend_from_slice(&prefix);
                fmt_float(&mut item, v, conv, &spec);
                item.extend_from_slice(&suffix);
                emit(&item, &mut out, &mut buf);
                i += 1;
                if !d.is_finite() || !a.is_finite() {
                    break;
                }
            }
        }
    }
    if emitted {
        buf.push(b'\n');
    }
    if let Err(e) = out.write_all(&buf).and_then(|_| out.flush()) {
        exit_on_write_error(e);
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn decimals() {
        assert_eq!(parse_dec("1.50"), Some(Dec { val: 150, frac: 2 }));
        assert_eq!(parse_dec("-3"), Some(Dec { val: -3, frac: 0 }));
        assert_eq!(parse_dec("1e3"), None);
        let mut o = Vec::new();
        fmt_dec(&mut o, -5, 2);
        assert_eq!(o, b"-0.05");
    }

    #[test]
    fn counting_text_matches_formatting() {
        let mut d = b"0".to_vec();
        for v in 0..12_000i128 {
            let mut want = Vec::new();
            fmt_dec(&mut want, v, 0);
            assert_eq!(d, want);
            increment_digits(&mut d);
        }
        let mut d = b"999".to_vec();
        increment_digits(&mut d);
        assert_eq!(d, b"1000");
    }
}
