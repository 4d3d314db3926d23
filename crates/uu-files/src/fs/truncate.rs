//! `truncate [-c] [-o] (-s SIZE | -r FILE) FILE...` with the size forms
//! `N`, `+N`, `-N`, `<N`, `>N`, `/N`, `%N` and suffixes K, KB, M, MiB, ...

use coreutils_core::args::{
    long, parse_or_usage, std_opts, usage_error, HasArg, LongOpt, HELP, VERSION,
};
use coreutils_core::error::strerror;
use coreutils_core::quote::quote_gnu;
use std::ffi::OsString;

const LONGS: &[LongOpt] = &[
    long("no-create", HasArg::No, 'c'),
    long("io-blocks", HasArg::No, 'o'),
    long("reference", HasArg::Required, 'r'),
    long("size", HasArg::Required, 's'),
    long("help", HasArg::No, HELP),
    long("version", HasArg::No, VERSION),
];

/// Size adjustment operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// Set.
    Set,
    /// Extend by.
    Add,
    /// Reduce by.
    Sub,
    /// At most.
    AtMost,
    /// At least.
    AtLeast,
    /// Round down to a multiple.
    RoundDown,
    /// Round up to a multiple.
    RoundUp,
}

/// A number with an optional GNU size suffix (`K`=1024, `KB`=1000, `KiB`=1024, ... up to `Y`).
pub fn parse_size(s: &str) -> Option<u64> {
    let digits_end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    if digits_end == 0 {
        return None;
    }
    let n: u64 = s[..digits_end].parse().ok()?;
    let suf = &s[digits_end..];
    if suf.is_empty() {
        return Some(n);
    }
    let letters = "KMGTPEZY";
    let first = suf.chars().next()?.to_ascii_uppercase();
    let power = letters.find(first)? as u32 + 1;
    let base: u64 = match &suf[1..] {
        "" | "iB" => 1024,
        "B" => 1000,
        _ => return None,
    };
    if first != 'K' && suf.starts_with(|c: char| c.is_ascii_lowercase()) && suf.len() == 1 {
        // GNU accepts lower-case only for k.
        return None;
    }
    n.checked_mul(base.checked_pow(power)?)
}

/// Parse `-s` into an operator and a size.
pub fn parse_spec(s: &str) -> Option<(Op, u64)> {
    let (op, rest) = match s.chars().next()? {
        '+' => (Op::Add, &s[1..]),
        '-' => (Op::Sub, &s[1..]),
        '<' => (Op::AtMost, &s[1..]),
        '>' => (Op::AtLeast, &s[1..]),
        '/' => (Op::RoundDown, &s[1..]),
        '%' => (Op::RoundUp, &s[1..]),
        _ => (Op::Set, s),
    };
    Some((op, parse_size(rest)?))
}

fn apply(op: Op, n: u64, cur: u64) -> Option<u64> {
    Some(match op {
        Op::Set => n,
        Op::Add => cur.checked_add(n)?,
        Op::Sub => cur.saturating_sub(n),
        Op::AtMost => cur.min(n),
        Op::AtLeast => cur.max(n),
        Op::RoundDown => cur / n * n,
        Op::RoundUp => (cur + n - 1) / n * n,
    })
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage("truncate", &args, "cor:s:", LONGS, 1) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(c) = std_opts("truncate", &p, "Usage: truncate OPTION... FILE...\nShrink or extend the size of each FILE to the specified size\n") {
        return c;
    }
    let spec = match p.last('s') {
        Some(s) => match parse_spec(&s.to_string_lossy()) {
            Some(x) => Some(x),
            None => {
                eprintln!(
                    "{}: Invalid number: {}",
                    coreutils_core::prog("truncate"),
                    quote_gnu(s)
                );
                return 1;
            }
        },
        None => None,
    };
    let reference = match p.last('r') {
        Some(r) => match coreutils_core::fs::metadata(r) {
            Ok(m) => Some(m.len()),
            Err(e) => {
                eprintln!(
                    "{}: cannot stat {}: {}",
                    coreutils_core::prog("truncate"),
                    quote_gnu(r),
                    strerror(&e)
                );
                return 1;
            }
        },
        None => None,
    };
    if spec.is_none() && reference.is_none() {
        return usage_error(
            "truncate",
            "you must specify either '--size' or '--reference'",
            1,
        );
    }
    if let (Some((Op::Set, _)), Some(_)) = (spec, reference) {
        return usage_error(
            "truncate",
            "you must specify a relative '--size' with '--reference'",
            1,
        );
    }
    if let Some((Op::RoundDown | Op::RoundUp, 0)) = spec {
        eprintln!("{}: division by zero", coreutils_core::prog("truncate"));
        return 1;
    }
    if p.operands.is_empty() {
        return usage_error("truncate", "missing file operand", 1);
    }
    let mut status = 0;
    for f in &p.operands {
        let exists = coreutils_core::fs::metadata(f).is_ok();
        if !exists && p.has('c') {
            continue;
        }
        let file = match coreutils_core::fs::OpenOptions::new()
            .write(true)
            .create(!p.has('c'))
            .open(f)
        {
            Ok(h) => h,
            Err(e) => {
                eprintln!(
                    "{}: cannot open {} for writing: {}",
                    coreutils_core::prog("truncate"),
                    quote_gnu(f),
                    strerror(&e)
                );
                status = 1;
                continue;
            }
        };
        let cur = reference.unwrap_or_else(|| file.metadata().map(|m| m.len()).unwrap_or(0));
        let size = match spec {
            Some((op, n)) => apply(op, n, cur),
            None => Some(cur),
        };
        let size = match size {
            Some(s) if s <= i64::MAX as u64 => s,
            _ => {
                eprintln!(
                    "{}: overflow extending size of file {}",
                    coreutils_core::prog("truncate"),
                    quote_gnu(f)
                );
                status = 1;
                continue;
            }
        };
        if let Err(e) = file.set_len(size) {
            eprintln!(
                "{}: failed to truncate {} at {} bytes: {}",
                coreutils_core::prog("truncate"),
                quote_gnu(f),
                size,
                strerror(&e)
            );
            status = 1;
        }
    }
    status
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn sizes() {
        assert_eq!(parse_size("10K"), Some(10240));
        assert_eq!(parse_size("1KB"), Some(1000));
        assert_eq!(parse_size("2MiB"), Some(2 << 20));
        assert_eq!(parse_size("x"), None);
        assert_eq!(parse_spec("%4"), Some((Op::RoundUp, 4)));
        assert_eq!(apply(Op::RoundUp, 4, 5), Some(8));
        assert_eq!(apply(Op::Sub, 10, 3), Some(0));
    }
}
