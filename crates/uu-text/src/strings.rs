//! `strings`: print runs of printable characters (`-n`, `-a`, `-t`).

use std::ffi::OsString;

use crate::common::bytes::disp;
use crate::common::input::{err_text, finish, put, read_all, stdout};
use coreutils_core::args::{opt, HasArg, OptSpec, Spec, Usage};

const USAGE: Usage = Usage::new(
    "strings",
    "[option(s)] [file(s)]\nDisplay printable strings in [file(s)] (stdin by default)\n",
    1,
);

const SPEC: &[OptSpec<&str>] = &[
    opt("a", Some('a'), Some("all"), HasArg::No),
    opt("f", Some('f'), Some("print-file-name"), HasArg::No),
    opt("n", Some('n'), Some("bytes"), HasArg::Required),
    opt("t", Some('t'), Some("radix"), HasArg::Required),
    opt("o", Some('o'), None, HasArg::No),
    opt("d", Some('d'), Some("data"), HasArg::No),
    opt("w", Some('w'), Some("include-all-whitespace"), HasArg::No),
    opt("s", Some('s'), Some("output-separator"), HasArg::Required),
];

/// Entry point.
pub fn uumain(mut args: Vec<OsString>) -> i32 {
    for a in args.iter_mut().skip(1) {
        let s = a.to_string_lossy().into_owned();
        if s.len() > 1 && s.starts_with('-') && s[1..].bytes().all(|c| c.is_ascii_digit()) {
            *a = OsString::from(format!("-n{}", &s[1..]));
        }
    }
    let p = match USAGE.parse(&Spec::gnu(SPEC), &args[1.min(args.len())..]) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let min = match p.last_str("n") {
        Some(s) => match s.parse::<usize>() {
            Ok(n) if n > 0 => n,
            _ => return USAGE.die(1, &format!("invalid minimum string length {}", s)),
        },
        None => 4,
    };
    let radix = if p.has("o") {
        Some('o')
    } else {
        p.last_str("t").and_then(|s| s.chars().next())
    };
    if let Some(r) = radix {
        if !"odx".contains(r) {
            return USAGE.die(1, "invalid radix");
        }
    }
    let sep: Vec<u8> = p
        .last("s")
        .map(|s| crate::common::bytes::os_bytes(s).to_vec())
        .unwrap_or_else(|| b"\n".to_vec());
    let all_ws = p.has("w");
    let files = if p.operands.is_empty() {
        vec![OsString::from("-")]
    } else {
        p.operands.clone()
    };
    let mut out = stdout();
    let mut status = 0;
    for f in &files {
        let data = match read_all(f) {
            Ok(d) => d,
            Err(e) => {
                // binutils words a missing file its own way.
                let why = if e.kind() == std::io::ErrorKind::NotFound {
                    "No such file".to_string()
                } else {
                    err_text(&e)
                };
                eprintln!(
                    "{}: '{}': {}",
                    coreutils_core::prog("strings"),
                    disp(f),
                    why
                );
                status = 1;
                continue;
            }
        };
        let printable = |c: u8| {
            (0x20..0x7f).contains(&c)
                || c == b'\t'
                || (all_ws && (c == b'\n' || c == b'\r' || c == 11 || c == 12))
        };
        let mut i = 0;
        while i < data.len() {
            if !printable(data[i]) {
                i += 1;
                continue;
            }
            let st = i;
            while i < data.len() && printable(data[i]) {
                i += 1;
            }
            if i - st >= min {
                let mut line = Vec::new();
                if p.has("f") {
                    line.extend_from_slice(format!("{}: ", disp(f)).as_bytes());
                }
                match radix {
                    Some('o') => line.extend_from_slice(format!("{:7o} ", st).as_bytes()),
                    Some('d') => line.extend_from_slice(format!("{:7} ", st).as_bytes()),
                    Some('x') => line.extend_from_slice(format!("{:7x} ", st).as_bytes()),
                    _ => {}
                }
                line.extend_from_slice(&data[st..i]);
                line.extend_from_slice(&sep);
                put(&mut out, &line);
            }
        }
    }
    finish(&mut out, "strings", status)
}
