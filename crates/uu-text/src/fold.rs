//! `fold`: wrap lines to a width in columns (or bytes with `-b`),
//! optionally at blanks (`-s`).

use std::ffi::OsString;

use crate::common::bytes::{qf, records};
use crate::common::input::{err_text, finish, put, read_all, stdout};
use coreutils_core::args::{opt, HasArg, OptSpec, Spec, Usage};

const USAGE: Usage = Usage::new(
    "fold",
    "[OPTION]... [FILE]...\nWrap input lines in each FILE, writing to standard output.\n",
    1,
);

const SPEC: &[OptSpec<&str>] = &[
    opt("b", Some('b'), Some("bytes"), HasArg::No),
    opt("c", Some('c'), Some("characters"), HasArg::No),
    opt("s", Some('s'), Some("spaces"), HasArg::No),
    opt("w", Some('w'), Some("width"), HasArg::Required),
];

fn adjust(col: usize, c: u8, bytes: bool) -> usize {
    if bytes {
        return col + 1;
    }
    match c {
        b'\x08' => col.saturating_sub(1),
        b'\r' => 0,
        b'\t' => col + 8 - col % 8,
        _ => col + 1,
    }
}

/// Entry point.
pub fn uumain(mut args: Vec<OsString>) -> i32 {
    // Obsolete `-NUM` means `-w NUM`.
    for a in args.iter_mut().skip(1) {
        let s = a.to_string_lossy().into_owned();
        if s.len() > 1 && s.starts_with('-') && s[1..].bytes().all(|c| c.is_ascii_digit()) {
            *a = OsString::from(format!("-w{}", &s[1..]));
        }
    }
    let p = match USAGE.parse(&Spec::gnu(SPEC), &args[1.min(args.len())..]) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let width = match p.last_str("w") {
        Some(s) => match s.parse::<usize>() {
            Ok(0) => {
                return USAGE.die(
                    1,
                    &format!(
                        "invalid number of columns: '{}': Numerical result out of range",
                        s
                    ),
                )
            }
            Ok(n) => n,
            Err(_) => return USAGE.die(1, &format!("invalid number of columns: '{}'", s)),
        },
        None => 80,
    };
    let (bytes, spaces) = (p.has("b"), p.has("s"));
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
                    coreutils_core::prog("fold"),
                    qf(f),
                    err_text(&e)
                );
                status = 1;
                continue;
            }
        };
        let ends_nl = data.last() == Some(&b'\n');
        let n = records(&data, b'\n').count();
        for (li, line) in records(&data, b'\n').enumerate() {
            fold_line(&mut out, line, width, bytes, spaces);
            if li + 1 < n || ends_nl {
                put(&mut out, b"\n");
            }
        }
    }
    finish(&mut out, "fold", status)
}

fn fold_line(
    out: &mut crate::common::input::Out,
    line: &[u8],
    width: usize,
    bytes: bool,
    spaces: bool,
) {
    let mut buf: Vec<u8> = Vec::new();
    let mut col = 0;
    let mut i = 0;
    while i < line.len() {
        let c = line[i];
        let nc = adjust(col, c, bytes);
        if nc > width && !buf.is_empty() {
            if spaces {
                if let Some(sp) = buf.iter().rposition(|&b| b == b' ' || b == b'\t') {
                    let rest = buf.split_off(sp + 1);
                    put(out, &buf);
                    put(out, b"\n");
                    buf = rest;
                    col = buf.iter().fold(0, |cl, &b| adjust(cl, b, bytes));
                    continue;
                }
            }
            put(out, &buf);
            put(out, b"\n");
            buf.clear();
            col = 0;
            continue;
        }
        buf.push(c);
        col = nc;
        i += 1;
    }
    put(out, &buf);
}
