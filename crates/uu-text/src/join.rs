//! `join`: join lines of two sorted files on a common field (`-1 -2 -j
//! -t -a -v -e -o -i`, `--header`, order checks as GNU's).

use std::cmp::Ordering;
use std::ffi::OsString;

use crate::common::bytes::{disp, os_bytes, q, qf, records};
use crate::common::input::{err_text, finish, put, read_all, stdout, Out};
use coreutils_core::args::{self, opt, HasArg, OptSpec, Usage};

const USAGE: Usage = Usage::new("join", "[OPTION]... FILE1 FILE2\nFor each pair of input lines with identical join fields, write a line to\nstandard output.\n", 1);

const SPEC: &[OptSpec<&str>] = &[
    opt("a", Some('a'), None, HasArg::Required),
    opt("e", Some('e'), None, HasArg::Required),
    opt("i", Some('i'), Some("ignore-case"), HasArg::No),
    opt("j", Some('j'), None, HasArg::Required),
    opt("o", Some('o'), None, HasArg::Required),
    opt("t", Some('t'), None, HasArg::Required),
    opt("v", Some('v'), None, HasArg::Required),
    opt("1", Some('1'), None, HasArg::Required),
    opt("2", Some('2'), None, HasArg::Required),
    opt("check", None, Some("check-order"), HasArg::No),
    opt("nocheck", None, Some("nocheck-order"), HasArg::No),
    opt("header", None, Some("header"), HasArg::No),
    opt("z", Some('z'), Some("zero-terminated"), HasArg::No),
];

#[derive(Clone, Copy, PartialEq)]
enum Spec {
    Key,
    Field(usize, usize),
}

struct Cfg {
    tab: Option<u8>,
    key: [usize; 2],
    icase: bool,
    empty: Option<Vec<u8>>,
    format: Option<Vec<Spec>>,
    auto: bool,
    nf: [usize; 2],
    eol: u8,
}

fn fields(line: &[u8], tab: Option<u8>) -> Vec<&[u8]> {
    match tab {
        Some(t) => line.split(|&c| c == t).collect(),
        None => line
            .split(|&c| c == b' ' || c == b'\t')
            .filter(|f| !f.is_empty())
            .collect(),
    }
}

fn cmp_key(a: &[u8], b: &[u8], icase: bool) -> Ordering {
    if icase {
        a.iter()
            .map(|c| c.to_ascii_lowercase())
            .cmp(b.iter().map(|c| c.to_ascii_lowercase()))
    } else {
        a.cmp(b)
    }
}

fn field_num(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n - 1),
        _ => Err(format!("invalid field number: '{}'", s)),
    }
}

