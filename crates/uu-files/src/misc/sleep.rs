//! `sleep NUMBER[SUFFIX]...`: pause for the sum of the durations
//! (suffixes s, m, h, d; fractions allowed).

use coreutils_core::args::{parse_or_usage, std_opts, usage_error, STD_LONGS};
use coreutils_core::duration::parse_secs;
use coreutils_core::quote::quote_gnu;
use std::ffi::OsString;

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage("sleep", &args, "", &STD_LONGS, 1) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(c) = std_opts("sleep", &p, "Usage: sleep NUMBER[SUFFIX]...\n  or:  sleep OPTION\nPause for NUMBER seconds. SUFFIX may be 's', 'm', 'h' or 'd'.\n") {
        return c;
    }
    if p.operands.is_empty() {
        return coreutils_core::args::missing_operand("sleep", 1);
    }
    let mut total = 0.0;
    let mut bad = false;
    for op in &p.operands {
        match parse_secs(&op.to_string_lossy()) {
            Some(v) => total += v,
            None => {
                eprintln!(
                    "{}: invalid time interval {}",
                    coreutils_core::prog("sleep"),
                    quote_gnu(op)
                );
                bad = true;
            }
        }
    }
    if bad {
        eprintln!(
            "Try '{} --help' for more information.",
            coreutils_core::prog("sleep")
        );
        return 1;
    }
    let _ = usage_error;
    if total.is_finite() {
        std::thread::sleep(std::time::Duration::from_secs_f64(total.min(1e12)));
    } else {
        loop {
            std::thread::sleep(std::time::Duration::from_secs(1 << 30));
        }
    }
    0
}
