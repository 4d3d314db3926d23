//! File descriptor calls WASI lacks: pipes, dup, close-on-spawn, isatty.

use crate::{check, raw, Errno};

/// A new pipe as (read fd, write fd).
pub fn pipe() -> Result<(u32, u32), Errno> {
    let mut fds = [0u32; 2];
    // SAFETY: the host writes two u32s.
    check(unsafe { raw::pipe(fds.as_mut_ptr()) })?;
    Ok((fds[0], fds[1]))
}

/// Duplicate `fd` onto the lowest free fd `>= min_fd` (F_DUPFD).
pub fn dup(fd: u32, min_fd: u32) -> Result<u32, Errno> {
    let mut new = 0u32;
    // SAFETY: the output is one u32.
    check(unsafe { raw::dup(fd, min_fd, &mut new) })?;
    Ok(new)
}

/// Make `new` a copy of `old`.
pub fn dup2(old: u32, new: u32) -> Result<(), Errno> {
    // SAFETY: integer arguments only.
    check(unsafe { raw::dup2(old, new) })
}

/// Set or clear the close-on-spawn flag of `fd`.
pub fn cloexec(fd: u32, on: bool) -> Result<(), Errno> {
    // SAFETY: integer arguments only.
    check(unsafe { raw::fd_cloexec(fd, on as u32) })
}

/// Whether `fd` is a terminal (false on any error).
pub fn isatty(fd: u32) -> bool {
    let mut out = 0u32;
    // SAFETY: the output is one u32.
    unsafe { raw::isatty(fd, &mut out) == 0 && out == 1 }
}
