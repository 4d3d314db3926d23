//! Byte-string helpers: OS strings to bytes and back without loss (unix and
//! wasi both store bytes), and small formatting helpers.

use std::ffi::{OsStr, OsString};

#[cfg(unix)]
use std::os::unix::ffi::{OsStrExt, OsStringExt};
#[cfg(target_os = "wasi")]
use std::os::wasi::ffi::{OsStrExt, OsStringExt};

pub fn os_bytes(s: &OsStr) -> Vec<u8> {
    s.as_bytes().to_vec()
}

pub fn to_os(b: &[u8]) -> OsString {
    OsString::from_vec(b.to_vec())
}

pub fn path(b: &[u8]) -> std::path::PathBuf {
    std::path::PathBuf::from(to_os(b))
}

pub fn parse_i64(b: &[u8]) -> Option<i64> {
    let s = std::str::from_utf8(b).ok()?.trim();
    s.parse().ok()
}
