//! `expand` and `unexpand`: convert tabs to spaces and back, with tab
//! stop lists (`-t N` or `-t 4,8,12`, `/N` and `+N` forms).

use std::ffi::OsString;

use crate::common::bytes::{qf, records};
use crate::common::input::{err_text, finish, put, read_all, stdout};
use coreutils_core::args::{opt, HasArg, OptSpec, Spec, Usage};

const EXPAND: Usage = Usage::new(
    "expand",
    "[OPTION]... [FILE]...\nConvert tabs in each FILE to spaces, writing to standard output.\n",
    1,
);
const UNEXPAND: Usage = Usage::new(
    "unexpand",
    "[OPTION]... [FILE]...\nConvert blanks in each FILE to tabs, writing to standard output.\n",
    1,
);

const SPEC_E: &[OptSpec<&str>] = &[
    opt("i", Some('i'), Some("initial"), HasArg::No),
    opt("t", Some('t'), Some("tabs"), HasArg::Required),
];
const SPEC_U: &[OptSpec<&str>] = &[
    opt("a", Some('a'), Some("all"), HasArg::No),
    opt("first", None, Some("first-only"), HasArg::No),
    opt("t", Some('t'), Some("tabs"), HasArg::Required),
];

/// Tab stops: explicit list plus an optional repeat after the last.
struct Stops {
    list: Vec<usize>,
    repeat: Option<usize>,
    /// `/N`: stops at multiples of N (rather than `+N`: N apart from the last).
    absolute: bool,
}

impl Stops {
    /// Column of the next stop after `col`, if any.
    fn next(&self, col: usize) -> Option<usize> {
        if self.list.len() == 1 && self.repeat.is_none() {
            let t = self.list[0];
            return Some(col + t - col % t);
        }
        if let Some(&s) = self.list.iter().find(|&&s| s > col) {
            return Some(s);
        }
        let last = self.list.last().copied().unwrap_or(0);
        self.repeat.map(|r| {
            let base = if self.absolute { 0 } else { last };
            base + ((col - base) / r + 1) * r
        })
    }
}

fn parse_stops(specs: &[String], prog: &str) -> Result<Stops, String> {
    let mut list = Vec::new();
    let mut repeat = None;
    let mut absolute = false;
    for spec in specs {
        for item in spec.split([',', ' ']).filter(|s| !s.is_empty()) {
            let (kind, num) = if let Some(r) = item.strip_prefix('/') {
                (1, r)
            } else if let Some(r) = item.strip_prefix('+') {
                (2, r)
            } else {
                (0, item)
            };
            let n: usize = num
                .parse()
                .map_err(|_| format!("tab size contains invalid character(s): '{}'", item))?;
            match kind {
                1 => {
                    repeat = Some(n);
                    absolute = true;
                }
                2 => {
                    repeat = Some(n);
                }
                _ => {
                    if n == 0 {
                        return Err("tab size cannot be 0".into());
                    }
                    if list.last().map_or(false, |&l| n <= l) {
                        return Err("tab sizes must be ascending".into());
                    }
                    list.push(n);
                }
            }
        }
    }
    let _ = prog;
    if list.is_empty() && repeat.is_none() {
        list.push(8);
    }
    if list.is_empty() {
        if let Some(r) = repeat.take() {
            list.push(r);
        }
    }
    Ok(Stops {
        list,
        repeat,
        absolute,
    })
}

fn prep(mut args: Vec<OsString>) -> Vec<OsString> {
    // Obsolete `-N` and `-N,M` mean `-t N,M`.
    for a in args.iter_mut().skip(1) {
        let s = a.to_string_lossy().into_owned();
        if s.len() > 1
            && s.starts_with('-')
            && s[1..].bytes().all(|c| c.is_ascii_digit() || c == b',')
        {
            *a = OsString::from(format!("-t{}", &s[1..]));
        }
    }
    args
}

