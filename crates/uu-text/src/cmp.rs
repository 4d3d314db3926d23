//! `cmp`: compare two files byte by byte (`-l -b -s -n -i`), with
//! diffutils' messages and exit statuses (0 same, 1 differ, 2 trouble).

use std::ffi::OsString;
use std::io::Write;

use crate::common::bytes::{disp, q};
use crate::common::input::{err_text, read_all};
use crate::common::num::parse_size;
use coreutils_core::args::{opt, HasArg, OptSpec, Spec, Usage};

const USAGE: Usage = Usage {
    prog_in_hint: true,
    ..Usage::new(
        "cmp",
        "[OPTION]... FILE1 [FILE2 [SKIP1 [SKIP2]]]\nCompare two files byte by byte.\n",
        2,
    )
};

const SPEC: &[OptSpec<&str>] = &[
    opt("b", Some('b'), Some("print-bytes"), HasArg::No),
    opt("i", Some('i'), Some("ignore-initial"), HasArg::Required),
    opt("l", Some('l'), Some("verbose"), HasArg::No),
    opt("n", Some('n'), Some("bytes"), HasArg::Required),
    opt("s", Some('s'), Some("quiet"), HasArg::No),
    opt("s", None, Some("silent"), HasArg::No),
];

fn sprintc(c: u8) -> String {
    let mut s = String::new();
    let mut c = c;
    if c >= 128 {
        s.push_str("M-");
        c -= 128;
    }
    if c < 32 {
        s.push('^');
        s.push((c + 64) as char);
    } else if c == 127 {
        s.push_str("^?");
    } else {
        s.push(c as char);
    }
    s
}

fn skip_value(s: &str) -> Option<u64> {
    parse_size(s).ok()
}