fn parse_format(s: &str) -> Result<Vec<Spec>, String> {
    let mut v = Vec::new();
    for item in s.split([',', ' ', '\t']).filter(|x| !x.is_empty()) {
        if item == "0" {
            v.push(Spec::Key);
            continue;
        }
        let bad = || format!("invalid field specifier: '{}'", item);
        let (f, n) = item.split_once('.').ok_or_else(bad)?;
        let fnum = match f {
            "1" => 0,
            "2" => 1,
            _ => return Err(format!("invalid file number in field spec: '{}'", item)),
        };
        let n = field_num(n).map_err(|_| bad())?;
        v.push(Spec::Field(fnum, n));
    }
    Ok(v)
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match USAGE.parse(&args::Spec::gnu(SPEC), &args[1.min(args.len())..]) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let mut cfg = Cfg {
        tab: None,
        key: [0, 0],
        icase: p.has("i"),
        empty: None,
        format: None,
        auto: false,
        nf: [0, 0],
        eol: if p.has("z") { 0 } else { b'\n' },
    };
    let mut unpaired = [false, false];
    let mut only_unpaired = false;
    let mut check = 1;
    for o in &p.opts {
        let (id, v, s) = (&o.key, &o.value, o.val());
        let r: Result<(), String> = match o.key {
            "1" => field_num(&s).map(|n| cfg.key[0] = n),
            "2" => field_num(&s).map(|n| cfg.key[1] = n),
            "j" => field_num(&s).map(|n| cfg.key = [n, n]),
            "a" | "v" => match s.as_str() {
                "1" | "2" => {
                    unpaired[usize::from(s == "2")] = true;
                    if *id == "v" {
                        only_unpaired = true;
                    }
                    Ok(())
                }
                _ => Err(format!("invalid field number: '{}'", s)),
            },
            "e" => {
                let b = os_bytes(v.as_ref().map(|x| x.as_os_str()).unwrap_or_default()).to_vec();
                if cfg.empty.as_ref().map_or(false, |old| *old != b) {
                    Err("conflicting empty-field replacement strings".into())
                } else {
                    cfg.empty = Some(b);
                    Ok(())
                }
            }
            "o" => {
                if s == "auto" {
                    cfg.auto = true;
                    Ok(())
                } else {
                    parse_format(&s).map(|f| cfg.format.get_or_insert_with(Vec::new).extend(f))
                }
            }
            "t" => {
                let b = os_bytes(v.as_ref().map(|x| x.as_os_str()).unwrap_or_default());
                match b {
                    [c] => {
                        cfg.tab = Some(*c);
                        Ok(())
                    }
                    [] => {
                        cfg.tab = Some(b'\n');
                        Ok(())
                    }
                    b"\\0" => {
                        cfg.tab = Some(0);
                        Ok(())
                    }
                    _ => Err(format!("multi-character tab '{}'", s)),
                }
            }
            "check" => {
                check = 2;
                Ok(())
            }
            "nocheck" => {
                check = 0;
                Ok(())
            }
            _ => Ok(()),
        };
        if let Err(m) = r {
            return USAGE.die(1, &m);
        }
    }
    match p.operands.len() {
        0 => return USAGE.fail("missing operand"),
        1 => return USAGE.fail(&format!("missing operand after {}", q(&p.operands[0]))),
        2 => {}
        _ => return USAGE.fail(&format!("extra operand {}", q(&p.operands[2]))),
    }
    if p.operands[0] == "-" && p.operands[1] == "-" {
        return USAGE.die(1, "both files cannot be standard input");
    }
    let mut data = Vec::new();
    for f in &p.operands {
        match read_all(f) {
            Ok(d) => data.push(d),
            Err(e) => return USAGE.die(1, &format!("{}: {}", qf(f), err_text(&e))),
        }
    }
    let lines: [Vec<Vec<&[u8]>>; 2] = [
        records(&data[0], cfg.eol)
            .map(|l| fields(l, cfg.tab))
            .collect(),
        records(&data[1], cfg.eol)
            .map(|l| fields(l, cfg.tab))
            .collect(),
    ];
    let raw: [Vec<&[u8]>; 2] = [
        records(&data[0], cfg.eol).collect(),
        records(&data[1], cfg.eol).collect(),
    ];
    if cfg.auto {
        cfg.nf = [
            lines[0].first().map_or(0, |l| l.len()),
            lines[1].first().map_or(0, |l| l.len()),
        ];
    }
    let mut out = stdout();
    let mut idx = [0usize, 0usize];
    if p.has("header") {
        let (a, b) = (lines[0].first(), lines[1].first());
        if a.is_some() || b.is_some() {
            let empty: Vec<&[u8]> = Vec::new();
            emit(
                &mut out,
                &cfg,
                a.unwrap_or(&empty),
                b.unwrap_or(&empty),
                if a.is_some() { 0 } else { 1 },
            );
            idx = [usize::from(a.is_some()), usize::from(b.is_some())];
        }
    }
    let key = |w: usize, i: usize| -> &[u8] { lines[w][i].get(cfg.key[w]).copied().unwrap_or(b"") };
    let mut warned = [false, false];
    let mut seen_unpairable = false;
    let mut fatal = false;
    let check_step = |w: usize, i: usize, seen: bool, warned: &mut [bool; 2]| -> bool {
        if check == 0 || (check == 1 && !seen) || warned[w] || i == 0 || i >= lines[w].len() {
            return false;
        }
        if cmp_key(key(w, i - 1), key(w, i), cfg.icase) == Ordering::Greater {
            let _ = std::io::Write::flush(&mut std::io::stdout());
            let mut msg =
                format!("join: {}:{}: is not sorted: ", disp(&p.operands[w]), i + 1).into_bytes();
            msg.extend_from_slice(raw[w][i]);
            msg.push(b'\n');
            let _ = std::io::Write::write_all(&mut std::io::stderr(), &msg);
            warned[w] = true;
            return check == 2;
        }
        false
    };
    while idx[0] < lines[0].len() && idx[1] < lines[1].len() {
        let d = cmp_key(key(0, idx[0]), key(1, idx[1]), cfg.icase);
        match d {
            Ordering::Less => {
                if unpaired[0] {
                    emit_single(&mut out, &cfg, &lines[0][idx[0]], 0);
                }
                idx[0] += 1;
                // GNU reads the next line (checking order) before it
                // notes that an unpairable line was seen.
                if check_step(0, idx[0], seen_unpairable, &mut warned) {
                    fatal = true;
                    break;
                }
                seen_unpairable = true;
            }
            Ordering::Greater => {
                if unpaired[1] {
                    emit_single(&mut out, &cfg, &lines[1][idx[1]], 1);
                }
                idx[1] += 1;
                // GNU reads the next line (checking order) before it
                // notes that an unpairable line was seen.
                if check_step(1, idx[1], seen_unpairable, &mut warned) {
                    fatal = true;
                    break;
                }
                seen_unpairable = true;
            }
            Ordering::Equal => {
                let mut e0 = idx[0] + 1;
                while e0 < lines[0].len()
                    && cmp_key(key(0, e0), key(0, idx[0]), cfg.icase) == Ordering::Equal
                {
                    e0 += 1;
                }
                let mut e1 = idx[1] + 1;
                while e1 < lines[1].len()
                    && cmp_key(key(1, e1), key(1, idx[1]), cfg.icase) == Ordering::Equal
                {
                    e1 += 1;
                }
                // GNU reads past the group (checking order) before printing it.
                let f0 = check_step(0, e0, seen_unpairable, &mut warned);
                let f1 = check_step(1, e1, seen_unpairable, &mut warned);
                if f0 || f1 {
                    fatal = true;
                    break;
                }
                if !only_unpaired {
                    for a in &lines[0][idx[0]..e0] {
                        for b in &lines[1][idx[1]..e1] {
                            emit(&mut out, &cfg, a, b, 0);
                        }
                    }
                }
                idx = [e0, e1];
            }
        }
    }
    if !fatal {
        for w in 0..2 {
            while idx[w] < lines[w].len() {
                if unpaired[w] {
                    emit_single(&mut out, &cfg, &lines[w][idx[w]], w);
                }
                idx[w] += 1;
                // One input is exhausted here, so GNU does not count the
                // other's tail as unpairable for order checking.
                if check_step(w, idx[w], seen_unpairable, &mut warned) {
                    fatal = true;
                    break;
                }
            }
        }
    }
    let status = finish(&mut out, "join", 0);
    if fatal {
        return 1;
    }
    if (warned[0] || warned[1]) && check == 1 {
        eprintln!(
            "{}: input is not in sorted order",
            coreutils_core::prog("join")
        );
        return 1;
    }
    status
}

