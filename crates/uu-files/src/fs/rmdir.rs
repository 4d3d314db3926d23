//! `rmdir [-p] [-v] [--ignore-fail-on-non-empty] DIR...`.

use coreutils_core::args::{
    long, missing_operand, parse_or_usage, std_opts, HasArg, LongOpt, HELP, VERSION,
};
use coreutils_core::error::strerror;
use coreutils_core::quote::quote_gnu;
use std::ffi::OsString;
use std::path::Path;

const IGNORE: char = '\u{e001}';
const LONGS: &[LongOpt] = &[
    long("parents", HasArg::No, 'p'),
    long("verbose", HasArg::No, 'v'),
    long("ignore-fail-on-non-empty", HasArg::No, IGNORE),
    long("help", HasArg::No, HELP),
    long("version", HasArg::No, VERSION),
];

fn not_empty(e: &std::io::Error) -> bool {
    matches!(e.raw_os_error(), Some(39) | Some(55)) || e.to_string().contains("not empty")
}

fn remove(path: &Path, verbose: bool, ignore: bool) -> Result<(), ()> {
    if verbose {
        println!("rmdir: removing directory, {}", quote_gnu(path.as_os_str()));
    }
    match coreutils_core::fs::remove_dir(path) {
        Ok(()) => Ok(()),
        Err(e) if ignore && not_empty(&e) => Err(()),
        Err(e) => {
            let is_file = coreutils_core::fs::symlink_metadata(path)
                .map(|m| !m.is_dir())
                .unwrap_or(false);
            let msg = if is_file {
                "Not a directory".to_string()
            } else {
                strerror(&e)
            };
            eprintln!(
                "{}: failed to remove {}: {}",
                coreutils_core::prog("rmdir"),
                quote_gnu(path.as_os_str()),
                msg
            );
            Err(())
        }
    }
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage("rmdir", &args, "pv", LONGS, 1) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(c) = std_opts(
        "rmdir",
        &p,
        "Usage: rmdir [OPTION]... DIRECTORY...\nRemove the DIRECTORY(ies), if they are empty.\n",
    ) {
        return c;
    }
    if p.operands.is_empty() {
        return missing_operand("rmdir", 1);
    }
    let (parents, verbose, ignore) = (p.has('p'), p.has('v'), p.has(IGNORE));
    let mut status = 0;
    for d in &p.operands {
        let path = Path::new(d);
        match remove(path, verbose, ignore) {
            Err(()) => {
                if !(ignore
                    && std::fs::read_dir(path)
                        .map(|mut r| r.next().is_some())
                        .unwrap_or(false))
                {
                    status = 1;
                }
                continue;
            }
            Ok(()) if parents => {
                let mut cur = path.parent();
                while let Some(par) = cur {
                    if par.as_os_str().is_empty() || par == Path::new("/") {
                        break;
                    }
                    if remove(par, verbose, ignore).is_err() {
                        if !ignore {
                            status = 1;
                        }
                        break;
                    }
                    cur = par.parent();
                }
            }
            Ok(()) => {}
        }
    }
    status
}
