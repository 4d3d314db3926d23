//! Byte views of OS strings, the same on WASI and on native Unix, so
//! utilities handle invalid UTF-8 names and arguments untouched.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

#[cfg(target_os = "wasi")]
use std::os::wasi::ffi::{OsStrExt, OsStringExt};

#[cfg(not(target_os = "wasi"))]
use std::os::unix::ffi::{OsStrExt, OsStringExt};

/// The bytes of an OS string.
pub fn os_bytes(s: &OsStr) -> &[u8] {
    s.as_bytes()
}

/// An OS string from bytes.
pub fn os_from_bytes(b: &[u8]) -> OsString {
    OsString::from_vec(b.to_vec())
}

/// Bytes viewed as an OS string.
pub fn os_str(b: &[u8]) -> &OsStr {
    OsStr::from_bytes(b)
}

/// An OS string owning `v`.
pub fn os_from_vec(v: Vec<u8>) -> OsString {
    OsString::from_vec(v)
}

/// The bytes of a path.
pub fn path_bytes(p: &Path) -> &[u8] {
    p.as_os_str().as_bytes()
}

/// A path from bytes.
pub fn path_from_bytes(b: &[u8]) -> PathBuf {
    PathBuf::from(os_from_bytes(b))
}