fn emit_single(out: &mut Out, cfg: &Cfg, line: &[&[u8]], which: usize) {
    let empty: Vec<&[u8]> = Vec::new();
    if which == 0 {
        emit(out, cfg, line, &empty, 0);
    } else {
        emit(out, cfg, &empty, line, 1);
    }
}

/// Write one output line; `keyfrom` says which side holds the key (for
/// unpaired lines).
fn emit(out: &mut Out, cfg: &Cfg, a: &[&[u8]], b: &[&[u8]], keyfrom: usize) {
    let sep = cfg.tab.unwrap_or(b' ');
    let empty = cfg.empty.as_deref().unwrap_or(b"");
    let mut line: Vec<u8> = Vec::new();
    let sides = [a, b];
    let get = |w: usize, n: usize| -> &[u8] {
        match sides[w].get(n) {
            Some(f) if !f.is_empty() => f,
            _ => empty,
        }
    };
    let keyv: &[u8] = match sides[keyfrom].get(cfg.key[keyfrom]) {
        Some(k) if !k.is_empty() => k,
        _ => empty,
    };
    let specs: Vec<Spec> = if let Some(f) = &cfg.format {
        f.clone()
    } else if cfg.auto {
        let mut v = vec![Spec::Key];
        for w in 0..2 {
            for n in 0..cfg.nf[w] {
                if n != cfg.key[w] {
                    v.push(Spec::Field(w, n));
                }
            }
        }
        v
    } else {
        let mut v = vec![Spec::Key];
        for (w, side) in sides.iter().enumerate() {
            for n in 0..side.len() {
                if n != cfg.key[w] {
                    v.push(Spec::Field(w, n));
                }
            }
        }
        v
    };
    for (i, s) in specs.iter().enumerate() {
        if i > 0 {
            line.push(sep);
        }
        match s {
            Spec::Key => line.extend_from_slice(keyv),
            Spec::Field(w, n) => line.extend_from_slice(get(*w, *n)),
        }
    }
    line.push(cfg.eol);
    put(out, &line);
}
