//! `date [-u] [-d STRING] [-r FILE] [-R|-I[TIMESPEC]] [+FORMAT]` (UTC).

use super::datetime::{parse, strftime_zone, Time};
use coreutils_core::args::{
    extra_operand, long, parse_or_usage, std_opts, HasArg, LongOpt, HELP, VERSION,
};
use coreutils_core::error::strerror;
use coreutils_core::quote::quote_gnu;
use coreutils_core::tz::Zone;
use std::ffi::OsString;

const LONGS: &[LongOpt] = &[
    long("date", HasArg::Required, 'd'),
    long("utc", HasArg::No, 'u'),
    long("universal", HasArg::No, 'u'),
    long("reference", HasArg::Required, 'r'),
    long("rfc-email", HasArg::No, 'R'),
    long("rfc-2822", HasArg::No, 'R'),
    long("iso-8601", HasArg::Optional, 'I'),
    long("rfc-3339", HasArg::Required, '\u{e001}'),
    long("help", HasArg::No, HELP),
    long("version", HasArg::No, VERSION),
];

fn iso_format(spec: &str) -> Option<&'static str> {
    Some(match spec {
        "" | "date" | "d" => "%Y-%m-%d",
        "hours" | "h" => "%Y-%m-%dT%H%:z",
        "minutes" | "m" => "%Y-%m-%dT%H:%M%:z",
        "seconds" | "s" => "%Y-%m-%dT%H:%M:%S%:z",
        "ns" | "n" => "%Y-%m-%dT%H:%M:%S,%N%:z",
        _ => return None,
    })
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage("date", &args, "d:ur:RI::", LONGS, 1) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(c) = std_opts(
        "date",
        &p,
        "Usage: date [OPTION]... [+FORMAT]\nDisplay the current time in the given FORMAT.\n",
    ) {
        return c;
    }
    let zone = if p.has('u') {
        Zone::utc()
    } else {
        Zone::from_env()
    };
    let now = Time::now();
    let mut t = now;
    if let Some(d) = p.last('d') {
        match parse(&d.to_string_lossy(), now, &zone) {
            Some(x) => t = x,
            None => {
                eprintln!(
                    "{}: invalid date {}",
                    coreutils_core::prog("date"),
                    quote_gnu(d)
                );
                return 1;
            }
        }
    }
    if let Some(r) = p.last('r') {
        match coreutils_core::fs::metadata(r).and_then(|m| m.modified()) {
            Ok(m) => {
                let d = m.duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
                t = Time {
                    secs: d.as_secs() as i64,
                    nanos: d.subsec_nanos(),
                };
            }
            Err(e) => {
                eprintln!(
                    "{}: {}: {}",
                    coreutils_core::prog("date"),
                    r.to_string_lossy(),
                    strerror(&e)
                );
                return 1;
            }
        }
    }
    let mut fmt: String = "%a %b %e %H:%M:%S %Z %Y".into();
    let mut fixed = 0;
    for o in &p.opts {
        match o.key {
            'R' => {
                fmt = "%a, %d %b %Y %H:%M:%S %z".into();
                fixed += 1;
            }
            'I' => {
                let v = o.val();
                match iso_format(&v) {
                    Some(f) => fmt = f.into(),
                    None => {
                        eprintln!(
                            "{}: invalid argument {} for '--iso-8601'",
                            coreutils_core::prog("date"),
                            quote_gnu(&OsString::from(&v))
                        );
                        eprintln!("Valid arguments are:\n  - 'hours'\n  - 'minutes'\n  - 'date'\n  - 'seconds'\n  - 'ns'");
                        eprintln!(
                            "Try '{} --help' for more information.",
                            coreutils_core::prog("date")
                        );
                        return 1;
                    }
                }
                fixed += 1;
            }
            '\u{e001}' => {
                fmt = match o.val().as_str() {
                    "date" => "%Y-%m-%d",
                    "seconds" => "%Y-%m-%d %H:%M:%S%:z",
                    "ns" => "%Y-%m-%d %H:%M:%S.%N%:z",
                    _ => {
                        eprintln!(
                            "{}: invalid argument {} for '--rfc-3339'",
                            coreutils_core::prog("date"),
                            quote_gnu(&o.value.clone().unwrap_or_default())
                        );
                        return 1;
                    }
                }
                .into();
                fixed += 1;
            }
            _ => {}
        }
    }
    let mut ops = p.operands.iter();
    if let Some(op) = ops.next() {
        let s = op.to_string_lossy();
        match s.strip_prefix('+') {
            Some(f) => {
                if fixed > 0 {
                    eprintln!(
                        "{}: multiple output formats specified",
                        coreutils_core::prog("date")
                    );
                    return 1;
                }
                fmt = f.to_string();
            }
            None => {
                // Setting the clock is not possible in a sandbox.
                if p.has('d') || fixed > 0 {
                    eprintln!("{}: the argument {} lacks a leading '+';\nwhen using an option to specify date(s), any non-option\nargument must be a format string beginning with '+'\nTry 'date --help' for more information.", coreutils_core::prog("date"), quote_gnu(op));
                    return 1;
                }
                eprintln!(
                    "{}: cannot set date: Operation not permitted",
                    coreutils_core::prog("date")
                );
                return 1;
            }
        }
        if let Some(extra) = ops.next() {
            return extra_operand("date", extra, 1);
        }
    }
    println!("{}", strftime_zone(&fmt, t, &zone));
    0
}
