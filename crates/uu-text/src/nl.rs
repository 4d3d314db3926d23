//! `nl`: number lines, with body/header/footer sections (`\:\:\:`,
//! `\:\:`, `\:`) and GNU's styles and formats.

use std::ffi::OsString;

use crate::common::bytes::{os_bytes, qf, records};
use crate::common::input::{err_text, finish, put, read_all, stdout};
use coreutils_core::args::{opt, HasArg, OptSpec, Spec, Usage};

const USAGE: Usage = Usage::new(
    "nl",
    "[OPTION]... [FILE]...\nWrite each FILE to standard output, with line numbers added.\n",
    1,
);

const SPEC: &[OptSpec<&str>] = &[
    opt("b", Some('b'), Some("body-numbering"), HasArg::Required),
    opt("d", Some('d'), Some("section-delimiter"), HasArg::Required),
    opt("f", Some('f'), Some("footer-numbering"), HasArg::Required),
    opt("h", Some('h'), Some("header-numbering"), HasArg::Required),
    opt("i", Some('i'), Some("line-increment"), HasArg::Required),
    opt("l", Some('l'), Some("join-blank-lines"), HasArg::Required),
    opt("n", Some('n'), Some("number-format"), HasArg::Required),
    opt("p", Some('p'), Some("no-renumber"), HasArg::No),
    opt("s", Some('s'), Some("number-separator"), HasArg::Required),
    opt(
        "v",
        Some('v'),
        Some("starting-line-number"),
        HasArg::Required,
    ),
    opt("w", Some('w'), Some("number-width"), HasArg::Required),
];

#[derive(Clone)]
enum Style {
    All,
    NonEmpty,
    None,
    Literal(Vec<u8>),
}

fn style(s: &[u8], which: &str) -> Result<Style, String> {
    Ok(match s {
        b"a" => Style::All,
        b"t" => Style::NonEmpty,
        b"n" => Style::None,
        [b'p', rest @ ..] => Style::Literal(rest.to_vec()),
        _ => {
            return Err(format!(
                "invalid {} numbering style: '{}'",
                which,
                String::from_utf8_lossy(s)
            ))
        }
    })
}

/// `-bpREGEX` support for the common case of a literal or `^literal`.
fn matches(pat: &[u8], line: &[u8]) -> bool {
    if let Some(rest) = pat.strip_prefix(b"^") {
        return line.starts_with(rest);
    }
    if pat.is_empty() {
        return true;
    }
    line.windows(pat.len()).any(|w| w == pat)
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match USAGE.parse(&Spec::gnu(SPEC), &args[1.min(args.len())..]) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let mut styles = [Style::None, Style::NonEmpty, Style::None];
    for (i, (id, name)) in [("h", "header"), ("b", "body"), ("f", "footer")]
        .iter()
        .enumerate()
    {
        if let Some(v) = p.last(id) {
            match style(os_bytes(v), name) {
                Ok(s) => styles[i] = s,
                Err(m) => return USAGE.fail(&m),
            }
        }
    }
    let fmt = match p.last_str("n").as_deref() {
        None | Some("rn") => 0,
        Some("ln") => 1,
        Some("rz") => 2,
        Some(o) => return USAGE.fail(&format!("invalid line numbering format: '{}'", o)),
    };
    let num = |id: &str, what: &str, default: i64, min: i64| -> Result<i64, i32> {
        match p.last_str(id) {
            None => Ok(default),
            Some(s) => match s.parse::<i64>() {
                Ok(n) if n >= min => Ok(n),
                Ok(_) => Err(USAGE.die(
                    1,
                    &format!("invalid {}: '{}': Numerical result out of range", what, s),
                )),
                Err(_) => Err(USAGE.die(1, &format!("invalid {}: '{}'", what, s))),
            },
        }
    };
    let width = match num("w", "line number field width", 6, 1) {
        Ok(v) => v as usize,
        Err(c) => return c,
    };
    let start = match num("v", "starting line number", 1, i64::MIN) {
        Ok(v) => v,
        Err(c) => return c,
    };
    let incr = match num("i", "line number increment", 1, i64::MIN) {
        Ok(v) => v,
        Err(c) => return c,
    };
    let join_blank = match num("l", "line number of blank lines", 1, 1) {
        Ok(v) => v,
        Err(c) => return c,
    };
    let sep: Vec<u8> = p
        .last("s")
        .map(|s| os_bytes(s).to_vec())
        .unwrap_or_else(|| b"\t".to_vec());
    let delim: Vec<u8> = match p.last("d") {
        Some(d) => {
            let b = os_bytes(d).to_vec();
            if b.len() == 1 {
                vec![b[0], b':']
            } else {
                b
            }
        }
        None => b"\\:".to_vec(),
    };
    let files = if p.operands.is_empty() {
        vec![OsString::from("-")]
    } else {
        p.operands.clone()
    };
    let mut out = stdout();
    let mut status = 0;
    let mut n = start;
    let mut section = 1;
    let mut blanks = 0;
    let blank_pad: Vec<u8> = vec![b' '; width + sep.len()];
    for f in &files {
        let data = match read_all(f) {
            Ok(d) => d,
            Err(e) => {
                eprintln!(
                    "{}: {}: {}",
                    coreutils_core::prog("nl"),
                    qf(f),
                    err_text(&e)
                );
                status = 1;
                continue;
            }
        };
        for line in records(&data, b'\n') {
            // Section delimiter lines.
            if !delim.is_empty() && line.len() % delim.len() == 0 && !line.is_empty() {
                let reps = line.len() / delim.len();
                if reps <= 3 && line.chunks(delim.len()).all(|c| c == &delim[..]) {
                    section = match reps {
                        3 => 0,
                        2 => 1,
                        _ => 2,
                    };
                    if !p.has("p") {
                        n = start;
                    }
                    put(&mut out, b"\n");
                    continue;
                }
            }
            let number = match &styles[section] {
                Style::All => {
                    if line.is_empty() {
                        blanks += 1;
                        if blanks >= join_blank {
                            blanks = 0;
                            true
                        } else {
                            false
                        }
                    } else {
                        blanks = 0;
                        true
                    }
                }
                Style::NonEmpty => !line.is_empty(),
                Style::None => false,
                Style::Literal(pat) => matches(pat, line),
            };
            let mut o = Vec::with_capacity(line.len() + width + 4);
            if number {
                let s = match fmt {
                    0 => format!("{:>w$}", n, w = width),
                    1 => format!("{:<w$}", n, w = width),
                    _ => {
                        if n < 0 {
                            format!("-{:0>w$}", -n, w = width.saturating_sub(1))
                        } else {
                            format!("{:0>w$}", n, w = width)
                        }
                    }
                };
                o.extend_from_slice(s.as_bytes());
                o.extend_from_slice(&sep);
                n = n.wrapping_add(incr);
            } else {
                o.extend_from_slice(&blank_pad);
            }
            o.extend_from_slice(line);
            o.push(b'\n');
            put(&mut out, &o);
        }
    }
    finish(&mut out, "nl", status)
}