fn fail_usage(msg: &str) -> i32 {
    eprintln!("{}: {}", coreutils_core::prog("cmp"), msg);
    eprintln!(
        "{}: Try 'cmp --help' for more information.",
        coreutils_core::prog("cmp")
    );
    2
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match USAGE.parse(&Spec::gnu(SPEC), &args[1.min(args.len())..]) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let ops = &p.operands;
    if ops.is_empty() {
        return fail_usage("missing operand after 'cmp'");
    }
    let mut skip = [0u64, 0u64];
    if let Some(s) = p.last_str("i") {
        let (a, b) = match s.split_once(':') {
            Some((a, b)) => (a.to_string(), b.to_string()),
            None => (s.clone(), s.clone()),
        };
        match (skip_value(&a), skip_value(&b)) {
            (Some(x), Some(y)) => skip = [x, y],
            _ => return fail_usage(&format!("invalid --ignore-initial value '{}'", s)),
        }
    }
    for (k, slot) in skip.iter_mut().enumerate() {
        if let Some(v) = ops.get(2 + k) {
            let s = v.to_string_lossy();
            match skip_value(&s) {
                Some(n) => *slot = n,
                None => return fail_usage(&format!("invalid --ignore-initial value '{}'", s)),
            }
        }
    }
    if ops.len() > 4 {
        return fail_usage(&format!("extra operand {}", q(&ops[4])));
    }
    let limit = match p.last_str("n") {
        Some(s) => match parse_size(&s) {
            Ok(n) => Some(n),
            Err(_) => return fail_usage(&format!("invalid --bytes value '{}'", s)),
        },
        None => None,
    };
    let names = [
        ops[0].clone(),
        ops.get(1).cloned().unwrap_or_else(|| OsString::from("-")),
    ];
    if names[0] == names[1] && names[0] != "-" && skip[0] == skip[1] {
        return 0;
    }
    let mut data = Vec::new();
    for n in &names {
        match read_all(n) {
            Ok(d) => data.push(d),
            Err(e) => {
                eprintln!(
                    "{}: {}: {}",
                    coreutils_core::prog("cmp"),
                    disp(n),
                    err_text(&e)
                );
                return 2;
            }
        }
    }
    let a = &data[0][(skip[0] as usize).min(data[0].len())..];
    let b = &data[1][(skip[1] as usize).min(data[1].len())..];
    let (mut a, mut b) = (a, b);
    if let Some(l) = limit {
        let l = l.min(usize::MAX as u64) as usize;
        a = &a[..a.len().min(l)];
        b = &b[..b.len().min(l)];
    }
    let silent = p.has("s");
    let verbose = p.has("l");
    let print_bytes = p.has("b");
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let common = a.len().min(b.len());
    let mut differ = false;
    if verbose {
        let mut max = limit.unwrap_or(u64::MAX >> 1);
        for (k, n) in names.iter().enumerate() {
            let reg = n != "-"
                && coreutils_core::fs::metadata(n)
                    .map(|m| m.is_file())
                    .unwrap_or(false);
            if reg {
                max = max.min((data[k].len() as u64).saturating_sub(skip[k]));
            } else {
                max = max.min(i64::MAX as u64);
            }
        }
        let mut width = 1;
        while max >= 10 {
            max /= 10;
            width += 1;
        }
        for i in 0..common {
            if a[i] != b[i] {
                differ = true;
                let line = if print_bytes {
                    format!(
                        "{:>w$} {:>3o} {:<4} {:>3o} {}\n",
                        i + 1,
                        a[i],
                        sprintc(a[i]),
                        b[i],
                        sprintc(b[i]),
                        w = width
                    )
                } else {
                    format!("{:>w$} {:>3o} {:>3o}\n", i + 1, a[i], b[i], w = width)
                };
                if out.write_all(line.as_bytes()).is_err() {
                    return 2;
                }
            }
        }
    } else if let Some(i) = (0..common).find(|&i| a[i] != b[i]) {
        if !silent {
            let line = a[..i].iter().filter(|&&c| c == b'\n').count() + 1;
            let msg = if print_bytes {
                format!(
                    "{} {} differ: byte {}, line {} is {:>3o} {} {:>3o} {}\n",
                    disp(&names[0]),
                    disp(&names[1]),
                    i + 1,
                    line,
                    a[i],
                    sprintc(a[i]),
                    b[i],
                    sprintc(b[i])
                )
            } else {
                // diffutils 3.8 says "char" in the C locale and "byte" in a
                // UTF-8 one (its message catalog), as Debian's cmp prints.
                let unit = if coreutils_core::locale::utf8_locale() {
                    "byte"
                } else {
                    "char"
                };
                format!(
                    "{} {} differ: {} {}, line {}\n",
                    disp(&names[0]),
                    disp(&names[1]),
                    unit,
                    i + 1,
                    line
                )
            };
            let _ = out.write_all(msg.as_bytes());
        }
        let _ = out.flush();
        return 1;
    }
    if out.flush().is_err() {
        return 2;
    }
    if a.len() != b.len() {
        if !silent {
            let (short, len, sdata) = if a.len() < b.len() {
                (&names[0], a.len(), a)
            } else {
                (&names[1], b.len(), b)
            };
            if len == 0 {
                eprintln!(
                    "{}: EOF on {} which is empty",
                    coreutils_core::prog("cmp"),
                    disp(short)
                );
            } else {
                let lines = sdata.iter().filter(|&&c| c == b'\n').count();
                if verbose {
                    eprintln!(
                        "{}: EOF on {} after byte {}",
                        coreutils_core::prog("cmp"),
                        disp(short),
                        len
                    );
                } else if sdata.last() == Some(&b'\n') {
                    eprintln!(
                        "{}: EOF on {} after byte {}, line {}",
                        coreutils_core::prog("cmp"),
                        disp(short),
                        len,
                        lines
                    );
                } else {
                    eprintln!(
                        "{}: EOF on {} after byte {}, in line {}",
                        coreutils_core::prog("cmp"),
                        disp(short),
                        len,
                        lines + 1
                    );
                }
            }
        }
        return 1;
    }
    i32::from(differ)
}
