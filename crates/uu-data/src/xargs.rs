//! xargs: build command lines from standard input (GNU findutils
//! semantics: quoting, -0/-d, -n/-L/-I/-s batching, -r, -t, -E, and the
//! 123/124/125/126/127 exit statuses).

use crate::common::usage_error;
use coreutils_core::args::{long, parse, HasArg, LongOpt};
use coreutils_core::bytes::{os_bytes, os_from_bytes};
use coreutils_core::error::strerror;
use coreutils_core::process::{self, Command, Status};
use std::ffi::OsString;
use std::io::{Read, Write};

const LONGS: &[LongOpt] = &[
    long("null", HasArg::No, '0'),
    long("delimiter", HasArg::Required, 'd'),
    long("arg-file", HasArg::Required, 'a'),
    long("max-args", HasArg::Required, 'n'),
    long("max-lines", HasArg::Optional, 'l'),
    long("replace", HasArg::Optional, 'i'),
    long("max-chars", HasArg::Required, 's'),
    long("no-run-if-empty", HasArg::No, 'r'),
    long("verbose", HasArg::No, 't'),
    long("interactive", HasArg::No, 'p'),
    long("max-procs", HasArg::Required, 'P'),
    long("eof", HasArg::Optional, 'e'),
    long("exit", HasArg::No, 'x'),
    long("process-slot-var", HasArg::Required, 'S'),
    long("open-tty", HasArg::No, 'o'),
    long("help", HasArg::No, 'h'),
    long("version", HasArg::No, 'V'),
];

/// Default and maximum command-line size in bytes.
const MAX_CHARS: usize = 128 * 1024;

#[derive(Default)]
struct Opts {
    delim: Option<u8>,
    file: Option<OsString>,
    max_args: Option<usize>,
    max_lines: Option<usize>,
    replace: Option<Vec<u8>>,
    max_chars: usize,
    no_empty: bool,
    verbose: bool,
    eof: Option<Vec<u8>>,
    exit_on_size: bool,
}

fn num(v: &Option<OsString>, opt: char, min: usize) -> Result<usize, i32> {
    let s = v
        .as_ref()
        .map(|x| x.to_string_lossy().into_owned())
        .unwrap_or_default();
    match s.trim().parse::<usize>() {
        Ok(n) if n >= min => Ok(n),
        Ok(_) => {
            if opt == 's' {
                eprintln!(
                    "{}: value {} for -{} option should be >= {}",
                    coreutils_core::prog("xargs"),
                    s,
                    opt,
                    min
                );
                eprintln!(
                    "{}: cannot fit single argument within argument list size limit",
                    coreutils_core::prog("xargs")
                );
                return Err(1);
            }
            Err(usage_error(
                "xargs",
                &format!("value {} for -{} option should be >= {}", s, opt, min),
                1,
            ))
        }
        Err(_) => Err(usage_error(
            "xargs",
            &format!("invalid number \"{}\" for -{} option", s, opt),
            1,
        )),
    }
}

fn parse_delim(s: &[u8]) -> Option<u8> {
    if s.len() == 1 {
        return Some(s[0]);
    }
    if s.first() != Some(&b'\\') {
        return None;
    }
    let r = &s[1..];
    Some(match r {
        b"n" => b'\n',
        b"t" => b'\t',
        b"0" => 0,
        b"\\" => b'\\',
        b"a" => 7,
        b"b" => 8,
        b"f" => 12,
        b"r" => b'\r',
        b"v" => 11,
        _ if r.first() == Some(&b'x') => {
            u8::from_str_radix(std::str::from_utf8(&r[1..]).ok()?, 16).ok()?
        }
        _ => u8::from_str_radix(std::str::from_utf8(r).ok()?, 8).ok()?,
    })
}

/// One input item and whether a line ended after it (for -L).
struct Item {
    word: Vec<u8>,
    eol: bool,
}

