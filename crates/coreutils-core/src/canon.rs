//! Canonical paths: absolute, without `.`, `..` or symlinks, resolved
//! component by component through the filesystem (std's `canonicalize` is
//! unsupported on WASI, and GNU's `-e`/`-f`/`-m` strictness needs this walk
//! anyway).
//!
//! ```
//! use coreutils_core::canon::{canonicalize, Mode};
//! use std::path::{Path, PathBuf};
//! let p = canonicalize(Path::new("/no-such-dir-x/../y/./z"), Mode::Missing, true).unwrap();
//! assert_eq!(p, PathBuf::from("/y/z"));
//! ```

use std::io;
use std::path::{Component, Path, PathBuf};

/// How strictly components must exist.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// All but the last component must exist (`-f`, realpath default).
    AllButLast,
    /// Every component must exist (`-e`).
    All,
    /// Nothing needs to exist (`-m`).
    Missing,
}

/// Resolve `p` to an absolute path without `.`, `..` or symlinks.
pub fn canonicalize(p: &Path, mode: Mode, resolve_links: bool) -> io::Result<PathBuf> {
    let start = if p.is_absolute() {
        PathBuf::from("/")
    } else {
        std::env::current_dir()?
    };
    let mut pending: Vec<PathBuf> = p
        .components()
        .rev()
        .map(|c| PathBuf::from(c.as_os_str()))
        .collect();
    let mut out = start;
    let mut hops = 0;
    while let Some(c) = pending.pop() {
        let comp = c.components().next();
        match comp {
            Some(Component::RootDir) => out = PathBuf::from("/"),
            Some(Component::CurDir) | None => {}
            Some(Component::ParentDir) => {
                out.pop();
            }
            Some(_) => {
                let next = out.join(&c);
                let last = pending.is_empty();
                match crate::fs::symlink_metadata(&next) {
                    Ok(m) if m.file_type().is_symlink() && resolve_links => {
                        hops += 1;
                        if hops > 40 {
                            return Err(io::Error::from_raw_os_error(
                                if cfg!(target_os = "wasi") { 32 } else { 40 },
                            ));
                        }
                        let t = crate::fs::read_link(&next)?;
                        if t.is_absolute() {
                            out = PathBuf::from("/");
                        }
                        for tc in t.components().rev() {
                            pending.push(PathBuf::from(tc.as_os_str()));
                        }
                    }
                    Ok(m) => {
                        if !last && !m.is_dir() && mode != Mode::Missing {
                            return Err(io::Error::from_raw_os_error(
                                if cfg!(target_os = "wasi") { 54 } else { 20 },
                            ));
                        }
                        out = next;
                    }
                    Err(e) => {
                        if mode == Mode::Missing || (mode == Mode::AllButLast && last) {
                            out = next;
                        } else {
                            return Err(e);
                        }
                    }
                }
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn missing_mode_normalises() {
        let r = canonicalize(Path::new("/nonexistent-x/../y/./z"), Mode::Missing, true).unwrap();
        assert_eq!(r, PathBuf::from("/y/z"));
        assert!(canonicalize(Path::new("/nonexistent-x/y"), Mode::AllButLast, true).is_err());
    }

    #[test]
    fn resolves_links_and_dots() {
        let dir = std::env::temp_dir().join(format!("canon-test-{}", std::process::id()));
        let _ = crate::fs::remove_dir_all(&dir);
        crate::fs::create_dir_all(dir.join("real/sub")).unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink("real", dir.join("link")).unwrap();
        #[cfg(unix)]
        {
            let r = canonicalize(&dir.join("link/./sub/.."), Mode::All, true).unwrap();
            assert_eq!(r, canonicalize(&dir.join("real"), Mode::All, true).unwrap());
            let kept = canonicalize(&dir.join("link"), Mode::All, false).unwrap();
            assert!(kept.ends_with("link"));
        }
        assert!(canonicalize(&dir.join("real/nope/x"), Mode::AllButLast, true).is_err());
        let _ = crate::fs::remove_dir_all(&dir);
    }
}
