//! `rm [-f] [-i] [-r] [-d] [-v] FILE...`: remove files and trees, with
//! GNU's refusals (`/`, `.`, `..`) and prompts answered from stdin.

use coreutils_core::args::{
    long, missing_operand, parse_or_usage, std_opts, HasArg, LongOpt, HELP, VERSION,
};
use coreutils_core::bytes::os_bytes;
use coreutils_core::error::strerror;
use coreutils_core::quote::quote_gnu;
use std::ffi::OsString;
use std::io::{BufRead, Write};
use std::path::Path;

const NO_PRESERVE: char = '\u{e001}';
const PRESERVE: char = '\u{e002}';
const LONGS: &[LongOpt] = &[
    long("force", HasArg::No, 'f'),
    long("interactive", HasArg::Optional, 'i'),
    long("recursive", HasArg::No, 'r'),
    long("dir", HasArg::No, 'd'),
    long("verbose", HasArg::No, 'v'),
    long("no-preserve-root", HasArg::No, NO_PRESERVE),
    long("preserve-root", HasArg::Optional, PRESERVE),
    long("one-file-system", HasArg::No, '\u{e003}'),
    long("help", HasArg::No, HELP),
    long("version", HasArg::No, VERSION),
];

/// Ask `question` on stderr and read a yes/no answer from stdin (EOF: no).
pub fn ask(prog: &str, question: &str) -> bool {
    eprint!("{}: {}", prog, question);
    let _ = std::io::stderr().flush();
    let mut line = String::new();
    match std::io::stdin().lock().read_line(&mut line) {
        Ok(0) | Err(_) => false,
        Ok(_) => line.trim_start().starts_with(['y', 'Y']),
    }
}

struct Opts {
    force: bool,
    interactive: bool,
    recursive: bool,
    dir: bool,
    verbose: bool,
}

fn describe(m: &std::fs::Metadata) -> &'static str {
    if m.file_type().is_symlink() {
        "symbolic link"
    } else if m.is_dir() {
        "directory"
    } else if m.len() == 0 {
        "regular empty file"
    } else {
        "regular file"
    }
}

fn remove(path: &Path, o: &Opts) -> bool {
    let q = quote_gnu(path.as_os_str());
    let m = match coreutils_core::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) => {
            if o.force && e.kind() == std::io::ErrorKind::NotFound {
                return true;
            }
            eprintln!(
                "{}: cannot remove {}: {}",
                coreutils_core::prog("rm"),
                q,
                strerror(&e)
            );
            return false;
        }
    };
    if m.is_dir() {
        if !o.recursive {
            let empty = std::fs::read_dir(path)
                .map(|mut r| r.next().is_none())
                .unwrap_or(false);
            if o.dir && empty {
                if o.interactive && !ask("rm", &format!("remove directory {}? ", q)) {
                    return true;
                }
                return match coreutils_core::fs::remove_dir(path) {
                    Ok(()) => {
                        if o.verbose {
                            println!("removed directory {}", q);
                        }
                        true
                    }
                    Err(e) => {
                        eprintln!(
                            "{}: cannot remove {}: {}",
                            coreutils_core::prog("rm"),
                            q,
                            strerror(&e)
                        );
                        false
                    }
                };
            }
            let why = if o.dir {
                "Directory not empty"
            } else {
                "Is a directory"
            };
            eprintln!(
                "{}: cannot remove {}: {}",
                coreutils_core::prog("rm"),
                q,
                why
            );
            return false;
        }
        if o.interactive && !ask("rm", &format!("descend into directory {}? ", q)) {
            return true;
        }
        let mut ok = true;
        match std::fs::read_dir(path) {
            Ok(rd) => {
                let mut names: Vec<_> = rd.filter_map(|e| e.ok()).map(|e| e.file_name()).collect();
                names.sort();
                for n in names {
                    ok &= remove(&path.join(n), o);
                }
            }
            Err(e) => {
                eprintln!(
                    "{}: cannot remove {}: {}",
                    coreutils_core::prog("rm"),
                    q,
                    strerror(&e)
                );
                return false;
            }
        }
        if !ok {
            return false;
        }
        if o.interactive && !ask("rm", &format!("remove directory {}? ", q)) {
            return true;
        }
        return match coreutils_core::fs::remove_dir(path) {
            Ok(()) => {
                if o.verbose {
                    println!("removed directory {}", q);
                }
                true
            }
            Err(e) => {
                eprintln!(
                    "{}: cannot remove {}: {}",
                    coreutils_core::prog("rm"),
                    q,
                    strerror(&e)
                );
                false
            }
        };
    }
    if o.interactive && !ask("rm", &format!("remove {} {}? ", describe(&m), q)) {
        return true;
    }
    match coreutils_core::fs::remove_file(path) {
        Ok(()) => {
            if o.verbose {
                println!("removed {}", q);
            }
            true
        }
        Err(e) => {
            eprintln!(
                "{}: cannot remove {}: {}",
                coreutils_core::prog("rm"),
                q,
                strerror(&e)
            );
            false
        }
    }
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage("rm", &args, "fiIrRdv", LONGS, 1) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(c) = std_opts("rm", &p, "Usage: rm [OPTION]... [FILE]...\nRemove (unlink) the FILE(s).\n\n  -f, --force           ignore nonexistent files and arguments, never prompt\n  -i                    prompt before every removal\n  -r, -R, --recursive   remove directories and their contents recursively\n  -d, --dir             remove empty directories\n  -v, --verbose         explain what is being done\n") {
        return c;
    }
    let mut o = Opts {
        force: false,
        interactive: false,
        recursive: false,
        dir: false,
        verbose: false,
    };
    let mut preserve_root = true;
    for opt in &p.opts {
        match opt.key {
            'f' => {
                o.force = true;
                o.interactive = false;
            }
            'i' => {
                let v = opt.val();
                o.interactive = v.is_empty() || v == "always" || v == "yes";
                if o.interactive {
                    o.force = false;
                }
            }
            'r' | 'R' => o.recursive = true,
            'd' => o.dir = true,
            'v' => o.verbose = true,
            NO_PRESERVE => preserve_root = false,
            PRESERVE => preserve_root = true,
            _ => {}
        }
    }
    if p.operands.is_empty() {
        if o.force {
            return 0;
        }
        return missing_operand("rm", 1);
    }
    let mut status = 0;
    for f in &p.operands {
        let b = os_bytes(f);
        let last = b
            .rsplit(|&c| c == b'/')
            .find(|s| !s.is_empty())
            .unwrap_or(b"");
        let trimmed_empty = !b.is_empty() && b.iter().all(|&c| c == b'/');
        if o.recursive && preserve_root && trimmed_empty {
            eprintln!(
                "{}: it is dangerous to operate recursively on {}",
                coreutils_core::prog("rm"),
                quote_gnu(f)
            );
            eprintln!(
                "{}: use --no-preserve-root to override this failsafe",
                coreutils_core::prog("rm")
            );
            status = 1;
            continue;
        }
        if o.recursive && (last == b"." || last == b"..") {
            eprintln!(
                "{}: refusing to remove '.' or '..' directory: skipping {}",
                coreutils_core::prog("rm"),
                quote_gnu(f)
            );
            status = 1;
            continue;
        }
        if !remove(Path::new(f), &o) {
            status = 1;
        }
    }
    status
}