/// Split the default (quote-aware, blank-separated) input.
fn split_quoted(
    input: &[u8],
    eof: &Option<Vec<u8>>,
    lines_mode: bool,
) -> (Vec<Item>, Option<String>) {
    let mut items: Vec<Item> = Vec::new();
    let mut cur: Vec<u8> = Vec::new();
    let mut have = false;
    let mut i = 0;
    while i < input.len() {
        let c = input[i];
        i += 1;
        match c {
            b' ' | b'\t' | b'\n' => {
                if have {
                    if eof.as_deref() == Some(cur.as_slice()) {
                        return (items, None);
                    }
                    // A line ending in a blank continues (-L semantics).
                    items.push(Item {
                        word: std::mem::take(&mut cur),
                        eol: c == b'\n',
                    });
                    have = false;
                } else if c == b'\n' && lines_mode {
                    if let Some(last) = items.last_mut() {
                        let _ = last;
                    }
                }
            }
            b'\'' | b'"' => {
                have = true;
                let start = i;
                match input[start..].iter().position(|&x| x == c || x == b'\n') {
                    Some(k) if input[start + k] == c => {
                        cur.extend_from_slice(&input[start..start + k]);
                        i = start + k + 1;
                    }
                    _ => {
                        let which = if c == b'\'' { "single" } else { "double" };
                        return (
                            items,
                            Some(format!(
                                "unmatched {} quote; by default quotes are special to xargs unless you use the -0 option",
                                which
                            )),
                        );
                    }
                }
            }
            b'\\' => {
                have = true;
                if i < input.len() {
                    cur.push(input[i]);
                    i += 1;
                }
            }
            _ => {
                have = true;
                cur.push(c);
            }
        }
    }
    if have && eof.as_deref() != Some(cur.as_slice()) {
        items.push(Item {
            word: cur,
            eol: true,
        });
    }
    (items, None)
}

/// Split -I input: one item per line, leading blanks dropped, quotes kept
/// meaningful as GNU does.
fn split_lines(input: &[u8], eof: &Option<Vec<u8>>) -> (Vec<Item>, Option<String>) {
    let mut items = Vec::new();
    for line in input.split(|&c| c == b'\n') {
        let start = line
            .iter()
            .position(|&c| c != b' ' && c != b'\t')
            .unwrap_or(line.len());
        let l = &line[start..];
        if l.is_empty() {
            continue;
        }
        let mut word = Vec::new();
        let mut i = 0;
        while i < l.len() {
            let c = l[i];
            i += 1;
            match c {
                b'\'' | b'"' => match l[i..].iter().position(|&x| x == c) {
                    Some(k) => {
                        word.extend_from_slice(&l[i..i + k]);
                        i += k + 1;
                    }
                    None => {
                        let which = if c == b'\'' { "single" } else { "double" };
                        return (
                            items,
                            Some(format!(
                                "unmatched {} quote; by default quotes are special to xargs unless you use the -0 option",
                                which
                            )),
                        );
                    }
                },
                b'\\' if i < l.len() => {
                    word.push(l[i]);
                    i += 1;
                }
                _ => word.push(c),
            }
        }
        if eof.as_deref() == Some(word.as_slice()) {
            break;
        }
        items.push(Item { word, eol: true });
    }
    (items, None)
}

struct Runner {
    verbose: bool,
    status: i32,
}

