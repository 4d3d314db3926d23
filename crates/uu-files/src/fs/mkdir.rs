//! `mkdir [-p] [-m MODE] [-v] DIR...`.

use super::mode;
use coreutils_core::args::{
    long, missing_operand, parse_or_usage, std_opts, HasArg, LongOpt, HELP, VERSION,
};
use coreutils_core::error::strerror;
use coreutils_core::meta;
use coreutils_core::quote::quote_gnu;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

const LONGS: &[LongOpt] = &[
    long("parents", HasArg::No, 'p'),
    long("mode", HasArg::Required, 'm'),
    long("verbose", HasArg::No, 'v'),
    long("help", HasArg::No, HELP),
    long("version", HasArg::No, VERSION),
];

fn created(verbose: bool, p: &Path) {
    if verbose {
        println!("mkdir: created directory {}", quote_gnu(p.as_os_str()));
    }
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage("mkdir", &args, "pm:vZ", LONGS, 1) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(c) = std_opts("mkdir", &p, "Usage: mkdir [OPTION]... DIRECTORY...\nCreate the DIRECTORY(ies), if they do not already exist.\n\n  -m, --mode=MODE   set file mode (as in chmod), not a=rwx - umask\n  -p, --parents     no error if existing, make parent directories as needed\n  -v, --verbose     print a message for each created directory\n") {
        return c;
    }
    let parents = p.has('p');
    let verbose = p.has('v');
    let umask = meta::umask(None).unwrap_or(0o022);
    let want_mode = match p.last('m') {
        Some(m) => match mode::apply(&m.to_string_lossy(), 0o777, umask, true) {
            Ok(v) => Some(v & 0o7777),
            Err(()) => {
                eprintln!(
                    "{}: invalid mode {}",
                    coreutils_core::prog("mkdir"),
                    quote_gnu(m)
                );
                return 1;
            }
        },
        None => None,
    };
    if p.operands.is_empty() {
        return missing_operand("mkdir", 1);
    }
    let mut status = 0;
    for d in &p.operands {
        let path = PathBuf::from(d);
        if parents {
            // Create each missing ancestor in order, reporting each.
            let mut acc = PathBuf::new();
            let comps: Vec<_> = path.components().collect();
            let mut failed = false;
            for (i, c) in comps.iter().enumerate() {
                acc.push(c.as_os_str());
                if coreutils_core::fs::is_dir(&acc) {
                    continue;
                }
                if i + 1 < comps.len() && coreutils_core::fs::exists(&acc) {
                    eprintln!(
                        "{}: cannot create directory {}: Not a directory",
                        coreutils_core::prog("mkdir"),
                        quote_gnu(acc.as_os_str())
                    );
                    failed = true;
                    break;
                }
                match coreutils_core::fs::create_dir(&acc) {
                    Ok(()) => {
                        created(verbose, &acc);
                        if i + 1 == comps.len() {
                            if let Some(m) = want_mode {
                                let _ = meta::chmod(&acc, m, true);
                            }
                        }
                    }
                    Err(e)
                        if e.kind() == std::io::ErrorKind::AlreadyExists
                            && coreutils_core::fs::is_dir(&acc) => {}
                    Err(e) => {
                        eprintln!(
                            "{}: cannot create directory {}: {}",
                            coreutils_core::prog("mkdir"),
                            quote_gnu(acc.as_os_str()),
                            strerror(&e)
                        );
                        failed = true;
                        break;
                    }
                }
            }
            if failed {
                status = 1;
            }
            continue;
        }
        match coreutils_core::fs::create_dir(&path) {
            Ok(()) => {
                created(verbose, &path);
                if let Some(m) = want_mode {
                    if let Err(e) = meta::chmod(&path, m, true) {
                        eprintln!(
                            "{}: cannot set permissions of {}: {}",
                            coreutils_core::prog("mkdir"),
                            quote_gnu(d),
                            strerror(&e)
                        );
                        status = 1;
                    }
                }
            }
            Err(e) => {
                eprintln!(
                    "{}: cannot create directory {}: {}",
                    coreutils_core::prog("mkdir"),
                    quote_gnu(d),
                    strerror(&e)
                );
                status = 1;
            }
        }
    }
    status
}
