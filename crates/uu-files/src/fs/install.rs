//! `install [-d] [-D] [-m MODE] [-v] [-t DIR] [-T] SOURCE... DEST`.

use super::mode::apply;
use super::target::{pairs, TARGET_LONGS};
use coreutils_core::args::{
    long, parse_or_usage, std_opts, usage_error, HasArg, LongOpt, STD_LONGS,
};
use coreutils_core::error::strerror;
use coreutils_core::meta;
use coreutils_core::quote::quote_gnu;
use std::ffi::OsString;
use std::path::Path;

/// Options of its own, beside the shared target options.
const OWN_LONGS: &[LongOpt] = &[
    long("directory", HasArg::No, 'd'),
    long("mode", HasArg::Required, 'm'),
    long("compare", HasArg::No, 'C'),
    long("preserve-timestamps", HasArg::No, 'p'),
    long("owner", HasArg::Required, 'o'),
    long("group", HasArg::Required, 'g'),
    long("strip", HasArg::No, 's'),
];

fn mkdirs(path: &Path, mode: u32, verbose: bool) -> std::io::Result<()> {
    let mut acc = std::path::PathBuf::new();
    for c in path.components() {
        acc.push(c.as_os_str());
        if coreutils_core::fs::is_dir(&acc) {
            continue;
        }
        coreutils_core::fs::create_dir(&acc)?;
        if verbose {
            println!("install: creating directory {}", quote_gnu(acc.as_os_str()));
        }
        meta::chmod(&acc, mode, true)?;
    }
    Ok(())
}

/// Entry point.
pub fn uumain(args: Vec<OsString>) -> i32 {
    let p = match parse_or_usage(
        "install",
        &args,
        "dm:vt:TCpo:g:sDbS:Z",
        &[OWN_LONGS, &TARGET_LONGS[..], &STD_LONGS[..]].concat(),
        1,
    ) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(c) = std_opts("install", &p, "Usage: install [OPTION]... [-T] SOURCE DEST\n  or:  install [OPTION]... SOURCE... DIRECTORY\n  or:  install [OPTION]... -t DIRECTORY SOURCE...\n  or:  install [OPTION]... -d DIRECTORY...\n") {
        return c;
    }
    let umask = meta::umask(None).unwrap_or(0o022);
    let mode = match p.last('m') {
        Some(m) => match apply(&m.to_string_lossy(), 0o755, umask, false) {
            Ok(v) => v & 0o7777,
            Err(()) => {
                eprintln!(
                    "{}: invalid mode {}",
                    coreutils_core::prog("install"),
                    quote_gnu(m)
                );
                return 1;
            }
        },
        None => 0o755,
    };
    let verbose = p.has('v');
    let mut status = 0;
    if p.has('d') {
        if p.operands.is_empty() {
            return usage_error("install", "missing file operand", 1);
        }
        for d in &p.operands {
            if let Err(e) = mkdirs(Path::new(d), 0o755, verbose)
                .and_then(|_| meta::chmod(Path::new(d), mode, true))
            {
                eprintln!(
                    "{}: cannot create directory {}: {}",
                    coreutils_core::prog("install"),
                    quote_gnu(d),
                    strerror(&e)
                );
                status = 1;
            }
        }
        return status;
    }
    let make_parents = p.has('D');
    if make_parents && p.operands.len() >= 2 && !p.has('t') {
        if let Some(parent) = Path::new(&p.operands[p.operands.len() - 1]).parent() {
            if !parent.as_os_str().is_empty() && p.operands.len() == 2 {
                if let Err(e) = mkdirs(parent, 0o755, verbose) {
                    eprintln!(
                        "{}: cannot create directory {}: {}",
                        coreutils_core::prog("install"),
                        quote_gnu(parent.as_os_str()),
                        strerror(&e)
                    );
                    return 1;
                }
            }
        }
    }
    if let (true, Some(t)) = (make_parents, p.last('t')) {
        let _ = mkdirs(Path::new(t), 0o755, verbose);
    }
    let list = match pairs("install", &p.operands, p.last('t'), p.has('T')) {
        Ok(l) => l,
        Err(c) => return c,
    };
    for (src, dst) in list {
        let qs = quote_gnu(src.as_os_str());
        match coreutils_core::fs::metadata(&src) {
            Ok(m) if m.is_dir() => {
                eprintln!(
                    "{}: omitting directory {}",
                    coreutils_core::prog("install"),
                    qs
                );
                status = 1;
                continue;
            }
            Ok(_) => {}
            Err(e) => {
                eprintln!(
                    "{}: cannot stat {}: {}",
                    coreutils_core::prog("install"),
                    qs,
                    strerror(&e)
                );
                status = 1;
                continue;
            }
        }
        if coreutils_core::fs::is_dir(&dst) {
            eprintln!(
                "{}: cannot overwrite directory {} with non-directory",
                coreutils_core::prog("install"),
                quote_gnu(dst.as_os_str())
            );
            status = 1;
            continue;
        }
        if meta::same_file(&src, &dst) {
            eprintln!(
                "{}: {} and {} are the same file",
                coreutils_core::prog("install"),
                qs,
                quote_gnu(dst.as_os_str())
            );
            status = 1;
            continue;
        }
        // Replace rather than write through: install unlinks the old file.
        let _ = coreutils_core::fs::remove_file(&dst);
        let r = coreutils_core::fs::open(&src).and_then(|mut f| {
            let mut out = coreutils_core::fs::OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true)
                .open(&dst)?;
            std::io::copy(&mut f, &mut out).map(|_| ())
        });
        if let Err(e) = r {
            eprintln!(
                "{}: cannot create regular file {}: {}",
                coreutils_core::prog("install"),
                quote_gnu(dst.as_os_str()),
                strerror(&e)
            );
            status = 1;
            continue;
        }
        if let Err(e) = meta::chmod(&dst, mode, true) {
            eprintln!(
                "{}: cannot change permissions of {}: {}",
                coreutils_core::prog("install"),
                quote_gnu(dst.as_os_str()),
                strerror(&e)
            );
            status = 1;
        }
        if verbose {
            println!("{} -> {}", qs, quote_gnu(dst.as_os_str()));
        }
    }
    status
}