impl Runner {
    /// Run one command line; returns false when xargs must stop now.
    fn run(&mut self, argv: &[Vec<u8>]) -> bool {
        if self.verbose {
            let words: Vec<String> = argv
                .iter()
                .map(|w| String::from_utf8_lossy(w).into_owned())
                .collect();
            eprintln!("{}", words.join(" "));
        }
        let _ = std::io::stdout().flush();
        let name = String::from_utf8_lossy(&argv[0]).into_owned();
        let cmd = Command {
            program: os_from_bytes(&argv[0]),
            args: argv[1..].iter().map(|a| os_from_bytes(a)).collect(),
            ..Default::default()
        };
        match process::run(&cmd) {
            Ok(Status::Exited(0)) => true,
            Ok(Status::Exited(255)) => {
                eprintln!(
                    "{}: {}: exited with status 255; aborting",
                    coreutils_core::prog("xargs"),
                    name
                );
                self.status = 124;
                false
            }
            Ok(Status::Exited(_)) => {
                self.status = 123;
                true
            }
            Ok(Status::Signaled(s)) => {
                eprintln!(
                    "{}: {}: terminated by signal {}",
                    coreutils_core::prog("xargs"),
                    name,
                    s
                );
                self.status = 125;
                false
            }
            Err(e) => {
                eprintln!(
                    "{}: {}: {}",
                    coreutils_core::prog("xargs"),
                    name,
                    strerror(&e)
                );
                self.status = if e.kind() == std::io::ErrorKind::NotFound {
                    127
                } else {
                    126
                };
                false
            }
        }
    }
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    // `+`: the first operand is the command; its options are its own.
    let parsed = match parse(
        args.get(1..).unwrap_or(&[]),
        "+0d:a:n:L:l::I:i::s:rtpP:E:e::xS:o",
        LONGS,
    ) {
        Ok(p) => p,
        Err(e) => return usage_error("xargs", &e.message, 1),
    };
    let mut o = Opts {
        max_chars: MAX_CHARS,
        ..Default::default()
    };
    for op in &parsed.opts {
        match op.key {
            '0' => o.delim = Some(0),
            'd' => {
                let v = op
                    .value
                    .as_ref()
                    .map(|a| os_bytes(a).to_vec())
                    .unwrap_or_default();
                match parse_delim(&v) {
                    Some(d) => o.delim = Some(d),
                    None => {
                        eprintln!("{}: Invalid input delimiter specification {}: the delimiter must be either a single character or an escape sequence starting with \\.", coreutils_core::prog("xargs"), String::from_utf8_lossy(&v));
                        return 1;
                    }
                }
            }
            'a' => o.file = op.value.clone(),
            'n' => match num(&op.value, 'n', 1) {
                Ok(n) => {
                    o.max_args = Some(n);
                    o.max_lines = None;
                    o.replace = None;
                }
                Err(c) => return c,
            },
            'L' | 'l' => {
                let n = if op.value.is_none() && op.key == 'l' {
                    1
                } else {
                    match num(&op.value, 'L', 1) {
                        Ok(n) => n,
                        Err(c) => return c,
                    }
                };
                o.max_lines = Some(n);
                o.max_args = None;
                o.replace = None;
            }
            'I' | 'i' => {
                o.replace = Some(
                    op.value
                        .as_ref()
                        .map(|a| os_bytes(a).to_vec())
                        .unwrap_or_else(|| b"{}".to_vec()),
                );
                o.max_lines = None;
                o.max_args = None;
            }
            's' => match num(&op.value, 's', 1) {
                Ok(n) => o.max_chars = n.min(MAX_CHARS * 16),
                Err(c) => return c,
            },
            'r' => o.no_empty = true,
            't' => o.verbose = true,
            'p' | 'o' | 'S' => {}
            'P' => {
                if let Err(c) = num(&op.value, 'P', 0) {
                    return c;
                }
            }
            'E' | 'e' => {
                o.eof = op
                    .value
                    .as_ref()
                    .map(|a| os_bytes(a).to_vec())
                    .filter(|v| !v.is_empty())
            }
            'x' => o.exit_on_size = true,
            'h' => {
                println!("Usage: xargs [OPTION]... COMMAND [INITIAL-ARGS]...");
                return 0;
            }
            'V' => return crate::common::version("xargs"),
            _ => {}
        }
    }
    let base: Vec<Vec<u8>> = if parsed.operands.is_empty() {
        vec![b"echo".to_vec()]
    } else {
        parsed
            .operands
            .iter()
            .map(|a| os_bytes(a).to_vec())
            .collect()
    };
    let mut input = Vec::new();
    let read = match &o.file {
        Some(f) => coreutils_core::fs::open(f).and_then(|mut fh| fh.read_to_end(&mut input)),
        None => std::io::stdin().lock().read_to_end(&mut input),
    };
    if let Err(e) = read {
        match &o.file {
            Some(f) => eprintln!(
                "{}: Cannot open input file '{}': {}",
                coreutils_core::prog("xargs"),
                f.to_string_lossy(),
                strerror(&e)
            ),
            None => eprintln!(
                "{}: read error: {}",
                coreutils_core::prog("xargs"),
                strerror(&e)
            ),
        }
        return 1;
    }
    let items = if let Some(d) = o.delim {
        let mut v: Vec<Item> = input
            .split(|&c| c == d)
            .map(|w| Item {
                word: w.to_vec(),
                eol: true,
            })
            .collect();
        if input.last() == Some(&d) || input.is_empty() {
            v.pop();
        }
        (v, None)
    } else if o.replace.is_some() {
        split_lines(&input, &o.eof)
    } else {
        split_quoted(&input, &o.eof, o.max_lines.is_some())
    };
    let (items, bad) = items;
    if bad.is_some() && items.is_empty() {
        eprintln!(
            "{}: {}",
            coreutils_core::prog("xargs"),
            bad.unwrap_or_default()
        );
        return 1;
    }
    let mut r = Runner {
        verbose: o.verbose,
        status: 0,
    };
    let code = run_items(&o, &base, &items, &mut r);
    if let Some(m) = bad {
        eprintln!("{}: {}", coreutils_core::prog("xargs"), m);
        return 1;
    }
    code
}

