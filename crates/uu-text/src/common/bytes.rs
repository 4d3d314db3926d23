//! Conversions between OS strings and raw bytes, so invalid UTF-8 in
//! arguments and file names passes through untouched.

use std::ffi::OsStr;

pub use coreutils_core::bytes::{os_bytes, os_from_vec, os_str};

/// Display form of a name for messages (lossy only for display).
pub fn disp(s: &OsStr) -> String {
    s.to_string_lossy().into_owned()
}

/// Name quoted as GNU's `quote()` does in the C locale: always in single
/// quotes (`cannot open 'x' for reading`).
pub fn q(s: &OsStr) -> String {
    let t = s.to_string_lossy();
    format!("'{}'", t.replace('\\', "\\\\").replace('\'', "\\'"))
}

/// Name quoted as GNU's `quotef()` does: bare when shell-safe.
pub fn qf(s: &OsStr) -> String {
    coreutils_core::quote::quote(&s.to_string_lossy())
}

/// Split `data` into records ended by `delim`; a final record without the
/// terminator is still yielded. The terminator is not included.
pub fn records(data: &[u8], delim: u8) -> Records<'_> {
    Records { data, delim }
}

/// Iterator returned by [`records`].
pub struct Records<'a> {
    data: &'a [u8],
    delim: u8,
}

impl<'a> Iterator for Records<'a> {
    type Item = &'a [u8];
    fn next(&mut self) -> Option<&'a [u8]> {
        if self.data.is_empty() {
            return None;
        }
        match memchr(self.delim, self.data) {
            Some(i) => {
                let r = &self.data[..i];
                self.data = &self.data[i + 1..];
                Some(r)
            }
            None => {
                let r = self.data;
                self.data = &[];
                Some(r)
            }
        }
    }
}

/// Position of the first `b` in `hay` (SIMD-accelerated where available).
pub fn memchr(b: u8, hay: &[u8]) -> Option<usize> {
    memchr::memchr(b, hay)
}
