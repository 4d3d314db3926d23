//! `head`: the first part of files (`-n`, `-c`, negative "all but last"
//! forms, headers for several files, `-z`).

use std::ffi::OsString;
use std::io::Read;

use crate::common::bytes::{memchr, q};
use crate::common::input::{err_text, finish, open, put, stdout, Out};
use crate::common::num::{parse_size, SizeError};
use coreutils_core::args::{opt, HasArg, Opt, OptSpec, Spec, Usage};

const USAGE: Usage = Usage::new(
    "head",
    "[OPTION]... [FILE]...\nPrint the first 10 lines of each FILE to standard output.\n",
    1,
);

const SPEC: &[OptSpec<&str>] = &[
    opt("c", Some('c'), Some("bytes"), HasArg::Required),
    opt("n", Some('n'), Some("lines"), HasArg::Required),
    opt("q", Some('q'), Some("quiet"), HasArg::No),
    opt("q", None, Some("silent"), HasArg::No),
    opt("v", Some('v'), Some("verbose"), HasArg::No),
    opt("z", Some('z'), Some("zero-terminated"), HasArg::No),
];

#[derive(Clone, Copy)]
enum Mode {
    Lines(u64, bool),
    Bytes(u64, bool),
}

/// Rewrite the obsolete `-NUM[bcklmqvz]` first argument into options.
pub fn legacy(args: &mut Vec<OsString>, prog: &str) {
    if args.len() < 2 {
        return;
    }
    let a = args[1].to_string_lossy().into_owned();
    let b = a.as_bytes();
    if b.len() < 2 || b[0] != b'-' || !b[1].is_ascii_digit() {
        return;
    }
    let end = b[1..]
        .iter()
        .position(|c| !c.is_ascii_digit())
        .map_or(b.len(), |p| p + 1);
    let num = &a[1..end];
    let mut rest = &a[end..];
    let mut unit = "l";
    let mut mult = "";
    if let Some(c) = rest.chars().next() {
        if "bkm".contains(c) {
            mult = &rest[..1];
            unit = "c";
            rest = &rest[1..];
        }
    }
    if let Some(c) = rest.chars().next() {
        if c == 'c' || c == 'l' {
            unit = if c == 'c' { "c" } else { "l" };
            rest = &rest[1..];
        }
    }
    if !rest.chars().all(|c| "qvzf".contains(c)) {
        return;
    }
    let _ = prog;
    let mult = match mult {
        "k" => "K",
        "m" => "M",
        other => other,
    };
    let mut new = vec![
        OsString::from(if unit == "c" { "-c" } else { "-n" }),
        OsString::from(format!("{}{}", num, mult)),
    ];
    for c in rest.chars() {
        new.push(OsString::from(format!("-{}", c)));
    }
    args.splice(1..2, new);
}

fn parse_count(s: &str, what: &str) -> Result<(u64, bool), String> {
    let (neg, body) = if let Some(r) = s.strip_prefix('-') {
        (true, r)
    } else {
        (false, s.strip_prefix('+').unwrap_or(s))
    };
    match parse_size(body) {
        Ok(n) => Ok((n, neg)),
        Err(SizeError::TooLarge) => Err(format!(
            "invalid number of {}: '{}': Value too large for defined data type",
            what, s
        )),
        Err(SizeError::Invalid) => Err(format!("invalid number of {}: '{}'", what, s)),
    }
}

