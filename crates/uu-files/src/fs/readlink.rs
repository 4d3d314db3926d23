//! `readlink [-f|-e|-m] [-n] [-z] [-v] FILE...` and `realpath [-e|-m]
//! [-s] [--relative-to=DIR] FILE...`: symlink targets and canonical paths.

use coreutils_core::args::{
    long, missing_operand, parse_or_usage, std_opts, HasArg, LongOpt, HELP, VERSION,
};
use coreutils_core::bytes::{os_bytes, path_bytes};
use coreutils_core::error::strerror;
use coreutils_core::io::{exit_on_write_error, stdout};
use coreutils_core::quote::quote_gnu;
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};

pub use coreutils_core::canon::{canonicalize, Mode};

const LONGS: &[LongOpt] = &[
    long("canonicalize", HasArg::No, 'f'),
    long("canonicalize-existing", HasArg::No, 'e'),
    long("canonicalize-missing", HasArg::No, 'm'),
    long("no-newline", HasArg::No, 'n'),
    long("zero", HasArg::No, 'z'),
    long("verbose", HasArg::No, 'v'),
    long("quiet", HasArg::No, 'q'),
    long("silent", HasArg::No, 's'),
    long("help", HasArg::No, HELP),
    long("version", HasArg::No, VERSION),
];

/// `readlink`.
pub fn main_readlink(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage("readlink", &args, "femnzvqs", LONGS, 1) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(c) = std_opts("readlink", &p, "Usage: readlink [OPTION]... FILE...\nPrint value of a symbolic link or canonical file name\n") {
        return c;
    }
    if p.operands.is_empty() {
        return missing_operand("readlink", 1);
    }
    let mut mode = None;
    let mut verbose = false;
    for o in &p.opts {
        match o.key {
            'f' => mode = Some(Mode::AllButLast),
            'e' => mode = Some(Mode::All),
            'm' => mode = Some(Mode::Missing),
            'v' => verbose = true,
            'q' | 's' => verbose = false,
            _ => {}
        }
    }
    let zero = p.has('z');
    let mut no_nl = p.has('n');
    if no_nl && p.operands.len() > 1 {
        eprintln!(
            "{}: ignoring --no-newline with multiple arguments",
            coreutils_core::prog("readlink")
        );
        no_nl = false;
    }
    let mut out = stdout();
    let mut status = 0;
    for f in &p.operands {
        let r = match mode {
            Some(m) => canonicalize(Path::new(f), m, true).map(|x| path_bytes(&x).to_vec()),
            None => coreutils_core::fs::read_link(f).map(|x| path_bytes(&x).to_vec()),
        };
        match r {
            Ok(mut b) => {
                if zero {
                    b.push(0);
                } else if !no_nl {
                    b.push(b'\n');
                }
                if let Err(e) = out.write_all(&b) {
                    exit_on_write_error(e);
                }
            }
            Err(e) => {
                if verbose {
                    let _ = out.flush();
                    let msg = if mode.is_none() && coreutils_core::fs::symlink_metadata(f).is_ok() {
                        "Invalid argument".to_string()
                    } else {
                        strerror(&e)
                    };
                    eprintln!(
                        "{}: {}: {}",
                        coreutils_core::prog("readlink"),
                        coreutils_core::quote::quotef(f),
                        msg
                    );
                }
                status = 1;
            }
        }
    }
    let _ = out.flush();
    status
}

const RP_LONGS: &[LongOpt] = &[
    long("canonicalize-existing", HasArg::No, 'e'),
    long("canonicalize-missing", HasArg::No, 'm'),
    long("no-symlinks", HasArg::No, 's'),
    long("strip", HasArg::No, 's'),
    long("logical", HasArg::No, 'L'),
    long("physical", HasArg::No, 'P'),
    long("quiet", HasArg::No, 'q'),
    long("zero", HasArg::No, 'z'),
    long("relative-to", HasArg::Required, '\u{e001}'),
    long("relative-base", HasArg::Required, '\u{e002}'),
    long("help", HasArg::No, HELP),
    long("version", HasArg::No, VERSION),
];

fn relative(path: &Path, base: &Path) -> PathBuf {
    let a: Vec<_> = path.components().collect();
    let b: Vec<_> = base.components().collect();
    let common = a.iter().zip(b.iter()).take_while(|(x, y)| x == y).count();
    let mut r = PathBuf::new();
    for _ in common..b.len() {
        r.push("..");
    }
    for c in &a[common..] {
        r.push(c.as_os_str());
    }
    if r.as_os_str().is_empty() {
        r.push(".");
    }
    r
}

/// `realpath`.
pub fn main_realpath(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage("realpath", &args, "emsLPqz", RP_LONGS, 1) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(c) = std_opts(
        "realpath",
        &p,
        "Usage: realpath [OPTION]... FILE...\nPrint the resolved absolute file name.\n",
    ) {
        return c;
    }
    if p.operands.is_empty() {
        return missing_operand("realpath", 1);
    }
    let mut mode = Mode::AllButLast;
    for o in &p.opts {
        match o.key {
            'e' => mode = Mode::All,
            'm' => mode = Mode::Missing,
            _ => {}
        }
    }
    let links = !p.has('s');
    let quiet = p.has('q');
    let term = if p.has('z') { 0u8 } else { b'\n' };
    let rel_to = match p.last('\u{e001}') {
        Some(r) => match canonicalize(Path::new(r), mode, links) {
            Ok(x) => Some(x),
            Err(e) => {
                eprintln!(
                    "{}: {}: {}",
                    coreutils_core::prog("realpath"),
                    coreutils_core::quote::quotef(r),
                    strerror(&e)
                );
                return 1;
            }
        },
        None => None,
    };
    let mut out = stdout();
    let mut status = 0;
    for f in &p.operands {
        if os_bytes(f).is_empty() {
            if !quiet {
                eprintln!(
                    "{}: '': No such file or directory",
                    coreutils_core::prog("realpath")
                );
            }
            status = 1;
            continue;
        }
        match canonicalize(Path::new(f), mode, links) {
            Ok(x) => {
                let x = match &rel_to {
                    Some(b) => relative(&x, b),
                    None => x,
                };
                let mut b = path_bytes(&x).to_vec();
                b.push(term);
                if let Err(e) = out.write_all(&b) {
                    exit_on_write_error(e);
                }
            }
            Err(e) => {
                let _ = out.flush();
                if !quiet {
                    eprintln!(
                        "{}: {}: {}",
                        coreutils_core::prog("realpath"),
                        coreutils_core::quote::quotef(f),
                        strerror(&e)
                    );
                }
                status = 1;
            }
        }
    }
    let _ = out.flush();
    let _ = quote_gnu;
    status
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn relative_paths() {
        assert_eq!(
            relative(Path::new("/a/b/c"), Path::new("/a/d")),
            PathBuf::from("../b/c")
        );
        assert_eq!(
            relative(Path::new("/a"), Path::new("/a")),
            PathBuf::from(".")
        );
    }
}
