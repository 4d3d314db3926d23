//! `tac`: concatenate files with their records in reverse order
//! (`-s SEP`, `-b` separator before).

use std::ffi::OsString;

use crate::common::bytes::{os_bytes, q};
use crate::common::input::{err_text, finish, put, read_all, stdout};
use coreutils_core::args::{opt, HasArg, OptSpec, Spec, Usage};

const USAGE: Usage = Usage::new(
    "tac",
    "[OPTION]... [FILE]...\nWrite each FILE to standard output, last line first.\n",
    1,
);

const SPEC: &[OptSpec<&str>] = &[
    opt("b", Some('b'), Some("before"), HasArg::No),
    opt("r", Some('r'), Some("regex"), HasArg::No),
    opt("s", Some('s'), Some("separator"), HasArg::Required),
];

fn find_all(hay: &[u8], sep: &[u8]) -> Vec<usize> {
    let mut v = Vec::new();
    let mut i = 0;
    while i + sep.len() <= hay.len() {
        if &hay[i..i + sep.len()] == sep {
            v.push(i);
            i += sep.len();
        } else {
            i += 1;
        }
    }
    v
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match USAGE.parse(&Spec::gnu(SPEC), &args[1.min(args.len())..]) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let sep: Vec<u8> = match p.last("s") {
        Some(s) if os_bytes(s).is_empty() => vec![0],
        Some(s) => os_bytes(s).to_vec(),
        None => b"\n".to_vec(),
    };
    let before = p.has("b");
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
                if e.kind() == std::io::ErrorKind::NotFound {
                    eprintln!(
                        "{}: failed to open {} for reading: {}",
                        coreutils_core::prog("tac"),
                        q(f),
                        err_text(&e)
                    );
                } else {
                    eprintln!(
                        "{}: {}: read error: {}",
                        coreutils_core::prog("tac"),
                        q(f),
                        err_text(&e)
                    );
                }
                status = 1;
                continue;
            }
        };
        let pos = find_all(&data, &sep);
        // Record boundaries: with -b a record starts at its separator,
        // otherwise it ends after it.
        let mut cuts: Vec<usize> = Vec::with_capacity(pos.len() + 2);
        cuts.push(0);
        for &i in &pos {
            let c = if before { i } else { i + sep.len() };
            if c != 0 && c != data.len() {
                cuts.push(c);
            }
        }
        cuts.push(data.len());
        cuts.dedup();
        for w in cuts.windows(2).rev() {
            put(&mut out, &data[w[0]..w[1]]);
        }
    }
    finish(&mut out, "tac", status)
}
