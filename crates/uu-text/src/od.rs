//! `od`: dump files in octal, hex, decimal, float and character formats
//! (`-A -t -N -j -v -w` and the classic `-b -c -d -o -x ...` shortcuts),
//! with GNU's column alignment and `*` for repeated lines.

use std::ffi::OsString;
use std::fmt::Write as _;

use crate::common::bytes::{disp, qf};
use crate::common::input::{err_text, finish, put, read_at_most, stdout};
use crate::common::num::parse_size;
use coreutils_core::args::{opt, HasArg, OptSpec, Spec, Usage};

const USAGE: Usage = Usage::new(
    "od",
    "[OPTION]... [FILE]...\nWrite an unambiguous representation of FILE to standard output.\n",
    1,
);

const SPEC: &[OptSpec<&str>] = &[
    opt("A", Some('A'), Some("address-radix"), HasArg::Required),
    opt("j", Some('j'), Some("skip-bytes"), HasArg::Required),
    opt("N", Some('N'), Some("read-bytes"), HasArg::Required),
    opt("S", Some('S'), Some("strings"), HasArg::Optional),
    opt("t", Some('t'), Some("format"), HasArg::Required),
    opt("v", Some('v'), Some("output-duplicates"), HasArg::No),
    opt("w", Some('w'), Some("width"), HasArg::Optional),
    opt("endian", None, Some("endian"), HasArg::Required),
    opt("a", Some('a'), None, HasArg::No),
    opt("b", Some('b'), None, HasArg::No),
    opt("c", Some('c'), None, HasArg::No),
    opt("d", Some('d'), None, HasArg::No),
    opt("D", Some('D'), None, HasArg::No),
    opt("e", Some('e'), None, HasArg::No),
    opt("f", Some('f'), None, HasArg::No),
    opt("F", Some('F'), None, HasArg::No),
    opt("h", Some('h'), None, HasArg::No),
    opt("H", Some('H'), None, HasArg::No),
    opt("i", Some('i'), None, HasArg::No),
    opt("I", Some('I'), None, HasArg::No),
    opt("l", Some('l'), None, HasArg::No),
    opt("L", Some('L'), None, HasArg::No),
    opt("o", Some('o'), None, HasArg::No),
    opt("O", Some('O'), None, HasArg::No),
    opt("s", Some('s'), None, HasArg::No),
    opt("x", Some('x'), None, HasArg::No),
    opt("X", Some('X'), None, HasArg::No),
];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Named,
    Char,
    Signed,
    Unsigned,
    Octal,
    Hex,
    Float,
}

#[derive(Clone, Copy, Debug)]
struct Fmt {
    kind: Kind,
    size: usize,
    width: usize,
    show_chars: bool,
}

fn width_of(kind: Kind, size: usize) -> usize {
    match kind {
        Kind::Named | Kind::Char => 3,
        Kind::Hex => 2 * size,
        Kind::Octal => (8 * size + 2) / 3,
        Kind::Unsigned => match size {
            1 => 3,
            2 => 5,
            4 => 10,
            _ => 20,
        },
        Kind::Signed => match size {
            1 => 4,
            2 => 6,
            4 => 11,
            _ => 20,
        },
        Kind::Float => match size {
            4 => 15,
            _ => 24,
        },
    }
}

fn mk(kind: Kind, size: usize) -> Fmt {
    Fmt {
        kind,
        size,
        width: width_of(kind, size),
        show_chars: false,
    }
}

