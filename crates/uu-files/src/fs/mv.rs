//! `mv [-finvTt] SOURCE... DEST`: rename or move files and trees.

use super::rm::ask;
use super::target::{clobber, copy_longs, pairs, same_file, Clobber};
use coreutils_core::args::{parse_or_usage, std_opts};
use coreutils_core::canon::{canonicalize, Mode};
use coreutils_core::error::strerror;
use coreutils_core::quote::quote_gnu;
use std::ffi::OsString;

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage("mv", &args, "finvt:Tu", &copy_longs(), 1) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(c) = std_opts("mv", &p, "Usage: mv [OPTION]... [-T] SOURCE DEST\n  or:  mv [OPTION]... SOURCE... DIRECTORY\n  or:  mv [OPTION]... -t DIRECTORY SOURCE...\nRename SOURCE to DEST, or move SOURCE(s) to DIRECTORY.\n") {
        return c;
    }
    let Clobber {
        interactive,
        no_clobber,
        ..
    } = clobber(&p, true);
    let verbose = p.has('v');
    let update = p.has('u');
    let list = match pairs("mv", &p.operands, p.last('t'), p.has('T')) {
        Ok(l) => l,
        Err(c) => return c,
    };
    let mut status = 0;
    for (s, d) in list {
        let qs = quote_gnu(s.as_os_str());
        let qd = quote_gnu(d.as_os_str());
        let sm = match coreutils_core::fs::symlink_metadata(&s) {
            Ok(m) => m,
            Err(e) => {
                eprintln!(
                    "{}: cannot stat {}: {}",
                    coreutils_core::prog("mv"),
                    qs,
                    strerror(&e)
                );
                status = 1;
                continue;
            }
        };
        if let Ok(dm) = coreutils_core::fs::symlink_metadata(&d) {
            if same_file(&s, &d) && !sm.file_type().is_symlink() {
                eprintln!(
                    "{}: {} and {} are the same file",
                    coreutils_core::prog("mv"),
                    qs,
                    qd
                );
                status = 1;
                continue;
            }
            if no_clobber {
                continue;
            }
            if update {
                if let (Ok(a), Ok(b)) = (sm.modified(), dm.modified()) {
                    if a <= b {
                        continue;
                    }
                }
            }
            if interactive && !ask("mv", &format!("overwrite {}? ", qd)) {
                continue;
            }
            if dm.is_dir() && !sm.is_dir() {
                eprintln!(
                    "{}: cannot overwrite directory {} with non-directory",
                    coreutils_core::prog("mv"),
                    qd
                );
                status = 1;
                continue;
            }
            if !dm.is_dir() && sm.is_dir() {
                eprintln!(
                    "{}: cannot overwrite non-directory {} with directory {}",
                    coreutils_core::prog("mv"),
                    qd,
                    qs
                );
                status = 1;
                continue;
            }
        }
        if sm.is_dir() {
            if let (Ok(a), Some(Ok(b))) = (
                canonicalize(&s, Mode::All, true),
                d.parent().map(|p| {
                    let p = if p.as_os_str().is_empty() {
                        std::path::Path::new(".")
                    } else {
                        p
                    };
                    canonicalize(p, Mode::All, true)
                }),
            ) {
                if b.starts_with(&a) {
                    eprintln!(
                        "{}: cannot move {} to a subdirectory of itself, {}",
                        coreutils_core::prog("mv"),
                        qs,
                        qd
                    );
                    status = 1;
                    continue;
                }
            }
        }
        match coreutils_core::fs::rename(&s, &d) {
            Ok(()) => {
                if verbose {
                    println!("renamed {} -> {}", qs, qd);
                }
            }
            Err(e) => {
                eprintln!(
                    "{}: cannot move {} to {}: {}",
                    coreutils_core::prog("mv"),
                    qs,
                    qd,
                    strerror(&e)
                );
                status = 1;
            }
        }
    }
    status
}
