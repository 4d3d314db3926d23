//! `printenv [-0] [NAME]...` and `which [-a] NAME...`.

use coreutils_core::args::{parse_or_usage, std_opts, HasArg, LongOpt, HELP, VERSION};
use coreutils_core::bytes::{os_bytes, path_bytes};
use coreutils_core::io::{exit_on_write_error, stdout};
use std::ffi::OsString;
use std::io::Write;
use std::path::Path;

const PE_LONGS: &[LongOpt] = &[
    LongOpt {
        name: "null",
        arg: HasArg::No,
        key: '0',
    },
    LongOpt {
        name: "help",
        arg: HasArg::No,
        key: HELP,
    },
    LongOpt {
        name: "version",
        arg: HasArg::No,
        key: VERSION,
    },
];

/// `printenv`.
pub fn main_printenv(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage("printenv", &args, "0", PE_LONGS, 2) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(c) = std_opts("printenv", &p, "Usage: printenv [OPTION]... [VARIABLE]...\nPrint the values of the specified environment VARIABLE(s).\n") {
        return c;
    }
    let term = if p.has('0') { 0u8 } else { b'\n' };
    let mut out = stdout();
    let mut buf = Vec::new();
    let mut status = 0;
    if p.operands.is_empty() {
        for (k, v) in std::env::vars_os() {
            buf.extend_from_slice(os_bytes(&k));
            buf.push(b'=');
            buf.extend_from_slice(os_bytes(&v));
            buf.push(term);
        }
    } else {
        for name in &p.operands {
            if os_bytes(name).contains(&b'=') {
                status = 1;
                continue;
            }
            match std::env::var_os(name) {
                Some(v) => {
                    buf.extend_from_slice(os_bytes(&v));
                    buf.push(term);
                }
                None => status = 1,
            }
        }
    }
    if let Err(e) = out.write_all(&buf).and_then(|_| out.flush()) {
        exit_on_write_error(e);
    }
    status
}

fn executable(p: &Path) -> bool {
    coreutils_core::fs::is_file(&p)
        && coreutils_core::meta::access(p, coreutils_core::meta::X_OK).is_ok()
}

/// `which` (debianutils style: silent when not found, status 1).
pub fn main_which(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage("which", &args, "as", &[], 2) {
        Ok(p) => p,
        Err(_) => {
            eprintln!("Usage: which [-as] args");
            return 2;
        }
    };
    if p.operands.is_empty() {
        return 1;
    }
    let all = p.has('a');
    let silent = p.has('s');
    let path = std::env::var_os("PATH").unwrap_or_default();
    let dirs: Vec<Vec<u8>> = os_bytes(&path)
        .split(|&c| c == b':')
        .map(|d| {
            if d.is_empty() {
                b".".to_vec()
            } else {
                d.to_vec()
            }
        })
        .collect();
    let mut out = stdout();
    let mut status = 0;
    for name in &p.operands {
        let nb = os_bytes(name);
        let mut found = false;
        if nb.contains(&b'/') {
            if executable(Path::new(name)) {
                found = true;
                if !silent {
                    let _ = out.write_all(nb);
                    let _ = out.write_all(b"\n");
                }
            }
        } else {
            for d in &dirs {
                let cand = coreutils_core::bytes::path_from_bytes(d).join(name);
                if executable(&cand) {
                    found = true;
                    if !silent {
                        let _ = out.write_all(path_bytes(&cand));
                        let _ = out.write_all(b"\n");
                    }
                    if !all {
                        break;
                    }
                }
            }
        }
        if !found {
            status = 1;
        }
    }
    let _ = out.flush();
    status
}