fn run_items(o: &Opts, base: &[Vec<u8>], items: &[Item], r: &mut Runner) -> i32 {
    if let Some(rep) = &o.replace {
        for it in items {
            let argv: Vec<Vec<u8>> = base.iter().map(|w| replace_all(w, rep, &it.word)).collect();
            if !r.run(&argv) {
                return r.status;
            }
        }
        return r.status;
    }
    if items.is_empty() {
        if !o.no_empty {
            r.run(base);
        }
        return r.status;
    }
    let base_len: usize = base.iter().map(|w| w.len() + 1).sum();
    let mut i = 0;
    while i < items.len() {
        let mut argv = base.to_vec();
        let mut len = base_len;
        let mut lines = 0;
        let start = i;
        while i < items.len() {
            let w = &items[i].word;
            if i > start && len + w.len() + 1 > o.max_chars {
                break;
            }
            if i == start && len + w.len() + 1 > o.max_chars {
                eprintln!(
                    "{}: cannot fit single argument within argument list size limit",
                    coreutils_core::prog("xargs")
                );
                return 1;
            }
            len += w.len() + 1;
            argv.push(w.clone());
            let eol = items[i].eol;
            i += 1;
            if let Some(n) = o.max_args {
                if argv.len() - base.len() >= n {
                    break;
                }
            }
            if let Some(n) = o.max_lines {
                if eol {
                    lines += 1;
                    if lines >= n {
                        break;
                    }
                }
            }
        }
        if !r.run(&argv) {
            return r.status;
        }
    }
    r.status
}

fn replace_all(w: &[u8], pat: &[u8], with: &[u8]) -> Vec<u8> {
    if pat.is_empty() {
        return w.to_vec();
    }
    let mut out = Vec::with_capacity(w.len());
    let mut i = 0;
    while i < w.len() {
        if w[i..].starts_with(pat) {
            out.extend_from_slice(with);
            i += pat.len();
        } else {
            out.push(w[i]);
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_with_quotes() {
        let v = split_quoted(b"a 'b c' \"d\\e\" f\\ g\n", &None, false).0;
        let w: Vec<&[u8]> = v.iter().map(|i| i.word.as_slice()).collect();
        assert_eq!(w, vec![&b"a"[..], b"b c", b"d\\e", b"f g"]);
        assert!(split_quoted(b"a 'b", &None, false).1.is_some());
        let v = split_quoted(b"a END b", &Some(b"END".to_vec()), false).0;
        assert_eq!(v.len(), 1);
    }

    #[test]
    fn delimiters() {
        assert_eq!(parse_delim(b"\\n"), Some(b'\n'));
        assert_eq!(parse_delim(b","), Some(b','));
        assert_eq!(parse_delim(b"ab"), None);
    }
}
