//! `mkfifo [-m MODE] NAME...`. The sandbox's kernel has no named pipes (a
//! FIFO needs its openers to meet at one pipe; only anonymous pipes exist),
//! so after GNU's own checks each NAME fails with "Operation not supported";
//! a name that exists or a missing directory fails as GNU reports it.

use super::mode;
use coreutils_core::args::{
    long, missing_operand, parse_or_usage, std_opts, HasArg, LongOpt, HELP, VERSION,
};
use coreutils_core::error::strerror;
use coreutils_core::meta;
use coreutils_core::quote::quote_gnu;
use std::ffi::OsString;
use std::path::Path;

const LONGS: &[LongOpt] = &[
    long("mode", HasArg::Required, 'm'),
    long("context", HasArg::Optional, 'Z'),
    long("help", HasArg::No, HELP),
    long("version", HasArg::No, VERSION),
];

/// ENOTSUP: what making a FIFO gets here.
fn not_supported() -> std::io::Error {
    #[cfg(target_os = "wasi")]
    const ENOTSUP: i32 = 58;
    #[cfg(not(target_os = "wasi"))]
    const ENOTSUP: i32 = 95;
    std::io::Error::from_raw_os_error(ENOTSUP)
}

/// Why a FIFO named `name` cannot be made.
fn make_fifo(name: &Path) -> std::io::Error {
    if coreutils_core::fs::symlink_metadata(name).is_ok() {
        return std::io::Error::from(std::io::ErrorKind::AlreadyExists);
    }
    let parent = match name.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    match coreutils_core::fs::metadata(parent) {
        Err(e) => e,
        Ok(m) if !m.is_dir() => {
            std::io::Error::from_raw_os_error(if cfg!(target_os = "wasi") { 54 } else { 20 })
        }
        Ok(_) => not_supported(),
    }
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let prog = coreutils_core::prog("mkfifo");
    let p = match parse_or_usage("mkfifo", &args, "m:Z", LONGS, 1) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(c) = std_opts("mkfifo", &p, "Usage: mkfifo [OPTION]... NAME...\nCreate named pipes (FIFOs) with the given NAMEs.\n\nMandatory arguments to long options are mandatory for short options too.\n  -m, --mode=MODE    set file permission bits to MODE, not a=rw - umask\n  -Z                   set the SELinux security context to default type\n      --context[=CTX]  like -Z, or if CTX is specified then set the SELinux\n                         or SMACK security context to CTX\n") {
        return c;
    }
    if let Some(m) = p.last('m') {
        let umask = meta::umask(None).unwrap_or(0o022);
        match mode::apply(&m.to_string_lossy(), 0o666, umask, false) {
            Ok(v) if v & !0o777 != 0 => {
                eprintln!("{}: mode must specify only file permission bits", prog);
                return 1;
            }
            Ok(_) => {}
            Err(()) => {
                eprintln!("{}: invalid mode", prog);
                return 1;
            }
        }
    }
    if p.operands.is_empty() {
        return missing_operand("mkfifo", 1);
    }
    for name in &p.operands {
        let e = make_fifo(Path::new(name));
        eprintln!(
            "{}: cannot create fifo {}: {}",
            prog,
            quote_gnu(name),
            strerror(&e)
        );
    }
    1
}
