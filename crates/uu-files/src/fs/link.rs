//! `link FILE1 FILE2` and `unlink FILE`: the bare link(2) and unlink(2)
//! calls, no options beyond `--help`/`--version`.

use coreutils_core::args::{extra_operand, parse_or_usage, std_opts, usage_error, STD_LONGS};
use coreutils_core::error::strerror;
use coreutils_core::quote::quote_gnu;
use std::ffi::OsString;

/// `link` entry point.
pub fn main_link(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage("link", &args, "", &STD_LONGS, 1) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(c) = std_opts(
        "link",
        &p,
        "Usage: link FILE1 FILE2\n  or:  link OPTION\nCall the link function to create a link named FILE2 to an existing FILE1.\n\n      --help        display this help and exit\n      --version     output version information and exit\n",
    ) {
        return c;
    }
    match p.operands.len() {
        0 => return usage_error("link", "missing operand", 1),
        1 => {
            let msg = format!("missing operand after {}", quote_gnu(&p.operands[0]));
            return usage_error("link", &msg, 1);
        }
        2 => {}
        _ => return extra_operand("link", &p.operands[2], 1),
    }
    let (from, to) = (&p.operands[0], &p.operands[1]);
    match coreutils_core::fs::hard_link(from, to) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!(
                "{}: cannot create link {} to {}: {}",
                coreutils_core::prog("link"),
                quote_gnu(to),
                quote_gnu(from),
                strerror(&e)
            );
            1
        }
    }
}

/// `unlink` entry point.
pub fn main_unlink(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage("unlink", &args, "", &STD_LONGS, 1) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(c) = std_opts(
        "unlink",
        &p,
        "Usage: unlink FILE\n  or:  unlink OPTION\nCall the unlink function to remove the specified FILE.\n\n      --help        display this help and exit\n      --version     output version information and exit\n",
    ) {
        return c;
    }
    match p.operands.len() {
        0 => return usage_error("unlink", "missing operand", 1),
        1 => {}
        _ => return extra_operand("unlink", &p.operands[1], 1),
    }
    let f = &p.operands[0];
    // unlink(2) of a directory is EISDIR on Linux; std's remove_file
    // would say so on some hosts and EPERM on others.
    let is_dir = coreutils_core::fs::symlink_metadata(f)
        .map(|m| m.is_dir())
        .unwrap_or(false);
    let r = if is_dir {
        Err(std::io::Error::from_raw_os_error(eisdir()))
    } else {
        coreutils_core::fs::remove_file(f)
    };
    match r {
        Ok(()) => 0,
        Err(e) => {
            eprintln!(
                "{}: cannot unlink {}: {}",
                coreutils_core::prog("unlink"),
                quote_gnu(f),
                strerror(&e)
            );
            1
        }
    }
}

/// EISDIR in the numbering `strerror` reads (WASI's on WASI, glibc's natively).
fn eisdir() -> i32 {
    if cfg!(target_os = "wasi") {
        31
    } else {
        21
    }
}
