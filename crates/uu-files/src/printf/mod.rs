//! `printf FORMAT [ARG]...`: GNU printf, reusing the format while
//! arguments remain.

pub mod numfmt;

use coreutils_core::bytes::os_bytes;
use coreutils_core::escapes::{escape as esc1, expand, Esc, Style};
use coreutils_core::io::{stdout, write_or_exit};
use coreutils_core::locale::utf8_locale;
use coreutils_core::quote::quote_bytes;
use numfmt::{fmt_float, fmt_signed, fmt_unsigned, pad, Spec};
use std::ffi::OsString;
use std::io::Write;

/// Formatting state: arguments consumed and whether errors occurred.
struct Ctx<'a> {
    args: &'a [&'a [u8]],
    next: usize,
    status: i32,
}

impl<'a> Ctx<'a> {
    fn take(&mut self) -> Option<&'a [u8]> {
        let a = self.args.get(self.next).copied();
        if a.is_some() {
            self.next += 1;
        }
        a
    }
    fn warn(&mut self, arg: &[u8], msg: &str) {
        eprintln!(
            "{}: {}: {}",
            coreutils_core::prog("printf"),
            quote_bytes(arg, true),
            msg
        );
        self.status = 1;
    }
}

/// Numeric value of a character constant argument (`'a` or `"a`).
fn char_const(a: &[u8]) -> Option<i128> {
    if a.len() >= 2 && (a[0] == b'\'' || a[0] == b'"') {
        let rest = &a[1..];
        let s = String::from_utf8_lossy(rest);
        return Some(match std::str::from_utf8(rest) {
            Ok(_) => s.chars().next().map_or(0, |c| c as i128),
            Err(_) => rest[0] as i128,
        });
    }
    None
}

/// Parse an integer argument like strtoimax with GNU's diagnostics.
fn parse_int(ctx: &mut Ctx, a: &[u8]) -> i128 {
    if let Some(v) = char_const(a) {
        return v;
    }
    if a.is_empty() {
        // GNU reads an empty argument as 0 without a complaint
        return 0;
    }
    let s = String::from_utf8_lossy(a);
    let t = s.trim_start();
    let (neg, body) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let (radix, digits) = if body.starts_with("0x") || body.starts_with("0X") {
        (16, &body[2..])
    } else if body.starts_with('0') && body.len() > 1 {
        (8, &body[1..])
    } else {
        (10, body)
    };
    let end = digits
        .char_indices()
        .find(|(_, c)| !c.is_digit(radix))
        .map_or(digits.len(), |(i, _)| i);
    if end == 0 && radix != 8 {
        ctx.warn(a, "expected a numeric value");
        return 0;
    }
    let mut v: i128 = 0;
    let mut overflow = false;
    for c in digits[..end].chars() {
        let d = c.to_digit(radix).unwrap_or(0) as i128;
        v = v * radix as i128 + d;
        if v > u64::MAX as i128 {
            overflow = true;
            v = u64::MAX as i128;
        }
    }
    if neg {
        v = -v;
    }
    if overflow || v < i64::MIN as i128 {
        ctx.warn(a, "Numerical result out of range");
    } else if end < digits.len() {
        ctx.warn(a, "value not completely converted");
    }
    v
}

/// Parse a float argument like strtold.
fn parse_float(ctx: &mut Ctx, a: &[u8]) -> f64 {
    if let Some(v) = char_const(a) {
        return v as f64;
    }
    if a.is_empty() {
        return 0.0;
    }
    let s = String::from_utf8_lossy(a);
    let t = s.trim_start();
    if let Some(v) = parse_hex_float(t) {
        return v;
    }
    // Longest prefix that parses.
    let mut best: Option<(usize, f64)> = None;
    for (i, _) in t
        .char_indices()
        .skip(1)
        .chain(std::iter::once((t.len(), ' ')))
    {
        let p = &t[..i];
        let lower = p.to_ascii_lowercase();
        if lower.ends_with("infinity")
            || lower.ends_with("inf")
            || lower.ends_with("nan")
            || p.bytes()
                .last()
                .map_or(false, |c| c.is_ascii_digit() || c == b'.')
        {
            if let Ok(v) = p.parse::<f64>() {
                best = Some((i, v));
            }
        }
    }
    match best {
        Some((n, v)) => {
            if n < t.len() {
                ctx.warn(a, "value not completely converted");
            }
            v
        }
        None => {
            ctx.warn(a, "expected a numeric value");
            0.0
        }
    }
}

