//! `ln [-sfnvT] [-t DIR] TARGET... [LINK]`: hard and symbolic links.

use super::cp::symlink;
use super::target::{file_name, same_file, TARGET_LONGS};
use coreutils_core::args::{
    long, parse_or_usage, std_opts, usage_error, HasArg, LongOpt, STD_LONGS,
};
use coreutils_core::error::strerror;
use coreutils_core::quote::quote_gnu;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Options of its own, beside the shared target options.
const OWN_LONGS: &[LongOpt] = &[
    long("symbolic", HasArg::No, 's'),
    long("force", HasArg::No, 'f'),
    long("no-dereference", HasArg::No, 'n'),
    long("relative", HasArg::No, 'r'),
];

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage(
        "ln",
        &args,
        "sfnvt:TLPr",
        &[OWN_LONGS, &TARGET_LONGS[..], &STD_LONGS[..]].concat(),
        1,
    ) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(c) = std_opts("ln", &p, "Usage: ln [OPTION]... [-T] TARGET LINK_NAME\n  or:  ln [OPTION]... TARGET\n  or:  ln [OPTION]... TARGET... DIRECTORY\n  or:  ln [OPTION]... -t DIRECTORY TARGET...\nCreate links to each TARGET.\n") {
        return c;
    }
    let (sym, force, nodir, verbose) = (p.has('s'), p.has('f'), p.has('n'), p.has('v'));
    let ops = &p.operands;
    if ops.is_empty() {
        return usage_error("ln", "missing file operand", 1);
    }
    // A link that is a symlink to a directory counts as a directory unless -n.
    let is_dir = |d: &Path| {
        if nodir
            && coreutils_core::fs::symlink_metadata(d)
                .map(|m| m.file_type().is_symlink())
                .unwrap_or(false)
        {
            return false;
        }
        coreutils_core::fs::is_dir(&d)
    };
    let list: Vec<(PathBuf, PathBuf)> = if let Some(t) = p.last('t') {
        ops.iter()
            .map(|s| (PathBuf::from(s), Path::new(t).join(file_name(Path::new(s)))))
            .collect()
    } else if ops.len() == 1 {
        vec![(
            PathBuf::from(&ops[0]),
            Path::new(".").join(file_name(Path::new(&ops[0]))),
        )]
    } else {
        let dest = Path::new(&ops[ops.len() - 1]);
        if p.has('T') {
            if ops.len() > 2 {
                return usage_error("ln", &format!("extra operand {}", quote_gnu(&ops[2])), 1);
            }
            vec![(PathBuf::from(&ops[0]), dest.to_path_buf())]
        } else if is_dir(dest) {
            ops[..ops.len() - 1]
                .iter()
                .map(|s| (PathBuf::from(s), dest.join(file_name(Path::new(s)))))
                .collect()
        } else if ops.len() > 2 {
            eprintln!(
                "{}: target {}: {}",
                coreutils_core::prog("ln"),
                quote_gnu(dest.as_os_str()),
                if coreutils_core::fs::exists(&dest) {
                    "Not a directory"
                } else {
                    "No such file or directory"
                }
            );
            return 1;
        } else {
            vec![(PathBuf::from(&ops[0]), dest.to_path_buf())]
        }
    };
    let mut status = 0;
    for (target, link) in list {
        let qt = quote_gnu(target.as_os_str());
        let ql = quote_gnu(link.as_os_str());
        if !sym && coreutils_core::fs::symlink_metadata(&target).is_err() {
            eprintln!(
                "{}: failed to access {}: No such file or directory",
                coreutils_core::prog("ln"),
                qt
            );
            status = 1;
            continue;
        }
        if !sym && coreutils_core::fs::is_dir(&target) {
            eprintln!(
                "{}: {}: hard link not allowed for directory",
                coreutils_core::prog("ln"),
                coreutils_core::quote::quotef(target.as_os_str())
            );
            status = 1;
            continue;
        }
        if let Ok(lm) = coreutils_core::fs::symlink_metadata(&link) {
            if !force {
                eprintln!(
                    "{}: failed to create {} link {}: File exists",
                    coreutils_core::prog("ln"),
                    if sym { "symbolic" } else { "hard" },
                    ql
                );
                status = 1;
                continue;
            }
            if !sym && same_file(&target, &link) {
                eprintln!(
                    "{}: {} and {} are the same file",
                    coreutils_core::prog("ln"),
                    qt,
                    ql
                );
                status = 1;
                continue;
            }
            let r = if lm.is_dir() {
                coreutils_core::fs::remove_dir(&link)
            } else {
                coreutils_core::fs::remove_file(&link)
            };
            if let Err(e) = r {
                eprintln!(
                    "{}: cannot remove {}: {}",
                    coreutils_core::prog("ln"),
                    ql,
                    strerror(&e)
                );
                status = 1;
                continue;
            }
        }
        let r = if sym {
            symlink(&target, &link)
        } else {
            coreutils_core::fs::hard_link(&target, &link)
        };
        match r {
            Ok(()) => {
                if verbose {
                    println!("{} {} {}", ql, if sym { "->" } else { "=>" }, qt);
                }
            }
            Err(e) => {
                eprintln!(
                    "{}: failed to create {} link {}: {}",
                    coreutils_core::prog("ln"),
                    if sym { "symbolic" } else { "hard" },
                    ql,
                    strerror(&e)
                );
                status = 1;
            }
        }
    }
    status
}
