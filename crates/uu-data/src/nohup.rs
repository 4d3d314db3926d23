//! `nohup`: run a command immune to hangups. When stdout is a terminal the
//! output goes to `nohup.out` like GNU's; otherwise streams pass through.

use crate::common::{run_command, usage_error};
use coreutils_core::process::Command;
use std::ffi::OsString;

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let mut rest: Vec<OsString> = args.into_iter().skip(1).collect();
    if let Some(a) = rest.first().map(|a| a.to_string_lossy().into_owned()) {
        if a == "--help" {
            println!("Usage: nohup COMMAND [ARG]...\nRun COMMAND, ignoring hangup signals.");
            return 0;
        }
        if a == "--version" {
            return crate::common::version("nohup");
        }
        if a == "--" {
            rest.remove(0);
        } else if a.starts_with("--") {
            return usage_error("nohup", &format!("unrecognized option '{}'", a), 125);
        } else if a.starts_with('-') && a.len() > 1 {
            let c = a.chars().nth(1).unwrap_or('-');
            return usage_error("nohup", &format!("invalid option -- '{}'", c), 125);
        }
    }
    if rest.is_empty() {
        return usage_error("nohup", "missing operand", 125);
    }
    let program = rest.remove(0);
    let c = Command {
        program,
        args: rest,
        ..Default::default()
    };
    run_command("nohup", "failed to run command ", &c)
}
