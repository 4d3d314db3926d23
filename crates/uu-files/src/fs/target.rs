//! Operand handling shared by `cp`, `mv`, `ln` and `install`: turn
//! `SRC... DEST`, `-t DIR SRC...` and `-T SRC DEST` into (source,
//! destination) pairs with GNU's diagnostics.

use coreutils_core::args::usage_error;
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
        if !Path::new(t).is_dir() {
            eprintln!(
                "{}: target directory {}: {}",
                prog,
                quote_gnu(t),
                if Path::new(t).exists() {
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
            if dp.is_dir() {
                Ok(operands[..n - 1]
                    .iter()
                    .map(|s| (PathBuf::from(s), dp.join(file_name(Path::new(s)))))
                    .collect())
            } else if n > 2 {
                eprintln!(
                    "{}: target {}: {}",
                    prog,
                    quote_gnu(dest),
                    if dp.exists() || std::fs::symlink_metadata(dp).is_ok() {
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

/// Whether two paths name the same existing file.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}