fn parse_type(s: &str) -> Result<Vec<Fmt>, String> {
    let b = s.as_bytes();
    let mut v = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        i += 1;
        let kind = match c {
            b'a' => Kind::Named,
            b'c' => Kind::Char,
            b'd' => Kind::Signed,
            b'u' => Kind::Unsigned,
            b'o' => Kind::Octal,
            b'x' => Kind::Hex,
            b'f' => Kind::Float,
            _ => {
                return Err(format!(
                    "invalid character '{}' in type string '{}'",
                    c as char, s
                ))
            }
        };
        let mut size = match kind {
            Kind::Named | Kind::Char => 1,
            Kind::Float => 8,
            _ => 4,
        };
        if matches!(
            kind,
            Kind::Signed | Kind::Unsigned | Kind::Octal | Kind::Hex | Kind::Float
        ) && i < b.len()
        {
            let st = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            if i > st {
                let n: usize = s[st..i].parse().unwrap_or(0);
                let ok = if kind == Kind::Float {
                    n == 4 || n == 8
                } else {
                    matches!(n, 1 | 2 | 4 | 8)
                };
                if !ok {
                    return Err(format!(
                        "invalid type string '{}';\nthis system doesn't provide a {}-byte {} type",
                        s,
                        n,
                        if kind == Kind::Float {
                            "floating point"
                        } else {
                            "integral"
                        }
                    ));
                }
                size = n;
            } else if kind == Kind::Float {
                match b[i] {
                    b'F' => {
                        size = 4;
                        i += 1;
                    }
                    b'D' | b'L' => {
                        size = 8;
                        i += 1;
                    }
                    _ => {}
                }
            } else {
                match b[i] {
                    b'C' => {
                        size = 1;
                        i += 1;
                    }
                    b'S' => {
                        size = 2;
                        i += 1;
                    }
                    b'I' => {
                        size = 4;
                        i += 1;
                    }
                    b'L' => {
                        size = 8;
                        i += 1;
                    }
                    _ => {}
                }
            }
        }
        let mut f = mk(kind, size);
        if i < b.len() && b[i] == b'z' {
            f.show_chars = true;
            i += 1;
        }
        v.push(f);
    }
    Ok(v)
}

const NAMES: [&str; 33] = [
    "nul", "soh", "stx", "etx", "eot", "enq", "ack", "bel", "bs", "ht", "nl", "vt", "ff", "cr",
    "so", "si", "dle", "dc1", "dc2", "dc3", "dc4", "nak", "syn", "etb", "can", "em", "sub", "esc",
    "fs", "gs", "rs", "us", "sp",
];

/// C `%g`-style text of the shortest round-trip digits.
fn float_text(digits_e: String) -> String {
    // digits_e is Rust's `{:e}`: "-1.2345e22" / "inf" / "NaN".
    let (mant, exp) = match digits_e.split_once('e') {
        Some((m, e)) => (m.to_string(), e.parse::<i32>().unwrap_or(0)),
        None => return digits_e.to_lowercase(),
    };
    let neg = mant.starts_with('-');
    let digits: String = mant.chars().filter(|c| c.is_ascii_digit()).collect();
    let p = digits.len() as i32;
    let sign = if neg { "-" } else { "" };
    if exp < -4 || exp >= p.max(1) {
        let rest = &digits[1..];
        let m = if rest.is_empty() {
            digits[..1].to_string()
        } else {
            format!("{}.{}", &digits[..1], rest)
        };
        format!(
            "{}{}e{}{:02}",
            sign,
            m,
            if exp < 0 { '-' } else { '+' },
            exp.abs()
        )
    } else if exp >= 0 {
        let int_len = (exp + 1) as usize;
        if digits.len() <= int_len {
            format!("{}{}{}", sign, digits, "0".repeat(int_len - digits.len()))
        } else {
            format!("{}{}.{}", sign, &digits[..int_len], &digits[int_len..])
        }
    } else {
        format!("{}0.{}{}", sign, "0".repeat((-exp - 1) as usize), digits)
    }
}

