//! `cut`: select bytes, characters or delimited fields of each line.

use std::ffi::OsString;

use crate::common::bytes::{memchr, os_bytes, qf, records};
use crate::common::input::{err_text, finish, put, read_all, stdout, Out};
use crate::common::ranges::{complement, parse_list, Ranges};
use coreutils_core::args::{opt, HasArg, Opt, OptSpec, Spec, Usage};

const USAGE: Usage = Usage::new(
    "cut",
    "OPTION... [FILE]...\nPrint selected parts of lines from each FILE to standard output.\n",
    1,
);

const SPEC: &[OptSpec<&str>] = &[
    opt("b", Some('b'), Some("bytes"), HasArg::Required),
    opt("c", Some('c'), Some("characters"), HasArg::Required),
    opt("f", Some('f'), Some("fields"), HasArg::Required),
    opt("d", Some('d'), Some("delimiter"), HasArg::Required),
    opt("n", Some('n'), None, HasArg::No),
    opt("complement", None, Some("complement"), HasArg::No),
    opt("s", Some('s'), Some("only-delimited"), HasArg::No),
    opt("od", None, Some("output-delimiter"), HasArg::Required),
    opt("z", Some('z'), Some("zero-terminated"), HasArg::No),
];

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match USAGE.parse(&Spec::gnu(SPEC), &args[1.min(args.len())..]) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let mut list: Option<(&str, String)> = None;
    for Opt { key: id, value: v } in &p.opts {
        if matches!(*id, "b" | "c" | "f") {
            if list.is_some() {
                return USAGE.fail("only one list may be specified");
            }
            list = Some((
                id,
                v.as_ref()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default(),
            ));
        }
    }
    let (kind, spec) = match list {
        Some(l) => l,
        None => return USAGE.fail("you must specify a list of bytes, characters, or fields"),
    };
    let fields = kind == "f";
    let delim = match p.last("d") {
        Some(d) => {
            let b = os_bytes(d);
            if b.len() > 1 {
                return USAGE.fail("the delimiter must be a single character");
            }
            if !fields {
                return USAGE
                    .fail("an input delimiter may be specified only when operating on fields");
            }
            b.first().copied().unwrap_or(0)
        }
        None => b'\t',
    };
    if p.has("s") && !fields {
        return USAGE
            .fail("suppressing non-delimited lines makes sense\n\tonly when operating on fields");
    }
    let mut ranges = match parse_list(&spec, fields) {
        Ok(r) => r,
        Err(m) => return USAGE.fail(&m),
    };
    if p.has("complement") {
        ranges = complement(&ranges);
    }
    let out_delim: Option<Vec<u8>> = p.last("od").map(|s| os_bytes(s).to_vec());
    let eol = if p.has("z") { 0 } else { b'\n' };
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
                eprintln!(
                    "{}: {}: {}",
                    coreutils_core::prog("cut"),
                    qf(f),
                    err_text(&e)
                );
                status = 1;
                continue;
            }
        };
        for line in records(&data, eol) {
            if fields {
                cut_fields(
                    &mut out,
                    line,
                    &ranges,
                    delim,
                    out_delim.as_deref(),
                    p.has("s"),
                    eol,
                );
            } else {
                cut_bytes(&mut out, line, &ranges, out_delim.as_deref());
                put(&mut out, &[eol]);
            }
        }
    }
    finish(&mut out, "cut", status)
}

fn cut_bytes(out: &mut Out, line: &[u8], ranges: &Ranges, od: Option<&[u8]>) {
    let mut first = true;
    for &(lo, hi) in ranges {
        if lo > line.len() {
            break;
        }
        let end = hi.min(line.len());
        if !first {
            if let Some(d) = od {
                put(out, d);
            }
        }
        first = false;
        put(out, &line[lo - 1..end]);
    }
}

fn cut_fields(
    out: &mut Out,
    line: &[u8],
    ranges: &Ranges,
    delim: u8,
    od: Option<&[u8]>,
    only: bool,
    eol: u8,
) {
    if memchr(delim, line).is_none() {
        if !only {
            put(out, line);
            put(out, &[eol]);
        }
        return;
    }
    let d = [delim];
    let od = od.unwrap_or(&d);
    let mut first = true;
    let mut ri = 0;
    for (n, field) in line.split(|&c| c == delim).enumerate() {
        let n = n + 1;
        while ri < ranges.len() && ranges[ri].1 < n {
            ri += 1;
        }
        if ri == ranges.len() {
            break;
        }
        if ranges[ri].0 <= n {
            if !first {
                put(out, od);
            }
            first = false;
            put(out, field);
        }
    }
    put(out, &[eol]);
}
