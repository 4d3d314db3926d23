//! `chmod [-R] [-v|-c] [-f] MODE[,MODE]... FILE...` and `--reference`.

use super::attrs::{self, Switches};
use super::mode::apply;
use coreutils_core::args::{parse_or_usage, std_opts, usage_error};
use coreutils_core::bytes::os_bytes;
use coreutils_core::error::strerror;
use coreutils_core::meta;
use coreutils_core::meta::perm_string;
use coreutils_core::quote::quote_gnu;
use std::ffi::OsString;
use std::path::Path;

struct Opts {
    sw: Switches,
    umask: u32,
}

fn show(mode: u32) -> String {
    format!("{:04o} ({})", mode & 0o7777, perm_string(mode))
}

fn change(path: &Path, spec: &str, reference: Option<u32>, o: &Opts) -> bool {
    let q = quote_gnu(path.as_os_str());
    let st = match meta::stat_ext(path, true) {
        Ok(s) => s,
        Err(e) => {
            if !o.sw.quiet {
                // Only a symlink whose target is missing is dangling; other
                // failures (EACCES on a search) are reported as they are.
                let dangling = e.kind() == std::io::ErrorKind::NotFound
                    && coreutils_core::fs::symlink_metadata(path)
                        .map(|m| m.file_type().is_symlink())
                        .unwrap_or(false);
                if dangling {
                    eprintln!(
                        "{}: cannot operate on dangling symlink {}",
                        coreutils_core::prog("chmod"),
                        q
                    );
                } else {
                    eprintln!(
                        "{}: cannot access {}: {}",
                        coreutils_core::prog("chmod"),
                        q,
                        strerror(&e)
                    );
                }
            }
            return false;
        }
    };
    let is_dir = st.mode & meta::S_IFMT == meta::S_IFDIR;
    let new = match reference {
        Some(r) => (st.mode & !0o7777) | (r & 0o7777),
        None => match apply(spec, st.mode, o.umask, is_dir) {
            Ok(m) => m,
            Err(()) => return false,
        },
    };
    let mut ok = true;
    if new & 0o7777 != st.mode & 0o7777 {
        if let Err(e) = meta::chmod(path, new & 0o7777, true) {
            if !o.sw.quiet {
                eprintln!(
                    "{}: changing permissions of {}: {}",
                    coreutils_core::prog("chmod"),
                    q,
                    strerror(&e)
                );
            }
            ok = false;
        } else if o.sw.verbose || o.sw.changes {
            println!(
                "mode of {} changed from {} to {}",
                q,
                show(st.mode),
                show(new)
            );
        }
    } else if o.sw.verbose {
        println!("mode of {} retained as {}", q, show(st.mode));
    }
    if o.sw.recursive
        && is_dir
        && !coreutils_core::fs::symlink_metadata(path)
            .map(|m| m.file_type().is_symlink())
            .unwrap_or(false)
    {
        for child in attrs::children(path) {
            // Symlinks met during recursion are not followed (GNU -P default).
            if coreutils_core::fs::symlink_metadata(&child)
                .map(|m| m.file_type().is_symlink())
                .unwrap_or(false)
            {
                continue;
            }
            ok &= change(&child, spec, reference, o);
        }
    }
    ok
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    // Modes like `-w` look like options: GNU takes them as the mode.
    let mut args = args;
    let mut mode_arg: Option<OsString> = None;
    if let Some(i) = args.iter().skip(1).position(|a| {
        let b = os_bytes(a);
        b.len() > 1
            && b[0] == b'-'
            && b[1..].iter().all(|c| b"rwxXstugoa=+-,".contains(c))
            && !b[1..].iter().all(|c| *c == b'R')
    }) {
        mode_arg = Some(args.remove(i + 1));
    }
    let p = match parse_or_usage("chmod", &args, "Rvcf", &attrs::longs(), 1) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(c) = std_opts("chmod", &p, "Usage: chmod [OPTION]... MODE[,MODE]... FILE...\n  or:  chmod [OPTION]... OCTAL-MODE FILE...\n  or:  chmod [OPTION]... --reference=RFILE FILE...\nChange the mode of each FILE to MODE.\n") {
        return c;
    }
    let o = Opts {
        sw: Switches::from(&p),
        umask: meta::umask(None).unwrap_or(0o022),
    };
    let mut ops = p.operands.clone();
    let reference = match attrs::reference("chmod", &p) {
        Ok(r) => r.map(|s| s.mode),
        Err(c) => return c,
    };
    let spec = if reference.is_some() {
        String::new()
    } else {
        match mode_arg {
            Some(m) => m.to_string_lossy().into_owned(),
            None => {
                if ops.is_empty() {
                    return usage_error("chmod", "missing operand", 1);
                }
                ops.remove(0).to_string_lossy().into_owned()
            }
        }
    };
    if ops.is_empty() {
        let after = if reference.is_some() || spec.is_empty() {
            String::new()
        } else {
            spec
        };
        if after.is_empty() {
            return usage_error("chmod", "missing operand", 1);
        }
        return usage_error(
            "chmod",
            &format!(
                "missing operand after {}",
                quote_gnu(&OsString::from(after))
            ),
            1,
        );
    }
    if reference.is_none() && apply(&spec, 0o100644, o.umask, false).is_err() {
        eprintln!(
            "{}: invalid mode: {}",
            coreutils_core::prog("chmod"),
            quote_gnu(&OsString::from(&spec))
        );
        eprintln!(
            "Try '{} --help' for more information.",
            coreutils_core::prog("chmod")
        );
        return 1;
    }
    let mut status = 0;
    for f in &ops {
        if !change(Path::new(f), &spec, reference, &o) {
            status = 1;
        }
    }
    status
}