fn field(f: &Fmt, bytes: &[u8]) -> String {
    let mut v: u64 = 0;
    for (k, &b) in bytes.iter().enumerate() {
        v |= u64::from(b) << (8 * k);
    }
    match f.kind {
        Kind::Hex => format!("{:0w$x}", v, w = f.width),
        Kind::Octal => format!("{:0w$o}", v, w = f.width),
        Kind::Unsigned => v.to_string(),
        Kind::Signed => {
            let shift = 64 - 8 * f.size as u32;
            (((v << shift) as i64) >> shift).to_string()
        }
        Kind::Float => {
            if f.size == 4 {
                let x = f32::from_bits(v as u32);
                if x.is_nan() || x.is_infinite() {
                    if x.is_nan() {
                        "nan".into()
                    } else if x < 0.0 {
                        "-inf".into()
                    } else {
                        "inf".into()
                    }
                } else if x == 0.0 {
                    if x.is_sign_negative() {
                        "-0".into()
                    } else {
                        "0".into()
                    }
                } else {
                    float_text(format!("{:e}", x))
                }
            } else {
                let x = f64::from_bits(v);
                if x.is_nan() || x.is_infinite() {
                    if x.is_nan() {
                        "nan".into()
                    } else if x < 0.0 {
                        "-inf".into()
                    } else {
                        "inf".into()
                    }
                } else if x == 0.0 {
                    if x.is_sign_negative() {
                        "-0".into()
                    } else {
                        "0".into()
                    }
                } else {
                    float_text(format!("{:e}", x))
                }
            }
        }
        Kind::Char => {
            let c = bytes[0];
            match c {
                0 => "\\0".into(),
                7 => "\\a".into(),
                8 => "\\b".into(),
                12 => "\\f".into(),
                10 => "\\n".into(),
                13 => "\\r".into(),
                9 => "\\t".into(),
                11 => "\\v".into(),
                0x20..=0x7e => (c as char).to_string(),
                _ => format!("{:03o}", c),
            }
        }
        Kind::Named => {
            let c = bytes[0] & 0x7f;
            if c == 0x7f {
                "del".into()
            } else if usize::from(c) <= 32 {
                NAMES[usize::from(c)].into()
            } else {
                (c as char).to_string()
            }
        }
    }
}

