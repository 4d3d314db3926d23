//! `numfmt`: convert numbers to and from human-readable forms
//! (`--from/--to` si, iec, iec-i, auto; `--suffix`, `--padding`,
//! `--field`, `--format`, `--round`, `--header`, `--delimiter`).

use std::ffi::OsString;
use std::io::Read;

use crate::common::bytes::os_bytes;
use crate::common::input::{finish, put, stdout};
use crate::common::ranges::{contains, parse_list, Ranges};
use coreutils_core::args::{opt, HasArg, OptSpec, Spec, Usage};

const USAGE: Usage = Usage::new("numfmt", "[OPTION]... [NUMBER]...\nReformat NUMBER(s), or the numbers from standard input if none are specified.\n", 1);

const SPEC: &[OptSpec<&str>] = &[
    opt("from", None, Some("from"), HasArg::Required),
    opt("from-unit", None, Some("from-unit"), HasArg::Required),
    opt("to", None, Some("to"), HasArg::Required),
    opt("to-unit", None, Some("to-unit"), HasArg::Required),
    opt("suffix", None, Some("suffix"), HasArg::Required),
    opt("padding", None, Some("padding"), HasArg::Required),
    opt("field", None, Some("field"), HasArg::Required),
    opt("format", None, Some("format"), HasArg::Required),
    opt("round", None, Some("round"), HasArg::Required),
    opt("header", None, Some("header"), HasArg::Optional),
    opt("d", Some('d'), Some("delimiter"), HasArg::Required),
    opt("invalid", None, Some("invalid"), HasArg::Required),
    opt("grouping", None, Some("grouping"), HasArg::No),
    opt("z", Some('z'), Some("zero-terminated"), HasArg::No),
    opt("debug", None, Some("debug"), HasArg::No),
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Scale {
    None,
    Si,
    Iec,
    IecI,
    Auto,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Round {
    Up,
    Down,
    FromZero,
    TowardsZero,
    Nearest,
}

struct Cfg {
    from: Scale,
    to: Scale,
    from_unit: f64,
    to_unit: f64,
    suffix: Option<String>,
    padding: i64,
    round: Round,
    fmt_prefix: String,
    fmt_suffix: String,
    fmt_width: i64,
    fmt_zero: bool,
    precision: Option<usize>,
    invalid: u8,
}

fn scale_arg(s: &str, what: &str) -> Result<Scale, String> {
    Ok(match s {
        "none" => Scale::None,
        "si" => Scale::Si,
        "iec" => Scale::Iec,
        "iec-i" => Scale::IecI,
        "auto" if what == "from" => Scale::Auto,
        _ => {
            let valid = if what == "from" {
                "  - 'none'\n  - 'auto'\n  - 'si'\n  - 'iec'\n  - 'iec-i'"
            } else {
                "  - 'none'\n  - 'si'\n  - 'iec'\n  - 'iec-i'"
            };
            return Err(format!(
                "invalid argument '{}' for '--{}'\nValid arguments are:\n{}",
                s, what, valid
            ));
        }
    })
}

const SUFFIXES: &[u8] = b"KMGTPEZYRQ";

fn round(v: f64, r: Round) -> f64 {
    match r {
        Round::Up => v.ceil(),
        Round::Down => v.floor(),
        Round::FromZero => {
            if v < 0.0 {
                v.floor()
            } else {
                v.ceil()
            }
        }
        Round::TowardsZero => v.trunc(),
        Round::Nearest => v.round(),
    }
}

/// Parse one input number, applying `--from`.
fn parse_num(s: &str, c: &Cfg) -> Result<(f64, usize), String> {
    let mut t = s.trim_start();
    if let Some(suf) = &c.suffix {
        if let Some(r) = t.strip_suffix(suf.as_str()) {
            t = r;
        }
    }
    let b = t.as_bytes();
    let mut i = 0;
    if i < b.len() && (b[i] == b'-' || b[i] == b'+') {
        i += 1;
    }
    let ds = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let mut frac_digits = 0;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        let fs = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        frac_digits = i - fs;
    }
    if i == ds || (i == ds + 1 && b.get(ds) == Some(&b'.')) {
        return Err(format!("invalid number: '{}'", s));
    }
    let v: f64 = t[..i]
        .parse()
        .map_err(|_| format!("invalid number: '{}'", s))?;
    let rest = &t[i..];
    if rest.is_empty() {
        return Ok((v * c.from_unit, frac_digits));
    }
    let rb = rest.as_bytes();
    let pos = SUFFIXES
        .iter()
        .position(|&x| x == rb[0].to_ascii_uppercase());
    let pos = match pos {
        Some(p) => p,
        None => return Err(format!("invalid suffix in input: '{}'", s)),
    };
    if c.from == Scale::None {
        return Err(format!(
            "rejecting suffix in input: '{}' (consider using --from)",
            s
        ));
    }
    let has_i = rb.get(1) == Some(&b'i');
    let tail_len = 1 + usize::from(has_i);
    if rb.len() > tail_len {
        return Err(format!("invalid suffix in input: '{}'", s));
    }
    let base = match c.from {
        Scale::Si => {
            if has_i {
                return Err(format!("invalid suffix in input: '{}'", s));
            }
            1000.0
        }
        Scale::Iec => {
            if has_i {
                return Err(format!("invalid suffix in input: '{}'", s));
            }
            1024.0
        }
        Scale::IecI => {
            if !has_i {
                return Err(format!(
                    "missing 'i' suffix in input: '{}' (e.g Ki/Mi/Gi)",
                    s
                ));
            }
            1024.0
        }
        _ => {
            if has_i {
                1024.0
            } else {
                1000.0
            }
        }
    };
    Ok((v * f64::powi(base, pos as i32 + 1) * c.from_unit, 0))
}

fn human(v: f64, c: &Cfg) -> String {
    let v = v / c.to_unit;
    let base = if c.to == Scale::Si { 1000.0 } else { 1024.0 };
    let mut val = v;
    let mut power = 0usize;
    while val.abs() >= base && power < SUFFIXES.len() {
        val /= base;
        power += 1;
    }
    let adjust = match c.precision {
        Some(p) => p.min(power * 3),
        None => usize::from(val.abs() < 10.0),
    };
    let sc = 10f64.powi(adjust as i32);
    val = round(val * sc, c.round) / sc;
    if val.abs() >= base && power < SUFFIXES.len() {
        val /= base;
        power += 1;
    }
    let show_dec = val != 0.0 && val.abs() < 10.0 && power > 0;
    let prec = match c.precision {
        Some(p) => p,
        None => usize::from(show_dec),
    };
    let mut s = format!("{:.*}", prec, val);
    if power > 0 {
        s.push(SUFFIXES[power - 1] as char);
        if c.to == Scale::IecI {
            s.push('i');
        }
    }
    s
}

fn format_value(v: f64, frac: usize, c: &Cfg) -> String {
    let mut s = if c.to == Scale::None {
        let v = v / c.to_unit;
        match c.precision {
            Some(p) => {
                let sc = 10f64.powi(p as i32);
                format!("{:.*}", p, round(v * sc, c.round) / sc)
            }
            None => {
                if frac == 0 {
                    let r = round(v, c.round);
                    format!("{:.0}", r)
                } else {
                    format!("{:.*}", frac, v)
                }
            }
        }
    } else {
        human(v, c)
    };
    if let Some(suf) = &c.suffix {
        s.push_str(suf);
    }
    if c.fmt_width != 0 {
        let w = c.fmt_width.unsigned_abs() as usize;
        if c.fmt_width < 0 {
            s = format!("{:<w$}", s, w = w);
        } else if c.fmt_zero && s.len() < w {
            let (sign, body) = if let Some(b) = s.strip_prefix('-') {
                ("-", b.to_string())
            } else {
                ("", s.clone())
            };
            s = format!("{}{}{}", sign, "0".repeat(w - s.len()), body);
        } else {
            s = format!("{:>w$}", s, w = w);
        }
    }
    s = format!("{}{}{}", c.fmt_prefix, s, c.fmt_suffix);
    if c.padding != 0 {
        let w = c.padding.unsigned_abs() as usize;
        s = if c.padding < 0 {
            format!("{:<w$}", s, w = w)
        } else {
            format!("{:>w$}", s, w = w)
        };
    }
    s
}

fn parse_format(f: &str, c: &mut Cfg) -> Result<(), String> {
    let bad = || {
        format!(
            "invalid format '{}', directive must be %[0]['][-][N][.][N]f",
            f
        )
    };
    let p = f
        .find('%')
        .ok_or_else(|| format!("format '{}' has no % directive", f))?;
    let mut rest = &f[p + 1..];
    if rest.starts_with('%') {
        return Err(format!("format '{}' has no % directive", f));
    }
    c.fmt_prefix = f[..p].to_string();
    let mut left = false;
    loop {
        match rest.chars().next() {
            Some('-') => left = true,
            Some('0') => c.fmt_zero = true,
            Some('\'') => {}
            _ => break,
        }
        rest = &rest[1..];
    }
    let wend = rest
        .bytes()
        .position(|b| !b.is_ascii_digit())
        .unwrap_or(rest.len());
    let w: i64 = if wend > 0 {
        rest[..wend].parse().map_err(|_| bad())?
    } else {
        0
    };
    c.fmt_width = if left { -w } else { w };
    rest = &rest[wend..];
    if let Some(r) = rest.strip_prefix('.') {
        let pend = r
            .bytes()
            .position(|b| !b.is_ascii_digit())
            .unwrap_or(r.len());
        c.precision = Some(if pend == 0 {
            0
        } else {
            r[..pend].parse().map_err(|_| bad())?
        });
        rest = &r[pend..];
    }
    let r = rest.strip_prefix('f').ok_or_else(bad)?;
    if r.contains('%') {
        return Err(format!("format '{}' has too many % directives", f));
    }
    c.fmt_suffix = r.to_string();
    Ok(())
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match USAGE.parse(&Spec::gnu(SPEC), &args[1.min(args.len())..]) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let mut c = Cfg {
        from: Scale::None,
        to: Scale::None,
        from_unit: 1.0,
        to_unit: 1.0,
        suffix: p.last_str("suffix"),
        padding: 0,
        round: Round::FromZero,
        fmt_prefix: String::new(),
        fmt_suffix: String::new(),
        fmt_width: 0,
        fmt_zero: false,
        precision: None,
        invalid: 0,
    };
    if let Some(s) = p.last_str("from") {
        match scale_arg(&s, "from") {
            Ok(v) => c.from = v,
            Err(m) => return USAGE.fail(&m),
        }
    }
    if let Some(s) = p.last_str("to") {
        match scale_arg(&s, "to") {
            Ok(v) => c.to = v,
            Err(m) => return USAGE.fail(&m),
        }
    }
    for (id, slot) in [("from-unit", 0), ("to-unit", 1)] {
        if let Some(s) = p.last_str(id) {
            match s.parse::<f64>() {
                Ok(v) if v > 0.0 => {
                    if slot == 0 {
                        c.from_unit = v
                    } else {
                        c.to_unit = v
                    }
                }
                _ => return USAGE.die(1, &format!("invalid unit size: '{}'", s)),
            }
        }
    }
    if let Some(s) = p.last_str("padding") {
        match s.parse::<i64>() {
            Ok(v) if v != 0 => c.padding = v,
            _ => return USAGE.die(1, &format!("invalid padding value '{}'", s)),
        }
    }
    if let Some(s) = p.last_str("round") {
        c.round = match s.as_str() {
            "up" => Round::Up,
            "down" => Round::Down,
            "from-zero" => Round::FromZero,
            "towards-zero" => Round::TowardsZero,
            "nearest" => Round::Nearest,
            _ => return USAGE.fail(&format!("invalid argument '{}' for '--round'\nValid arguments are:\n  - 'up'\n  - 'down'\n  - 'from-zero'\n  - 'towards-zero'\n  - 'nearest'", s)),
        };
    }
    if let Some(s) = p.last_str("invalid") {
        c.invalid = match s.as_str() {
            "abort" => 0,
            "fail" => 1,
            "warn" => 2,
            "ignore" => 3,
            _ => return USAGE.fail(&format!("invalid argument '{}' for '--invalid'\nValid arguments are:\n  - 'abort'\n  - 'fail'\n  - 'warn'\n  - 'ignore'", s)),
        };
    }
    if let Some(f) = p.last_str("format") {
        if let Err(m) = parse_format(&f, &mut c) {
            return USAGE.die(1, &m);
        }
    }
    let fields: Ranges = match p.last_str("field") {
        Some(f) => match parse_list(&f, true) {
            Ok(r) => r,
            Err(m) => return USAGE.die(1, &m),
        },
        None => vec![(1, 1)],
    };
    let delim: Option<u8> = match p.last("d") {
        Some(d) => {
            let b = os_bytes(d);
            if b.len() != 1 {
                return USAGE.die(1, "the delimiter must be a single character");
            }
            Some(b[0])
        }
        None => None,
    };
    let header = if p.has("header") {
        match p.last_str("header") {
            Some(s) => match s.parse::<usize>() {
                Ok(n) if n > 0 => n,
                _ => return USAGE.die(1, &format!("invalid header value '{}'", s)),
            },
            None => 1,
        }
    } else {
        0
    };
    let eol = if p.has("z") { 0 } else { b'\n' };
    let mut out = stdout();
    let mut status = 0;
    let mut convert_line = |line: &str, out: &mut crate::common::input::Out| -> Result<(), i32> {
        let mut o = String::new();
        // Fields: with -d split on it; otherwise on runs of blanks, keeping them.
        let mut parts: Vec<(String, String)> = Vec::new();
        match delim {
            Some(d) => {
                for f in line.split(d as char) {
                    parts.push((String::new(), f.to_string()));
                }
            }
            None => {
                let b = line.as_bytes();
                let mut i = 0;
                while i < b.len() {
                    let ws = i;
                    while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
                        i += 1;
                    }
                    let fs = i;
                    while i < b.len() && !(b[i] == b' ' || b[i] == b'\t') {
                        i += 1;
                    }
                    parts.push((line[ws..fs].to_string(), line[fs..i].to_string()));
                }
            }
        }
        for (k, (ws, f)) in parts.iter().enumerate() {
            if k > 0 {
                if let Some(d) = delim {
                    o.push(d as char);
                }
            }
            o.push_str(ws);
            if contains(&fields, k + 1) {
                match parse_num(f, &c) {
                    Ok((v, frac)) => {
                        let s = format_value(v, frac, &c);
                        // GNU keeps a blank-separated field's width when no
                        // padding was asked for.
                        if delim.is_none() && !ws.is_empty() && c.padding == 0 && s.len() < f.len()
                        {
                            o.push_str(&" ".repeat(f.len() - s.len()));
                        }
                        o.push_str(&s);
                    }
                    Err(m) => {
                        match c.invalid {
                            0 => {
                                put(out, o.as_bytes());
                                let _ = std::io::Write::flush(out);
                                eprintln!("{}: {}", coreutils_core::prog("numfmt"), m);
                                return Err(2);
                            }
                            1 | 2 => {
                                eprintln!("{}: {}", coreutils_core::prog("numfmt"), m);
                                if c.invalid == 1 {
                                    status = 2;
                                }
                            }
                            _ => {}
                        }
                        o.push_str(f);
                    }
                }
            } else {
                o.push_str(f);
            }
        }
        o.push(eol as char);
        put(out, o.as_bytes());
        Ok(())
    };
    if !p.operands.is_empty() {
        for a in &p.operands {
            let s = a.to_string_lossy().into_owned();
            if let Err(code) = convert_line(&s, &mut out) {
                let _ = finish(&mut out, "numfmt", 0);
                return code;
            }
        }
    } else {
        let mut data = Vec::new();
        let _ = std::io::stdin().lock().read_to_end(&mut data);
        for (i, l) in crate::common::bytes::records(&data, eol).enumerate() {
            let s = String::from_utf8_lossy(l).into_owned();
            if i < header {
                put(&mut out, l);
                put(&mut out, &[eol]);
                continue;
            }
            if let Err(code) = convert_line(&s, &mut out) {
                let _ = finish(&mut out, "numfmt", 0);
                return code;
            }
        }
    }
    finish(&mut out, "numfmt", status)
}
