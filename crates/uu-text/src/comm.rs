//! `comm`: compare two sorted files line by line, in three columns, with
//! GNU's order checking (`--check-order`, `--nocheck-order`).

use std::ffi::OsString;

use crate::common::bytes::{os_bytes, q, qf, records};
use crate::common::input::{err_text, finish, put, read_all, stdout};
use coreutils_core::args::{opt, HasArg, OptSpec, Spec, Usage};

const USAGE: Usage = Usage::new(
    "comm",
    "[OPTION]... FILE1 FILE2\nCompare sorted files FILE1 and FILE2 line by line.\n",
    1,
);

const SPEC: &[OptSpec<&str>] = &[
    opt("1", Some('1'), None, HasArg::No),
    opt("2", Some('2'), None, HasArg::No),
    opt("3", Some('3'), None, HasArg::No),
    opt("check", None, Some("check-order"), HasArg::No),
    opt("nocheck", None, Some("nocheck-order"), HasArg::No),
    opt("od", None, Some("output-delimiter"), HasArg::Required),
    opt("total", None, Some("total"), HasArg::No),
    opt("z", Some('z'), Some("zero-terminated"), HasArg::No),
];

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match USAGE.parse(&Spec::gnu(SPEC), &args[1.min(args.len())..]) {
        Ok(p) => p,
        Err(c) => return c,
    };
    match p.operands.len() {
        0 => return USAGE.fail("missing operand"),
        1 => return USAGE.fail(&format!("missing operand after {}", q(&p.operands[0]))),
        2 => {}
        _ => return USAGE.fail(&format!("extra operand {}", q(&p.operands[2]))),
    }
    let show = [!p.has("1"), !p.has("2"), !p.has("3")];
    let delim: Vec<u8> = match p.last("od") {
        Some(d) if os_bytes(d).is_empty() => vec![0],
        Some(d) => os_bytes(d).to_vec(),
        None => vec![b'\t'],
    };
    // Last of --check-order / --nocheck-order wins.
    let mode = p
        .opts
        .iter()
        .rev()
        .find_map(|o| match o.key {
            "check" => Some(2),
            "nocheck" => Some(0),
            _ => None,
        })
        .unwrap_or(1);
    let eol = if p.has("z") { 0 } else { b'\n' };
    let mut data = Vec::new();
    for f in &p.operands {
        match read_all(f) {
            Ok(d) => data.push(d),
            Err(e) => return USAGE.die(1, &format!("{}: {}", qf(f), err_text(&e))),
        }
    }
    let l1: Vec<&[u8]> = records(&data[0], eol).collect();
    let l2: Vec<&[u8]> = records(&data[1], eol).collect();
    let lines = [l1, l2];
    let mut idx = [0usize, 0usize];
    let mut warned = [false, false];
    let mut seen_unpairable = false;
    let mut counts = [0u64; 3];
    let mut out = stdout();
    let prefix1: Vec<u8> = if show[0] { delim.clone() } else { Vec::new() };
    let mut prefix2: Vec<u8> = Vec::new();
    for s in show.iter().take(2) {
        if *s {
            prefix2.extend_from_slice(&delim);
        }
    }
    loop {
        let a = lines[0].get(idx[0]).copied();
        let b = lines[1].get(idx[1]).copied();
        let order = match (a, b) {
            (None, None) => break,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (Some(_), None) => std::cmp::Ordering::Less,
            (Some(x), Some(y)) => x.cmp(y),
        };
        let mut advance = [false, false];
        match order {
            std::cmp::Ordering::Equal => {
                counts[2] += 1;
                if show[2] {
                    put(&mut out, &prefix2);
                    put(&mut out, a.unwrap_or_default());
                    put(&mut out, &[eol]);
                }
                advance = [true, true];
            }
            std::cmp::Ordering::Less => {
                seen_unpairable = true;
                counts[0] += 1;
                if show[0] {
                    put(&mut out, a.unwrap_or_default());
                    put(&mut out, &[eol]);
                }
                advance[0] = true;
            }
            std::cmp::Ordering::Greater => {
                seen_unpairable = true;
                counts[1] += 1;
                if show[1] {
                    put(&mut out, &prefix1);
                    put(&mut out, b.unwrap_or_default());
                    put(&mut out, &[eol]);
                }
                advance[1] = true;
            }
        }
        for i in 0..2 {
            if !advance[i] {
                continue;
            }
            idx[i] += 1;
            if mode == 0 || (mode == 1 && !seen_unpairable) || warned[i] {
                continue;
            }
            if let (Some(prev), Some(cur)) = (lines[i].get(idx[i] - 1), lines[i].get(idx[i])) {
                if prev > cur {
                    let _ = std::io::Write::flush(&mut out);
                    eprintln!(
                        "{}: file {} is not in sorted order",
                        coreutils_core::prog("comm"),
                        i + 1
                    );
                    if mode == 2 {
                        return 1;
                    }
                    warned[i] = true;
                }
            }
        }
    }
    if p.has("total") {
        let mut t = Vec::new();
        for c in counts {
            t.extend_from_slice(c.to_string().as_bytes());
            t.extend_from_slice(&delim);
        }
        t.extend_from_slice(b"total");
        t.push(eol);
        put(&mut out, &t);
    }
    let status = finish(&mut out, "comm", 0);
    if warned[0] || warned[1] {
        eprintln!(
            "{}: input is not in sorted order",
            coreutils_core::prog("comm")
        );
        return 1;
    }
    status
}