fn parse_offset(s: &str) -> Option<u64> {
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        return u64::from_str_radix(h, 16).ok();
    }
    if s.len() > 1 && s.starts_with('0') && s.bytes().all(|c| c.is_ascii_digit()) {
        return u64::from_str_radix(&s[1..], 8).ok();
    }
    parse_size(s).ok()
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match USAGE.parse(&Spec::gnu(SPEC), &args[1.min(args.len())..]) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let mut fmts: Vec<Fmt> = Vec::new();
    let mut radix = 'o';
    for o in &p.opts {
        let s = o.val();
        let add: Option<Fmt> = match o.key {
            "t" => match parse_type(&s) {
                Ok(mut f) => {
                    fmts.append(&mut f);
                    None
                }
                Err(m) => return USAGE.die(1, &m),
            },
            "A" => {
                radix = match s.as_str() {
                    "d" => 'd',
                    "o" => 'o',
                    "x" => 'x',
                    "n" => 'n',
                    _ => {
                        return USAGE.die(
                            1,
                            &format!("invalid output address radix '{}'; it must be one character from [doxn]", s),
                        )
                    }
                };
                None
            }
            "a" => Some(mk(Kind::Named, 1)),
            "b" => Some(mk(Kind::Octal, 1)),
            "c" => Some(mk(Kind::Char, 1)),
            "d" => Some(mk(Kind::Unsigned, 2)),
            "D" => Some(mk(Kind::Unsigned, 4)),
            "e" | "F" => Some(mk(Kind::Float, 8)),
            "f" => Some(mk(Kind::Float, 4)),
            "h" | "x" => Some(mk(Kind::Hex, 2)),
            "H" | "X" => Some(mk(Kind::Hex, 4)),
            "i" | "I" => Some(mk(Kind::Signed, 4)),
            "l" | "L" => Some(mk(Kind::Signed, 8)),
            "o" => Some(mk(Kind::Octal, 2)),
            "O" => Some(mk(Kind::Octal, 4)),
            "s" => Some(mk(Kind::Signed, 2)),
            _ => None,
        };
        if let Some(f) = add {
            fmts.push(f);
        }
    }
    if fmts.is_empty() {
        fmts.push(mk(Kind::Octal, 2));
    }
    let skip = match p.last_str("j") {
        Some(s) => match parse_offset(&s) {
            Some(n) => n,
            None => return USAGE.die(1, &format!("invalid skip argument '{}'", s)),
        },
        None => 0,
    };
    let limit = match p.last_str("N") {
        Some(s) => match parse_offset(&s) {
            Some(n) => Some(n),
            None => return USAGE.die(1, &format!("invalid -N argument '{}'", s)),
        },
        None => None,
    };
    let max_size = fmts.iter().map(|f| f.size).max().unwrap_or(1);
    let width = if p.has("w") {
        match p.last_str("w") {
            Some(s) => match s.parse::<usize>() {
                Ok(n) if n > 0 => n,
                _ => return USAGE.die(1, &format!("invalid -w argument '{}'", s)),
            },
            None => 32,
        }
    } else {
        16
    };
    let lcm = fmts.iter().fold(1, |acc, f| lcm(acc, f.size));
    if width % lcm != 0 {
        return USAGE.die(
            1,
            &format!("warning: invalid width {}; using {} instead", width, lcm),
        );
    }
    let _ = max_size;
    // Read all inputs as one stream.
    let files = if p.operands.is_empty() {
        vec![OsString::from("-")]
    } else {
        p.operands.clone()
    };
    let mut data = Vec::new();
    let mut status = 0;
    let mut any_read = false;
    // With -N only skip + N bytes are needed: endless inputs end there.
    let need = limit.map_or(u64::MAX, |l| skip.saturating_add(l));
    for f in &files {
        let have = data.len() as u64;
        if have >= need {
            break;
        }
        match read_at_most(f, need - have) {
            Ok(mut d) => {
                any_read = true;
                data.append(&mut d)
            }
            Err(e) => {
                eprintln!(
                    "{}: {}: {}",
                    coreutils_core::prog("od"),
                    qf(f),
                    err_text(&e)
                );
                status = 1;
            }
        }
    }
    if (skip as usize) > data.len() {
        eprintln!(
            "{}: cannot skip past end of combined input",
            coreutils_core::prog("od")
        );
        return 1;
    }
    let start = skip as usize;
    let end = match limit {
        Some(l) => (start.saturating_add(l.min(usize::MAX as u64) as usize)).min(data.len()),
        None => data.len(),
    };
    let body = &data[start..end];
    // Each format's fields are padded to a common per-line width.
    let line_w: Vec<usize> = fmts
        .iter()
        .map(|f| (f.width + 1) * (width / f.size))
        .collect();
    let block_w = line_w.iter().copied().max().unwrap_or(0);
    let mut out = stdout();
    let addr = |a: usize| -> String {
        match radix {
            'd' => format!("{:07}", a),
            'x' => format!("{:06x}", a),
            'n' => String::new(),
            _ => format!("{:07o}", a),
        }
    };
    let verbose = p.has("v");
    let mut prev: Option<&[u8]> = None;
    let mut starred = false;
    let mut off = 0;
    while off < body.len() {
        let chunk = &body[off..(off + width).min(body.len())];
        if !verbose && chunk.len() == width && prev == Some(chunk) {
            if !starred {
                put(&mut out, b"*\n");
                starred = true;
            }
            off += width;
            continue;
        }
        starred = false;
        prev = Some(chunk);
        for (fi, f) in fmts.iter().enumerate() {
            let mut line = if fi == 0 {
                addr(start + off)
            } else {
                " ".repeat(addr(0).len())
            };
            let fields = width / f.size;
            let pad = block_w - line_w[fi];
            let mut pad_remaining = pad;
            let present = (chunk.len() + f.size - 1) / f.size;
            for i in 0..fields {
                if i >= present {
                    break;
                }
                let next_pad = pad * (fields - 1 - i) / fields;
                let w = pad_remaining - next_pad + f.width;
                pad_remaining = next_pad;
                let mut bytes = [0u8; 8];
                let lo = i * f.size;
                let hi = (lo + f.size).min(chunk.len());
                bytes[..hi - lo].copy_from_slice(&chunk[lo..hi]);
                let text = field(f, &bytes[..f.size]);
                line.push(' ');
                {
                    let _ = write!(line, "{:>w$}", text, w = w);
                }
            }
            if f.show_chars {
                let used: usize = line.len();
                let full = addr(0).len() + block_w;
                line.push_str(&" ".repeat(full.saturating_sub(used)));
                line.push_str("  >");
                for &c in chunk {
                    line.push(if (0x20..0x7f).contains(&c) {
                        c as char
                    } else {
                        '.'
                    });
                }
                line.push('<');
            }
            line.push('\n');
            put(&mut out, line.as_bytes());
        }
        off += width;
    }
    if radix != 'n' && any_read {
        put(
            &mut out,
            format!("{}\n", addr(start + body.len())).as_bytes(),
        );
    }
    let _ = disp;
    finish(&mut out, "od", status)
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

fn lcm(a: usize, b: usize) -> usize {
    a / gcd(a, b) * b
}
