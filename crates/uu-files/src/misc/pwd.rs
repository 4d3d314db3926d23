//! `pwd [-L|-P]`: the working directory, logical ($PWD when it names it)
//! or physical.

use coreutils_core::args::{
    extra_operand, long, parse_or_usage, std_opts, HasArg, LongOpt, HELP, VERSION,
};
use coreutils_core::bytes::{os_bytes, path_bytes};
use coreutils_core::canon::{canonicalize, Mode};
use coreutils_core::error::strerror;
use coreutils_core::io::{stdout, write_or_exit};
use coreutils_core::meta;
use std::ffi::OsString;
use std::io::Write;
use std::path::Path;

const LONGS: &[LongOpt] = &[
    long("logical", HasArg::No, 'L'),
    long("physical", HasArg::No, 'P'),
    long("help", HasArg::No, HELP),
    long("version", HasArg::No, VERSION),
];

/// $PWD when it is absolute, has no `.`/`..` components and names the
/// same directory as `.`.
fn logical() -> Option<OsString> {
    let pwd = std::env::var_os("PWD")?;
    let b = os_bytes(&pwd);
    if b.first() != Some(&b'/') || b.split(|&c| c == b'/').any(|c| c == b"." || c == b"..") {
        return None;
    }
    if meta::same_file(Path::new(&pwd), Path::new(".")) {
        Some(pwd)
    } else {
        None
    }
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage("pwd", &args, "LP", LONGS, 1) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(c) = std_opts("pwd", &p, "Usage: pwd [OPTION]...\nPrint the full filename of the current working directory.\n\n  -L, --logical   use PWD from environment, even if it contains symlinks\n  -P, --physical  resolve all symlinks\n") {
        return c;
    }
    if let Some(op) = p.operands.first() {
        // GNU ignores operands with a warning.
        eprintln!(
            "{}: ignoring non-option arguments",
            coreutils_core::prog("pwd")
        );
        let _ = op;
    }
    let _ = extra_operand;
    let want_logical = p
        .opts
        .iter()
        .rev()
        .find(|o| o.key == 'L' || o.key == 'P')
        .map_or(false, |o| o.key == 'L');
    let dir = if want_logical { logical() } else { None };
    let dir = match dir {
        Some(d) => os_bytes(&d).to_vec(),
        None => match std::env::current_dir().and_then(|d| canonicalize(&d, Mode::All, true)) {
            Ok(d) => path_bytes(&d).to_vec(),
            Err(e) => {
                eprintln!(
                    "{}: couldn't find directory entry in '..' with matching i-node: {}",
                    coreutils_core::prog("pwd"),
                    strerror(&e)
                );
                return 1;
            }
        },
    };
    let mut out = stdout();
    write_or_exit(&mut out, &dir);
    write_or_exit(&mut out, b"\n");
    let _ = out.flush();
    0
}