/// Entry point of `expand`.
pub fn expand_main(args: Vec<OsString>) -> i32 {
    let args = prep(args);
    let p = match EXPAND.parse(&Spec::gnu(SPEC_E), &args[1.min(args.len())..]) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let specs: Vec<String> = p
        .all("t")
        .iter()
        .map(|s| s.to_string_lossy().into_owned())
        .collect();
    let stops = match parse_stops(&specs, "expand") {
        Ok(s) => s,
        Err(m) => return EXPAND.die(1, &m),
    };
    let initial = p.has("i");
    let files = if p.operands.is_empty() {
        vec![OsString::from("-")]
    } else {
        p.operands
    };
    let mut out = stdout();
    let mut status = 0;
    for f in &files {
        let data = match read_all(f) {
            Ok(d) => d,
            Err(e) => {
                eprintln!(
                    "{}: {}: {}",
                    coreutils_core::prog("expand"),
                    qf(f),
                    err_text(&e)
                );
                status = 1;
                continue;
            }
        };
        let mut o = Vec::with_capacity(data.len() + data.len() / 8);
        let n = records(&data, b'\n').count();
        for (li, line) in records(&data, b'\n').enumerate() {
            let mut col = 0;
            let mut leading = true;
            for &c in line {
                if c == b'\t' && (!initial || leading) {
                    let next = stops.next(col).unwrap_or(col + 1);
                    o.extend(std::iter::repeat(b' ').take(next - col));
                    col = next;
                    continue;
                }
                if c == b'\x08' {
                    col = col.saturating_sub(1);
                } else {
                    col += 1;
                }
                if c != b' ' && c != b'\t' {
                    leading = false;
                }
                o.push(c);
            }
            if li + 1 < n || data.last() == Some(&b'\n') {
                o.push(b'\n');
            }
        }
        put(&mut out, &o);
    }
    finish(&mut out, "expand", status)
}

/// Entry point of `unexpand`.
pub fn unexpand_main(args: Vec<OsString>) -> i32 {
    let args = prep(args);
    let p = match UNEXPAND.parse(&Spec::gnu(SPEC_U), &args[1.min(args.len())..]) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let specs: Vec<String> = p
        .all("t")
        .iter()
        .map(|s| s.to_string_lossy().into_owned())
        .collect();
    let stops = match parse_stops(&specs, "unexpand") {
        Ok(s) => s,
        Err(m) => return UNEXPAND.die(1, &m),
    };
    let all = (p.has("a") || !specs.is_empty()) && !p.has("first");
    let files = if p.operands.is_empty() {
        vec![OsString::from("-")]
    } else {
        p.operands
    };
    let mut out = stdout();
    let mut status = 0;
    for f in &files {
        let data = match read_all(f) {
            Ok(d) => d,
            Err(e) => {
                eprintln!(
                    "{}: {}: {}",
                    coreutils_core::prog("unexpand"),
                    qf(f),
                    err_text(&e)
                );
                status = 1;
                continue;
            }
        };
        let n = records(&data, b'\n').count();
        let mut o = Vec::with_capacity(data.len());
        for (li, line) in records(&data, b'\n').enumerate() {
            unexpand_line(&mut o, line, &stops, all);
            if li + 1 < n || data.last() == Some(&b'\n') {
                o.push(b'\n');
            }
        }
        put(&mut out, &o);
    }
    finish(&mut out, "unexpand", status)
}

fn unexpand_line(o: &mut Vec<u8>, line: &[u8], stops: &Stops, all: bool) {
    let mut col = 0;
    // Pending blanks: (start column, bytes).
    let mut pend: Vec<u8> = Vec::new();
    let mut pend_start = 0;
    let mut leading = true;
    for &c in line {
        if (c == b' ' || c == b'\t') && (leading || all) {
            if pend.is_empty() {
                pend_start = col;
            }
            let next = if c == b'\t' {
                stops.next(col).unwrap_or(col + 1)
            } else {
                col + 1
            };
            pend.push(c);
            // Reaching a tab stop: the pending run becomes one tab (a lone
            // space stays a space, as GNU does).
            if let Some(stop) = stops.next(col) {
                if next == stop {
                    if pend.len() == 1 && c == b' ' {
                        o.push(b' ');
                    } else {
                        o.push(b'\t');
                    }
                    pend.clear();
                }
            }
            let _ = pend_start;
            col = next;
            continue;
        }
        o.extend_from_slice(&pend);
        pend.clear();
        if c == b'\x08' {
            col = col.saturating_sub(1);
        } else {
            col += 1;
        }
        leading = false;
        o.push(c);
    }
    o.extend_from_slice(&pend);
}
