//! `touch [-acm] [-d DATE | -t STAMP | -r FILE] FILE...`.

use crate::misc::datetime::{days_from_civil, parse, Time};
use coreutils_core::args::{long, parse_or_usage, std_opts, HasArg, LongOpt, HELP, VERSION};
use coreutils_core::error::strerror;
use coreutils_core::meta;
use coreutils_core::quote::quote_gnu;
use std::ffi::OsString;
use std::path::Path;

const LONGS: &[LongOpt] = &[
    long("no-create", HasArg::No, 'c'),
    long("date", HasArg::Required, 'd'),
    long("reference", HasArg::Required, 'r'),
    long("no-dereference", HasArg::No, 'h'),
    long("time", HasArg::Required, '\u{e001}'),
    long("help", HasArg::No, HELP),
    long("version", HasArg::No, VERSION),
];

/// `[[CC]YY]MMDDhhmm[.ss]` as `touch -t` takes it.
pub fn parse_stamp(s: &str) -> Option<Time> {
    let (main, ss) = match s.split_once('.') {
        Some((a, b)) if b.len() == 2 => (a, b.parse::<i64>().ok()?),
        Some(_) => return None,
        None => (s, 0),
    };
    if !main.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let n = |a: usize, b: usize| main[a..b].parse::<i64>().ok();
    let (year, rest) = match main.len() {
        8 => (Time::now().secs.div_euclid(86400), 0),
        10 => {
            let yy = n(0, 2)?;
            (if yy < 69 { 2000 + yy } else { 1900 + yy }, 2)
        }
        12 => (n(0, 4)?, 4),
        _ => return None,
    };
    let year = if main.len() == 8 {
        crate::misc::datetime::civil_from_days(year).0
    } else {
        year
    };
    let mo = n(rest, rest + 2)? as u32;
    let d = n(rest + 2, rest + 4)? as u32;
    let h = n(rest + 4, rest + 6)?;
    let mi = n(rest + 6, rest + 8)?;
    if !(1..=12).contains(&mo) || d == 0 || d > 31 || h > 23 || mi > 59 || ss > 60 {
        return None;
    }
    // The stamp is local time in the zone TZ names.
    let local = days_from_civil(year, mo, d) * 86400 + h * 3600 + mi * 60 + ss;
    Some(Time {
        secs: coreutils_core::tz::Zone::from_env().to_utc(local)?,
        nanos: 0,
    })
}

fn ns(t: Time) -> u64 {
    (t.secs.max(0) as u64) * 1_000_000_000 + t.nanos as u64
}

fn systime_ns(t: std::io::Result<std::time::SystemTime>) -> Option<u64> {
    t.ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()
        .map(|d| d.as_nanos() as u64)
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage("touch", &args, "acd:fhmr:t:", LONGS, 1) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(c) = std_opts("touch", &p, "Usage: touch [OPTION]... FILE...\nUpdate the access and modification times of each FILE to the current time.\n") {
        return c;
    }
    let mut only_a = p.has('a');
    let mut only_m = p.has('m');
    if let Some(v) = p.last('\u{e001}') {
        match v.to_string_lossy().as_ref() {
            "access" | "atime" | "use" => only_a = true,
            "modify" | "mtime" => only_m = true,
            _ => {
                eprintln!(
                    "{}: invalid argument {} for '--time'",
                    coreutils_core::prog("touch"),
                    quote_gnu(v)
                );
                eprintln!("Valid arguments are:\n  - 'atime', 'access', 'use'\n  - 'mtime', 'modify'\nTry 'touch --help' for more information.");
                return 1;
            }
        }
    }
    let (set_a, set_m) = if only_a || only_m {
        (only_a, only_m)
    } else {
        (true, true)
    };
    let now = Time::now();
    let mut at = ns(now);
    let mut mt = ns(now);
    if let Some(r) = p.last('r') {
        match coreutils_core::fs::metadata(r) {
            Ok(m) => {
                at = systime_ns(m.accessed()).unwrap_or(at);
                mt = systime_ns(m.modified()).unwrap_or(mt);
            }
            Err(e) => {
                eprintln!(
                    "{}: failed to get attributes of {}: {}",
                    coreutils_core::prog("touch"),
                    quote_gnu(r),
                    strerror(&e)
                );
                return 1;
            }
        }
    }
    if let Some(d) = p.last('d') {
        match parse(
            &d.to_string_lossy(),
            now,
            &coreutils_core::tz::Zone::from_env(),
        ) {
            Some(t) => {
                at = ns(t);
                mt = ns(t);
            }
            None => {
                eprintln!(
                    "{}: invalid date format {}",
                    coreutils_core::prog("touch"),
                    quote_gnu(d)
                );
                return 1;
            }
        }
    }
    if let Some(s) = p.last('t') {
        match parse_stamp(&s.to_string_lossy()) {
            Some(t) => {
                at = ns(t);
                mt = ns(t);
            }
            None => {
                eprintln!(
                    "{}: invalid date format {}",
                    coreutils_core::prog("touch"),
                    quote_gnu(s)
                );
                return 1;
            }
        }
    }
    if p.operands.is_empty() {
        return coreutils_core::args::usage_error("touch", "missing file operand", 1);
    }
    let no_create = p.has('c');
    let follow = !p.has('h');
    let mut status = 0;
    for f in &p.operands {
        let path = Path::new(f);
        if f == "-" {
            continue;
        }
        if coreutils_core::fs::symlink_metadata(path).is_err() {
            if no_create || !follow {
                continue;
            }
            if let Err(e) = coreutils_core::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
            {
                eprintln!(
                    "{}: cannot touch {}: {}",
                    coreutils_core::prog("touch"),
                    quote_gnu(f),
                    strerror(&e)
                );
                status = 1;
                continue;
            }
        }
        let r = meta::set_times(
            path,
            if set_a { Some(at) } else { None },
            if set_m { Some(mt) } else { None },
            follow,
        );
        if let Err(e) = r {
            eprintln!(
                "{}: setting times of {}: {}",
                coreutils_core::prog("touch"),
                quote_gnu(f),
                strerror(&e)
            );
            status = 1;
        }
    }
    status
}

#[cfg(test)]
mod tests {
    use super::parse_stamp;
    #[test]
    fn stamps() {
        assert_eq!(parse_stamp("202401021030").unwrap().secs, 1704191400);
        assert_eq!(parse_stamp("2401021030.05").unwrap().secs, 1704191405);
        assert!(parse_stamp("2401021099").is_none());
        assert!(parse_stamp("abc").is_none());
    }
}