/// Entry point.
pub fn uumain(mut args: Vec<OsString>) -> i32 {
    legacy(&mut args, "head");
    // Digits anywhere but a first `-NUM` are GNU's "trailing" obsolete options.
    let spec = Spec {
        digits: Some("digits"),
        ..Spec::gnu(SPEC)
    };
    let p = match USAGE.parse(&spec, &args[1.min(args.len())..]) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(d) = p.last("digits") {
        let first = d.to_string_lossy().chars().next().unwrap_or('0');
        return USAGE.fail(&format!("invalid trailing option -- {}", first));
    }
    let mut mode = Mode::Lines(10, false);
    for o in &p.opts {
        let s = o.val();
        match o.key {
            "n" => match parse_count(&s, "lines") {
                Ok((n, neg)) => mode = Mode::Lines(n, neg),
                Err(m) => return USAGE.die(1, &m),
            },
            "c" => match parse_count(&s, "bytes") {
                Ok((n, neg)) => mode = Mode::Bytes(n, neg),
                Err(m) => return USAGE.die(1, &m),
            },
            _ => {}
        }
    }
    let delim = if p.has("z") { 0 } else { b'\n' };
    let mut verbose = None;
    for Opt { key: id, .. } in &p.opts {
        match *id {
            "q" => verbose = Some(false),
            "v" => verbose = Some(true),
            _ => {}
        }
    }
    let files = if p.operands.is_empty() {
        vec![OsString::from("-")]
    } else {
        p.operands
    };
    let headers = verbose.unwrap_or(files.len() > 1);
    let mut out = stdout();
    let mut status = 0;
    let mut first = true;
    for f in &files {
        let shown = if f == "-" {
            "standard input".to_string()
        } else {
            f.to_string_lossy().into_owned()
        };
        // Standard input unbuffered: what we read past our lines is given back.
        let opened = if f == "-" {
            Ok(Box::new(crate::common::input::RawStdin) as Box<dyn Read>)
        } else {
            open(f)
        };
        let mut r = match opened {
            Ok(r) => r,
            Err(e) if e.raw_os_error() == crate::common::input::is_dir_error().raw_os_error() => {
                if headers {
                    put(
                        &mut out,
                        format!("{}==> {} <==\n", if first { "" } else { "\n" }, shown).as_bytes(),
                    );
                    first = false;
                }
                let _ = std::io::Write::flush(&mut out);
                eprintln!(
                    "{}: error reading {}: {}",
                    coreutils_core::prog("head"),
                    q(f),
                    err_text(&e)
                );
                status = 1;
                continue;
            }
            Err(e) => {
                eprintln!(
                    "{}: cannot open {} for reading: {}",
                    coreutils_core::prog("head"),
                    q(f),
                    err_text(&e)
                );
                status = 1;
                continue;
            }
        };
        if headers {
            put(
                &mut out,
                format!("{}==> {} <==\n", if first { "" } else { "\n" }, shown).as_bytes(),
            );
        }
        first = false;
        match head_one(&mut *r, &mut out, mode, delim) {
            Ok(past) if past > 0 && f == "-" => crate::common::input::unread_stdin(past),
            Ok(_) => {}
            Err(e) => {
                let _ = std::io::Write::flush(&mut out);
                eprintln!(
                    "{}: error reading {}: {}",
                    coreutils_core::prog("head"),
                    q(f),
                    err_text(&e)
                );
                status = 1;
            }
        }
    }
    finish(&mut out, "head", status)
}

/// Copies the selected head of `r` to `out`; returns how many bytes were
/// read past it (so a shared, seekable stdin can be given them back).
fn head_one(r: &mut dyn Read, out: &mut Out, mode: Mode, delim: u8) -> std::io::Result<u64> {
    let mut buf = vec![0u8; 64 * 1024];
    let mut past = 0u64;
    match mode {
        Mode::Bytes(n, false) => {
            let mut left = n;
            while left > 0 {
                // Never read past the count: nothing to give back.
                let want = (buf.len() as u64).min(left) as usize;
                let k = r.read(&mut buf[..want])?;
                if k == 0 {
                    break;
                }
                let take = (k as u64).min(left) as usize;
                put(out, &buf[..take]);
                left -= take as u64;
            }
        }
        Mode::Lines(n, false) => {
            let mut left = n;
            while left > 0 {
                let k = r.read(&mut buf)?;
                if k == 0 {
                    break;
                }
                let chunk = &buf[..k];
                let mut pos = 0;
                while left > 0 {
                    match memchr(delim, &chunk[pos..]) {
                        Some(i) => {
                            pos += i + 1;
                            left -= 1;
                        }
                        None => {
                            pos = k;
                            break;
                        }
                    }
                }
                put(out, &chunk[..pos]);
                past = (k - pos) as u64;
            }
        }
        Mode::Bytes(n, true) => {
            let mut all = Vec::new();
            r.read_to_end(&mut all)?;
            let keep = all.len().saturating_sub(n.min(usize::MAX as u64) as usize);
            put(out, &all[..keep]);
        }
        Mode::Lines(n, true) => {
            let mut all = Vec::new();
            r.read_to_end(&mut all)?;
            // Count line ends from the back; an unterminated last line counts.
            let mut end = all.len();
            let mut drop = n;
            if drop > 0 && end > 0 && all[end - 1] != delim {
                // The partial last line is one line.
                end = all[..end]
                    .iter()
                    .rposition(|&c| c == delim)
                    .map_or(0, |p| p + 1);
                drop -= 1;
            }
            while drop > 0 && end > 0 {
                end = all[..end - 1]
                    .iter()
                    .rposition(|&c| c == delim)
                    .map_or(0, |p| p + 1);
                drop -= 1;
            }
            put(out, &all[..end]);
        }
    }
    Ok(past)
}
