//! `yes [STRING]...`: repeat a line until the reader goes away.

use coreutils_core::args::{parse_or_usage, std_opts, STD_LONGS};
use coreutils_core::bytes::os_bytes;
use coreutils_core::io::exit_on_write_error;
use std::ffi::OsString;
use std::io::Write;

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage("yes", &args, "+", &STD_LONGS, 1) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(c) = std_opts(
        "yes",
        &p,
        "Usage: yes [STRING]...\nRepeatedly output a line with all specified STRING(s), or 'y'.\n",
    ) {
        return c;
    }
    let mut line = Vec::new();
    for (i, a) in p.operands.iter().enumerate() {
        if i > 0 {
            line.push(b' ');
        }
        line.extend_from_slice(os_bytes(a));
    }
    if p.operands.is_empty() {
        line.push(b'y');
    }
    line.push(b'\n');
    // One big block per write: the kernel call dominates.
    let mut block = Vec::with_capacity(64 * 1024 + line.len());
    while block.len() < 64 * 1024 {
        block.extend_from_slice(&line);
    }
    let out = std::io::stdout();
    let mut out = out.lock();
    loop {
        if let Err(e) = out.write_all(&block) {
            exit_on_write_error(e);
        }
    }
}
