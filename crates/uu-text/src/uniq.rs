//! `uniq`: report or omit repeated adjacent lines (`-c -d -D -u -i -f -s
//! -w -z`, `--group`).

use std::ffi::OsString;
use std::io::Write;

use crate::common::bytes::{q, qf, records};
use crate::common::input::{err_text, read_all};
use coreutils_core::args::{opt, HasArg, OptSpec, Spec, Usage};

const USAGE: Usage = Usage::new("uniq", "[OPTION]... [INPUT [OUTPUT]]\nFilter adjacent matching lines from INPUT (or standard input),\nwriting to OUTPUT (or standard output).\n", 1);

const SPEC: &[OptSpec<&str>] = &[
    opt("c", Some('c'), Some("count"), HasArg::No),
    opt("d", Some('d'), Some("repeated"), HasArg::No),
    opt("D", Some('D'), None, HasArg::No),
    opt("all-repeated", None, Some("all-repeated"), HasArg::Optional),
    opt("f", Some('f'), Some("skip-fields"), HasArg::Required),
    opt("group", None, Some("group"), HasArg::Optional),
    opt("i", Some('i'), Some("ignore-case"), HasArg::No),
    opt("s", Some('s'), Some("skip-chars"), HasArg::Required),
    opt("u", Some('u'), Some("unique"), HasArg::No),
    opt("w", Some('w'), Some("check-chars"), HasArg::Required),
    opt("z", Some('z'), Some("zero-terminated"), HasArg::No),
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Delim {
    None,
    Prepend,
    Separate,
    Append,
    Both,
}

struct Cfg {
    skip_fields: usize,
    skip_chars: usize,
    check: Option<usize>,
    icase: bool,
}

fn key<'a>(line: &'a [u8], c: &Cfg) -> &'a [u8] {
    let mut p = 0;
    for _ in 0..c.skip_fields {
        while p < line.len() && (line[p] == b' ' || line[p] == b'\t') {
            p += 1;
        }
        while p < line.len() && !(line[p] == b' ' || line[p] == b'\t') {
            p += 1;
        }
    }
    p = (p + c.skip_chars).min(line.len());
    let end = match c.check {
        Some(w) => (p + w).min(line.len()),
        None => line.len(),
    };
    &line[p..end]
}

fn same(a: &[u8], b: &[u8], c: &Cfg) -> bool {
    let (x, y) = (key(a, c), key(b, c));
    if c.icase {
        x.eq_ignore_ascii_case(y)
    } else {
        x == y
    }
}

fn num(s: &str, what: &str) -> Result<usize, String> {
    match s.parse::<u64>() {
        Ok(n) => Ok(n.min(usize::MAX as u64) as usize),
        Err(_) if !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit()) => Ok(usize::MAX),
        Err(_) => Err(format!("{}: {}", s, what)),
    }
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match USAGE.parse(&Spec::gnu(SPEC), &args[1.min(args.len())..]) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let mut cfg = Cfg {
        skip_fields: 0,
        skip_chars: 0,
        check: None,
        icase: p.has("i"),
    };
    let mut all_rep: Option<Delim> = None;
    let mut group: Option<Delim> = None;
    for o in &p.opts {
        let s = o.val();
        let r = match o.key {
            "f" => num(&s, "invalid number of fields to skip").map(|n| cfg.skip_fields = n),
            "s" => num(&s, "invalid number of bytes to skip").map(|n| cfg.skip_chars = n),
            "w" => num(&s, "invalid number of bytes to compare").map(|n| cfg.check = Some(n)),
            "D" => {
                all_rep = Some(Delim::None);
                Ok(())
            }
            "all-repeated" => {
                let d = match s.as_str() {
                    "" | "none" => Delim::None,
                    "prepend" => Delim::Prepend,
                    "separate" => Delim::Separate,
                    _ => {
                        return USAGE.fail(&format!(
                            "invalid argument '{}' for '--all-repeated'\nValid arguments are:\n  - 'none'\n  - 'prepend'\n  - 'separate'",
                            s
                        ))
                    }
                };
                all_rep = Some(d);
                Ok(())
            }
            "group" => {
                let d = match s.as_str() {
                    "" | "separate" => Delim::Separate,
                    "prepend" => Delim::Prepend,
                    "append" => Delim::Append,
                    "both" => Delim::Both,
                    _ => {
                        return USAGE.fail(&format!(
                            "invalid argument '{}' for '--group'\nValid arguments are:\n  - 'prepend'\n  - 'append'\n  - 'separate'\n  - 'both'",
                            s
                        ))
                    }
                };
                group = Some(d);
                Ok(())
            }
            _ => Ok(()),
        };
        if let Err(m) = r {
            return USAGE.die(1, &m);
        }
    }
    let count = p.has("c");
    let (rep, uniq) = (p.has("d"), p.has("u"));
    if group.is_some() && (rep || uniq || count || all_rep.is_some()) {
        return USAGE.fail("--group is mutually exclusive with -c/-d/-D/-u");
    }
    if count && all_rep.is_some() {
        return USAGE.fail("printing all duplicated lines and repeat counts is meaningless");
    }
    if p.operands.len() > 2 {
        return USAGE.fail(&format!("extra operand {}", q(&p.operands[2])));
    }
    let input = p
        .operands
        .first()
        .cloned()
        .unwrap_or_else(|| OsString::from("-"));
    let data = match read_all(&input) {
        Ok(d) => d,
        Err(e) => return USAGE.die(1, &format!("{}: {}", qf(&input), err_text(&e))),
    };
    let mut sink: Box<dyn Write> = match p.operands.get(1).filter(|o| *o != "-") {
        Some(o) => match coreutils_core::fs::create(o) {
            Ok(f) => Box::new(std::io::BufWriter::with_capacity(64 * 1024, f)),
            Err(e) => return USAGE.die(1, &format!("{}: {}", qf(o), err_text(&e))),
        },
        None => Box::new(crate::common::input::stdout()),
    };
    let eol = if p.has("z") { 0 } else { b'\n' };
    let lines: Vec<&[u8]> = records(&data, eol).collect();
    let mut w = Vec::with_capacity(data.len() + 64);
    let mut i = 0;
    let mut first_group = true;
    while i < lines.len() {
        let mut j = i + 1;
        while j < lines.len() && same(lines[i], lines[j], &cfg) {
            j += 1;
        }
        let n = j - i;
        if let Some(g) = group {
            if (!first_group && g != Delim::Append)
                || (first_group && (g == Delim::Prepend || g == Delim::Both))
            {
                w.push(eol);
            }
            for l in &lines[i..j] {
                w.extend_from_slice(l);
                w.push(eol);
            }
            first_group = false;
        } else if let Some(d) = all_rep {
            if n > 1 {
                if (d == Delim::Prepend) || (d == Delim::Separate && !first_group) {
                    w.push(eol);
                }
                first_group = false;
                for l in &lines[i..j] {
                    w.extend_from_slice(l);
                    w.push(eol);
                }
            }
        } else if (!rep || n > 1) && (!uniq || n == 1) {
            if count {
                w.extend_from_slice(format!("{:>7} ", n).as_bytes());
            }
            w.extend_from_slice(lines[i]);
            w.push(eol);
        }
        i = j;
    }
    if let (Some(g), false) = (group, lines.is_empty()) {
        if g == Delim::Append || g == Delim::Both {
            w.push(eol);
        }
    }
    match sink.write_all(&w).and_then(|_| sink.flush()) {
        Ok(()) => 0,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 141,
        Err(e) => USAGE.die(1, &format!("write error: {}", err_text(&e))),
    }
}
