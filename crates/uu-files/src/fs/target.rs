//! Operand and option handling shared by `cp`, `mv`, `ln` and `install`:
//! turn `SRC... DEST`, `-t DIR SRC...` and `-T SRC DEST` into (source,
//! destination) pairs with GNU's diagnostics, and the options `cp` and `mv`
//! both take (`-f -i -n -v -u -t -T`), with GNU's "last of -f/-i/-n wins".

use coreutils_core::args::{long, usage_error, HasArg, LongOpt, Parsed, STD_LONGS};
use coreutils_core::quote::quote_gnu;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The final path component of `src` (trailing slashes ignored).
pub fn file_name(src: &Path) -> OsString {
    src.file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_else(|| src.as_os_str().to_os_string())
}

/// Pairs of (source, destination) or the exit status after a diagnostic.
pub fn pairs(
    prog: &str,
    operands: &[OsString],
    target_dir: Option<&OsString>,
    no_target_dir: bool,
) -> Result<Vec<(PathBuf, PathBuf)>, i32> {
    if let Some(t) = target_dir {
        if !coreutils_core::fs::is_dir(Path::new(t)) {
            eprintln!(
                "{}: target directory {}: {}",
                prog,
                quote_gnu(t),
                if coreutils_core::fs::exists(Path::new(t)) {
                    "Not a directory"
                } else {
                    "No such file or directory"
                }
            );
            return Err(1);
        }
        if operands.is_empty() {
            return Err(usage_error(prog, "missing file operand", 1));
        }
        return Ok(operands
            .iter()
            .map(|s| (PathBuf::from(s), Path::new(t).join(file_name(Path::new(s)))))
            .collect());
    }
    match operands.len() {
        0 => Err(usage_error(prog, "missing file operand", 1)),
        1 => Err(usage_error(
            prog,
            &format!(
                "missing destination file operand after {}",
                quote_gnu(&operands[0])
            ),
            1,
        )),
        n => {
            let dest = &operands[n - 1];
            let dp = Path::new(dest);
            if no_target_dir {
                if n > 2 {
                    return Err(usage_error(
                        prog,
                        &format!("extra operand {}", quote_gnu(&operands[2])),
                        1,
                    ));
                }
                return Ok(vec![(PathBuf::from(&operands[0]), PathBuf::from(dest))]);
            }
            if coreutils_core::fs::is_dir(&dp) {
                Ok(operands[..n - 1]
                    .iter()
                    .map(|s| (PathBuf::from(s), dp.join(file_name(Path::new(s)))))
                    .collect())
            } else if n > 2 {
                eprintln!(
                    "{}: target {}: {}",
                    prog,
                    quote_gnu(dest),
                    if coreutils_core::fs::exists(&dp)
                        || coreutils_core::fs::symlink_metadata(dp).is_ok()
                    {
                        "Not a directory"
                    } else {
                        "No such file or directory"
                    }
                );
                Err(1)
            } else {
                Ok(vec![(PathBuf::from(&operands[0]), PathBuf::from(dest))])
            }
        }
    }
}

pub use coreutils_core::meta::same_file;

/// The long options naming the destination, shared by `cp`, `mv`, `ln`
/// and `install` (with `--verbose`, which all four take).
pub const TARGET_LONGS: [LongOpt; 3] = [
    long("verbose", HasArg::No, 'v'),
    long("target-directory", HasArg::Required, 't'),
    long("no-target-directory", HasArg::No, 'T'),
];

/// How `cp` and `mv` treat an existing destination.
pub const CLOBBER_LONGS: [LongOpt; 4] = [
    long("force", HasArg::No, 'f'),
    long("interactive", HasArg::No, 'i'),
    long("no-clobber", HasArg::No, 'n'),
    long("update", HasArg::Optional, 'u'),
];

/// The long options `cp` and `mv` share, `--help` and `--version` included.
pub fn copy_longs() -> Vec<LongOpt> {
    [&CLOBBER_LONGS[..], &TARGET_LONGS[..], &STD_LONGS[..]].concat()
}

/// How an existing destination is treated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clobber {
    /// `-f`.
    pub force: bool,
    /// `-i`: ask first.
    pub interactive: bool,
    /// `-n`: never overwrite.
    pub no_clobber: bool,
}

/// Reads `-f`/`-i`/`-n` in order, the later overriding the earlier. `mv -f`
/// also cancels an earlier `-n`; `cp -f` only cancels `-i` (its `-f` is
/// about destinations that cannot be opened).
pub fn clobber(p: &Parsed, force_cancels_no_clobber: bool) -> Clobber {
    let mut c = Clobber::default();
    for o in &p.opts {
        match o.key {
            'f' => {
                c.force = true;
                c.interactive = false;
                if force_cancels_no_clobber {
                    c.no_clobber = false;
                }
            }
            'i' => {
                c.interactive = true;
                c.no_clobber = false;
            }
            'n' => {
                c.no_clobber = true;
                c.interactive = false;
            }
            _ => {}
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use coreutils_core::args::parse;

    fn clob(args: &[&str], mv: bool) -> Clobber {
        let a: Vec<OsString> = args.iter().map(OsString::from).collect();
        let p = parse(&a, "fin", &copy_longs()).expect("valid options");
        clobber(&p, mv)
    }

    #[test]
    fn last_of_f_i_n_wins() {
        assert!(clob(&["-i", "-n"], true).no_clobber);
        assert!(!clob(&["-i", "-n"], true).interactive);
        assert!(clob(&["-n", "-i"], true).interactive);
        assert!(!clob(&["-n", "-f"], true).no_clobber);
        // cp's -f leaves an earlier -n in force.
        assert!(clob(&["-n", "-f"], false).no_clobber);
        assert!(!clob(&["-i", "--force"], false).interactive);
    }
}