fn parse_hex_float(t: &str) -> Option<f64> {
    let (neg, b) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let b = b.strip_prefix("0x").or_else(|| b.strip_prefix("0X"))?;
    let (m, e) = match b.find(['p', 'P']) {
        Some(i) => (&b[..i], b[i + 1..].parse::<i32>().ok()?),
        None => (b, 0),
    };
    let mut v = 0f64;
    let mut scale = 0i32;
    let mut frac = false;
    for c in m.chars() {
        if c == '.' {
            frac = true;
            continue;
        }
        v = v * 16.0 + c.to_digit(16)? as f64;
        if frac {
            scale -= 4;
        }
    }
    let r = v * 2f64.powi(e + scale);
    Some(if neg { -r } else { r })
}

/// Format once; returns false when `\c` asked to stop all output.
fn format_once(out: &mut Vec<u8>, fmt: &[u8], ctx: &mut Ctx) -> Result<bool, String> {
    let mut i = 0;
    while i < fmt.len() {
        let c = fmt[i];
        if c == b'\\' {
            if fmt.get(i + 1) == Some(&b'x')
                && !fmt.get(i + 2).map_or(false, |d| d.is_ascii_hexdigit())
            {
                return Err("missing hexadecimal number in escape".to_string());
            }
            match esc1(&fmt[i..], Style::Format, utf8_locale()) {
                Esc::Bytes(b, n) => {
                    out.extend_from_slice(&b);
                    i += n;
                }
                Esc::Stop => return Ok(false),
            }
            continue;
        }
        if c != b'%' {
            out.push(c);
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        if fmt.get(i) == Some(&b'%') {
            out.push(b'%');
            i += 1;
            continue;
        }
        let mut spec = Spec::default();
        spec.read_flags(fmt, &mut i);
        if fmt.get(i) == Some(&b'*') {
            i += 1;
            let a = ctx.take().unwrap_or(b"0");
            let w = parse_int(ctx, a);
            if w < 0 {
                spec.left = true;
            }
            spec.width = w.unsigned_abs().min(1 << 20) as usize;
        } else {
            while let Some(d) = fmt.get(i).filter(|d| d.is_ascii_digit()) {
                spec.width = spec
                    .width
                    .saturating_mul(10)
                    .saturating_add((d - b'0') as usize);
                i += 1;
            }
        }
        if fmt.get(i) == Some(&b'.') {
            i += 1;
            if fmt.get(i) == Some(&b'*') {
                i += 1;
                let a = ctx.take().unwrap_or(b"0");
                let p = parse_int(ctx, a);
                spec.prec = if p < 0 {
                    None
                } else {
                    Some(p.min(1 << 20) as usize)
                };
            } else {
                let mut p = 0usize;
                while let Some(d) = fmt.get(i).filter(|d| d.is_ascii_digit()) {
                    p = p.saturating_mul(10).saturating_add((d - b'0') as usize);
                    i += 1;
                }
                spec.prec = Some(p);
            }
        }
        // Length modifiers are accepted and ignored.
        while let Some(b'h' | b'l' | b'L' | b'j' | b'z' | b't') = fmt.get(i) {
            i += 1;
        }
        let conv = match fmt.get(i) {
            Some(&c) => c,
            None => {
                return Err(format!(
                    "{}: invalid conversion specification",
                    String::from_utf8_lossy(&fmt[start..])
                ))
            }
        };
        i += 1;
        match conv {
            b'd' | b'i' => {
                let v = ctx.take().map_or(0, |a| parse_int(ctx, a));
                let v = v.clamp(i64::MIN as i128, i64::MAX as i128);
                fmt_signed(out, v, &spec);
            }
            b'u' | b'o' | b'x' | b'X' => {
                let v = ctx.take().map_or(0, |a| parse_int(ctx, a));
                let u = if v < 0 {
                    (v as i64) as u64
                } else {
                    v.min(u64::MAX as i128) as u64
                };
                fmt_unsigned(out, u, conv, &spec);
            }
            b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => {
                let v = ctx.take().map_or(0.0, |a| parse_float(ctx, a));
                fmt_float(out, v, conv, &spec);
            }
            b'c' => {
                let a = ctx.take().unwrap_or(b"");
                let body: &[u8] = if a.is_empty() { b"\0" } else { &a[..1] };
                pad(out, b"", body, &spec, false);
            }
            b's' => {
                let a = ctx.take().unwrap_or(b"");
                let a = match spec.prec {
                    Some(p) if p < a.len() => &a[..p],
                    _ => a,
                };
                pad(out, b"", a, &spec, false);
            }
            b'b' => {
                let a = ctx.take().unwrap_or(b"");
                let (mut e, stop) = expand(a, Style::PercentB, utf8_locale());
                if let Some(p) = spec.prec {
                    e.truncate(p);
                }
                pad(out, b"", &e, &spec, false);
                if stop {
                    return Ok(false);
                }
            }
            b'q' => {
                let a = ctx.take().unwrap_or(b"");
                let q = if a.is_empty() {
                    "''".to_string()
                } else {
                    quote_bytes(a, false)
                };
                pad(out, b"", q.as_bytes(), &spec, false);
            }
            _ => {
                return Err(format!(
                    "{}: invalid conversion specification",
                    String::from_utf8_lossy(&fmt[start..i])
                ))
            }
        }
    }
    Ok(true)
}

/// Count conversions that consume arguments, to know whether to loop.
fn consumes_args(ctx_next_before: usize, ctx_next_after: usize) -> bool {
    ctx_next_after > ctx_next_before
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let rest: Vec<&[u8]> = args.iter().skip(1).map(|a| os_bytes(a)).collect();
    if rest.len() == 1 && rest[0] == b"--help" {
        print!("Usage: printf FORMAT [ARGUMENT]...\n  or:  printf OPTION\nPrint ARGUMENT(s) according to FORMAT.\n");
        return 0;
    }
    if rest.len() == 1 && rest[0] == b"--version" {
        println!("printf (Sandglass coreutils) {}", env!("CARGO_PKG_VERSION"));
        return 0;
    }
    let rest: &[&[u8]] = if rest.first() == Some(&&b"--"[..]) {
        &rest[1..]
    } else {
        &rest
    };
    let fmt = match rest.first() {
        Some(f) => *f,
        None => return coreutils_core::args::missing_operand("printf", 1),
    };
    let mut ctx = Ctx {
        args: &rest[1..],
        next: 0,
        status: 0,
    };
    let mut out = stdout();
    let mut buf = Vec::with_capacity(256);
    // `\c` ends all output, excess arguments unreported
    let mut stopped = false;
    loop {
        let before = ctx.next;
        buf.clear();
        let r = format_once(&mut buf, fmt, &mut ctx);
        write_or_exit(&mut out, &buf);
        match r {
            Ok(true) => {}
            Ok(false) => {
                stopped = true;
                break;
            }
            Err(msg) => {
                let _ = out.flush();
                eprintln!("{}: {}", coreutils_core::prog("printf"), msg);
                return 1;
            }
        }
        if ctx.next >= ctx.args.len() || !consumes_args(before, ctx.next) {
            break;
        }
    }
    if !stopped && ctx.next < ctx.args.len() {
        let _ = out.flush();
        eprintln!(
            "{}: warning: ignoring excess arguments, starting with {}",
            coreutils_core::prog("printf"),
            quote_bytes(ctx.args[ctx.next], true)
        );
    }
    if let Err(e) = out.flush() {
        coreutils_core::io::exit_on_write_error(e);
    }
    ctx.status
}
