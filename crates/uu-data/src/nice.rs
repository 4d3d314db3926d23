//! `nice`: run a command with an adjusted niceness. The sandbox kernel has
//! no scheduler priorities, so the adjustment is validated and reported
//! (niceness 0 when printing) but does not change scheduling.

use crate::common::{run_command, usage_error};
use coreutils_core::process::Command;
use std::ffi::OsString;

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let mut rest: Vec<OsString> = args.into_iter().skip(1).collect();
    let mut i = 0;
    while i < rest.len() {
        let a = rest[i].to_string_lossy().into_owned();
        let val: Option<String>;
        if a == "--" {
            i += 1;
            break;
        } else if a == "--help" {
            println!("Usage: nice [OPTION] [COMMAND [ARG]...]\nRun COMMAND with an adjusted niceness.\n\n  -n, --adjustment=N   add integer N to the niceness (default 10)");
            return 0;
        } else if a == "--version" {
            return crate::common::version("nice");
        } else if a == "-n" || a == "--adjustment" {
            match rest.get(i + 1) {
                Some(v) => val = Some(v.to_string_lossy().into_owned()),
                None => {
                    let m = if a == "-n" {
                        "option requires an argument -- 'n'".to_string()
                    } else {
                        "option '--adjustment' requires an argument".to_string()
                    };
                    return usage_error("nice", &m, 125);
                }
            }
            i += 2;
        } else if let Some(v) = a.strip_prefix("--adjustment=") {
            val = Some(v.to_string());
            i += 1;
        } else if let Some(v) = a.strip_prefix("-n") {
            val = Some(v.to_string());
            i += 1;
        } else if a.len() > 1 && a.starts_with('-') && a[1..].chars().all(|c| c.is_ascii_digit()) {
            val = Some(a[1..].to_string());
            i += 1;
        } else if a.starts_with("--") {
            return usage_error("nice", &format!("unrecognized option '{}'", a), 125);
        } else if a.starts_with('-') && a.len() > 1 {
            let c = a.chars().nth(1).unwrap_or('-');
            return usage_error("nice", &format!("invalid option -- '{}'", c), 125);
        } else {
            break;
        }
        if let Some(v) = val {
            let t = v.trim_start_matches('+');
            if t.parse::<i64>().is_err() && v.parse::<i64>().is_err() {
                eprintln!(
                    "{}: invalid adjustment '{}'",
                    coreutils_core::prog("nice"),
                    v
                );
                return 125;
            }
        }
    }
    let mut cmd: Vec<OsString> = rest.split_off(i.min(rest.len()));
    if cmd.is_empty() {
        if i > 0 && args_had_adjustment(&rest) {
            return usage_error("nice", "a command must be given with an adjustment", 125);
        }
        println!("0");
        return 0;
    }
    let program = cmd.remove(0);
    let c = Command {
        program,
        args: cmd,
        ..Default::default()
    };
    run_command("nice", "", &c)
}

fn args_had_adjustment(opts: &[OsString]) -> bool {
    opts.iter().any(|a| a != "--")
}
