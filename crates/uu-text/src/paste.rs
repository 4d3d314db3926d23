//! `paste`: merge lines of files side by side, or serially with `-s`.

use std::ffi::OsString;

use crate::common::bytes::{os_bytes, qf, records};
use crate::common::input::{err_text, finish, put, read_all, stdout};
use coreutils_core::args::{opt, HasArg, OptSpec, Spec, Usage};

const USAGE: Usage = Usage::new("paste", "[OPTION]... [FILE]...\nWrite lines consisting of the sequentially corresponding lines from\neach FILE, separated by TABs, to standard output.\n", 1);

const SPEC: &[OptSpec<&str>] = &[
    opt("d", Some('d'), Some("delimiters"), HasArg::Required),
    opt("s", Some('s'), Some("serial"), HasArg::No),
    opt("z", Some('z'), Some("zero-terminated"), HasArg::No),
];

/// Decode the `-d` list: `\n \t \\ \0` escapes; `\0` is "no delimiter".
fn delims(s: &[u8]) -> Result<Vec<Option<u8>>, String> {
    let mut v = Vec::new();
    let mut i = 0;
    while i < s.len() {
        if s[i] == b'\\' {
            i += 1;
            match s.get(i) {
                None => {
                    return Err(format!(
                        "delimiter list ends with an unescaped backslash: {}",
                        String::from_utf8_lossy(s)
                    ))
                }
                Some(b'n') => v.push(Some(b'\n')),
                Some(b't') => v.push(Some(b'\t')),
                Some(b'0') => v.push(None),
                Some(b'b') => v.push(Some(8)),
                Some(b'f') => v.push(Some(12)),
                Some(b'r') => v.push(Some(b'\r')),
                Some(b'v') => v.push(Some(11)),
                Some(&c) => v.push(Some(c)),
            }
        } else {
            v.push(Some(s[i]));
        }
        i += 1;
    }
    Ok(v)
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match USAGE.parse(&Spec::gnu(SPEC), &args[1.min(args.len())..]) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let d = match p.last("d") {
        Some(s) => match delims(os_bytes(s)) {
            Ok(d) => d,
            Err(m) => return USAGE.die(1, &m),
        },
        None => vec![Some(b'\t')],
    };
    let d = if d.is_empty() { vec![None] } else { d };
    let eol = if p.has("z") { 0 } else { b'\n' };
    let files = if p.operands.is_empty() {
        vec![OsString::from("-")]
    } else {
        p.operands.clone()
    };
    // Standard input named several times is read once and its lines dealt
    // out in turn, as GNU does.
    let mut stdin_data: Option<Vec<u8>> = None;
    let mut contents: Vec<Vec<u8>> = Vec::new();
    for f in &files {
        if f == "-" {
            if stdin_data.is_none() {
                stdin_data = Some(read_all(f).unwrap_or_default());
            }
            contents.push(Vec::new());
            continue;
        }
        match read_all(f) {
            Ok(c) => contents.push(c),
            Err(e) => return USAGE.die(1, &format!("{}: {}", qf(f), err_text(&e))),
        }
    }
    let stdin_lines: Vec<&[u8]> = stdin_data
        .as_deref()
        .map(|s| records(s, eol).collect())
        .unwrap_or_default();
    let mut out = stdout();
    if p.has("s") {
        let mut si = 0;
        for (k, f) in files.iter().enumerate() {
            let lines: Vec<&[u8]> = if f == "-" {
                let v = stdin_lines[si..].to_vec();
                si = stdin_lines.len();
                v
            } else {
                records(&contents[k], eol).collect()
            };
            let mut line = Vec::new();
            for (n, l) in lines.iter().enumerate() {
                if n > 0 {
                    if let Some(c) = d[(n - 1) % d.len()] {
                        line.push(c);
                    }
                }
                line.extend_from_slice(l);
            }
            line.push(eol);
            put(&mut out, &line);
        }
        return finish(&mut out, "paste", 0);
    }
    let per: Vec<Vec<&[u8]>> = files
        .iter()
        .enumerate()
        .map(|(k, f)| {
            if f == "-" {
                Vec::new()
            } else {
                records(&contents[k], eol).collect()
            }
        })
        .collect();
    let mut idx = vec![0usize; files.len()];
    let mut si = 0;
    let mut line = Vec::new();
    loop {
        line.clear();
        let mut any = false;
        for (k, f) in files.iter().enumerate() {
            if k > 0 {
                if let Some(c) = d[(k - 1) % d.len()] {
                    line.push(c);
                }
            }
            if f == "-" {
                if si < stdin_lines.len() {
                    line.extend_from_slice(stdin_lines[si]);
                    si += 1;
                    any = true;
                }
            } else if idx[k] < per[k].len() {
                line.extend_from_slice(per[k][idx[k]]);
                idx[k] += 1;
                any = true;
            }
        }
        if !any {
            break;
        }
        line.push(eol);
        put(&mut out, &line);
    }
    finish(&mut out, "paste", 0)
}
