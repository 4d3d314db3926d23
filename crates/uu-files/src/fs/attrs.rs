//! What `chmod`, `chown` and `chgrp` share: their common options
//! (`-R -v -c -f --reference`), the `--reference` lookup and the sorted
//! children a recursive run descends into.

use coreutils_core::args::{long, HasArg, LongOpt, Parsed, STD_LONGS};
use coreutils_core::error::strerror;
use coreutils_core::meta::{self, ExtStat};
use coreutils_core::quote::quote_gnu;
use std::path::{Path, PathBuf};

/// Key of `--reference=RFILE`.
pub const REFERENCE: char = '\u{e001}';

/// The long options every attribute changer takes (beside help/version).
pub const OWN_LONGS: [LongOpt; 6] = [
    long("recursive", HasArg::No, 'R'),
    long("verbose", HasArg::No, 'v'),
    long("changes", HasArg::No, 'c'),
    long("silent", HasArg::No, 'f'),
    long("quiet", HasArg::No, 'f'),
    long("reference", HasArg::Required, REFERENCE),
];

/// All long options of `chmod` (and the shared part of chown's).
pub fn longs() -> Vec<LongOpt> {
    [&OWN_LONGS[..], &STD_LONGS[..]].concat()
}

/// The shared switches, as given.
#[derive(Clone, Copy, Debug, Default)]
pub struct Switches {
    /// `-R`.
    pub recursive: bool,
    /// `-v`: report every file.
    pub verbose: bool,
    /// `-c`: report changed files only.
    pub changes: bool,
    /// `-f`: no diagnostics.
    pub quiet: bool,
}

impl Switches {
    /// Reads the switches from parsed options.
    pub fn from(p: &Parsed) -> Switches {
        Switches {
            recursive: p.has('R'),
            verbose: p.has('v'),
            changes: p.has('c'),
            quiet: p.has('f'),
        }
    }
}

/// The status of `--reference=RFILE` when given; `Err(1)` after GNU's
/// diagnostic when it cannot be read.
pub fn reference(prog: &str, p: &Parsed) -> Result<Option<ExtStat>, i32> {
    match p.last(REFERENCE) {
        None => Ok(None),
        Some(r) => meta::stat_ext(Path::new(r), true).map(Some).map_err(|e| {
            eprintln!(
                "{}: failed to get attributes of {}: {}",
                prog,
                quote_gnu(r),
                strerror(&e)
            );
            1
        }),
    }
}

/// The entries of `dir`, sorted by name, as paths under it (empty when it
/// cannot be read).
pub fn children(dir: &Path) -> Vec<PathBuf> {
    let mut names: Vec<_> = match std::fs::read_dir(dir) {
        Ok(rd) => rd.filter_map(|e| e.ok()).map(|e| e.file_name()).collect(),
        Err(_) => return Vec::new(),
    };
    names.sort();
    names.into_iter().map(|n| dir.join(n)).collect()
}
