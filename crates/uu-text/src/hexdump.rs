//! `hexdump`: the default two-byte hex format and canonical `-C`, with
//! `-n` length, `-s` skip, `-v` and `*` for repeated lines.

use std::ffi::OsString;
use std::fmt::Write as _;

use crate::common::bytes::disp;
use crate::common::input::{err_text, finish, put, read_all, stdout};
use crate::common::num::parse_size;
use coreutils_core::args::{opt, HasArg, Opt, OptSpec, Spec, Usage};

const USAGE: Usage = Usage::new(
    "hexdump",
    "[options] <file>...\nDisplay file contents in hexadecimal, decimal, octal, or ascii.\n",
    1,
);

const SPEC: &[OptSpec<&str>] = &[
    opt("C", Some('C'), Some("canonical"), HasArg::No),
    opt("b", Some('b'), Some("one-byte-octal"), HasArg::No),
    opt("c", Some('c'), Some("one-byte-char"), HasArg::No),
    opt("d", Some('d'), Some("two-bytes-decimal"), HasArg::No),
    opt("o", Some('o'), Some("two-bytes-octal"), HasArg::No),
    opt("x", Some('x'), Some("two-bytes-hex"), HasArg::No),
    opt("n", Some('n'), Some("length"), HasArg::Required),
    opt("s", Some('s'), Some("skip"), HasArg::Required),
    opt("v", Some('v'), Some("no-squeezing"), HasArg::No),
];

fn num(s: &str) -> Option<u64> {
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        return u64::from_str_radix(h, 16).ok();
    }
    parse_size(s).ok()
}

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Default,
    Canon,
    Octal1,
    Char1,
    Dec2,
    Oct2,
    Hex2,
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match USAGE.parse(&Spec::gnu(SPEC), &args[1.min(args.len())..]) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let mut modes = Vec::new();
    for Opt { key: id, .. } in &p.opts {
        let m = match *id {
            "C" => Mode::Canon,
            "b" => Mode::Octal1,
            "c" => Mode::Char1,
            "d" => Mode::Dec2,
            "o" => Mode::Oct2,
            "x" => Mode::Hex2,
            _ => continue,
        };
        modes.push(m);
    }
    if modes.is_empty() {
        modes.push(Mode::Default);
    }
    let skip = match p.last_str("s") {
        Some(s) => match num(&s) {
            Some(n) => n as usize,
            None => return USAGE.die(1, &format!("failed to parse offset: '{}'", s)),
        },
        None => 0,
    };
    let len = match p.last_str("n") {
        Some(s) => match num(&s) {
            Some(n) => Some(n as usize),
            None => return USAGE.die(1, &format!("failed to parse length: '{}'", s)),
        },
        None => None,
    };
    let files = if p.operands.is_empty() {
        vec![OsString::from("-")]
    } else {
        p.operands.clone()
    };
    let mut data = Vec::new();
    let mut status = 0;
    for f in &files {
        match read_all(f) {
            Ok(mut d) => data.append(&mut d),
            Err(e) => {
                eprintln!(
                    "{}: {}: {}",
                    coreutils_core::prog("hexdump"),
                    disp(f),
                    err_text(&e)
                );
                status = 1;
            }
        }
    }
    if status != 0 && data.is_empty() {
        eprintln!(
            "{}: all input file arguments failed",
            coreutils_core::prog("hexdump")
        );
        return 1;
    }
    let start = skip.min(data.len());
    let end = len.map_or(data.len(), |l| (start + l).min(data.len()));
    let body = &data[start..end];
    let mut out = stdout();
    let mut prev: Option<&[u8]> = None;
    let mut starred = false;
    let canon_only = modes.iter().all(|m| *m == Mode::Canon);
    for (li, ch) in body.chunks(16).enumerate() {
        let addr = start + li * 16;
        if !p.has("v") && ch.len() == 16 && prev == Some(ch) {
            if !starred {
                put(&mut out, b"*\n");
                starred = true;
            }
            continue;
        }
        starred = false;
        prev = Some(ch);
        for m in &modes {
            let line = render(*m, ch, addr);
            put(&mut out, line.as_bytes());
        }
    }
    if !body.is_empty() || skip > 0 {
        let total = start + body.len();
        if canon_only {
            put(&mut out, format!("{:08x}\n", total).as_bytes());
        } else {
            put(&mut out, format!("{:07x}\n", total).as_bytes());
        }
    }
    finish(&mut out, "hexdump", status)
}

fn render(m: Mode, ch: &[u8], addr: usize) -> String {
    let mut s = String::with_capacity(80);
    match m {
        Mode::Canon => {
            {
                let _ = write!(s, "{:08x}  ", addr);
            }
            for i in 0..16 {
                match ch.get(i) {
                    Some(b) => {
                        let _ = write!(s, "{:02x} ", b);
                    }
                    None => s.push_str("   "),
                }
                if i == 7 {
                    s.push(' ');
                }
            }
            s.push_str(" |");
            for &b in ch {
                s.push(if (0x20..0x7f).contains(&b) {
                    b as char
                } else {
                    '.'
                });
            }
            s.push_str("|\n");
        }
        Mode::Octal1 | Mode::Char1 => {
            {
                let _ = write!(s, "{:07x}", addr);
            }
            for i in 0..16 {
                match ch.get(i) {
                    Some(&b) => {
                        if m == Mode::Octal1 {
                            {
                                let _ = write!(s, " {:03o}", b);
                            }
                        } else {
                            let t = match b {
                                0 => "\\0".to_string(),
                                7 => "\\a".into(),
                                8 => "\\b".into(),
                                12 => "\\f".into(),
                                10 => "\\n".into(),
                                13 => "\\r".into(),
                                9 => "\\t".into(),
                                11 => "\\v".into(),
                                0x20..=0x7e => (b as char).to_string(),
                                _ => format!("{:03o}", b),
                            };
                            {
                                let _ = write!(s, " {:>3}", t);
                            }
                        }
                    }
                    None => s.push_str("    "),
                }
            }
            s.push('\n');
        }
        _ => {
            {
                let _ = write!(s, "{:07x}", addr);
            }
            for i in 0..8 {
                if i * 2 < ch.len() {
                    let v =
                        u16::from(ch[i * 2]) | (u16::from(*ch.get(i * 2 + 1).unwrap_or(&0)) << 8);
                    match m {
                        Mode::Dec2 => {
                            let _ = write!(s, "   {:05}", v);
                        }
                        Mode::Oct2 => {
                            let _ = write!(s, "  {:06o}", v);
                        }
                        Mode::Hex2 => {
                            let _ = write!(s, "    {:04x}", v);
                        }
                        _ => {
                            let _ = write!(s, " {:04x}", v);
                        }
                    }
                } else {
                    s.push_str(match m {
                        Mode::Dec2 | Mode::Oct2 | Mode::Hex2 => "        ",
                        _ => "     ",
                    });
                }
            }
            s.push('\n');
        }
    }
    s
}
