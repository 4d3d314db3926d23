//! The kernel's terminal: modes, window size, foreground group.

use crate::{check, raw, Errno};

/// Mode bit: canonical (line buffered, erase/kill).
pub const CANONICAL: u32 = 1;
/// Mode bit: echo input.
pub const ECHO: u32 = 2;
/// Mode bit: Ctrl-C, Ctrl-Z, Ctrl-\ signal the foreground group.
pub const ISIG: u32 = 4;

/// The mode bits of the tty on `fd`.
pub fn get(fd: u32) -> Result<u32, Errno> {
    let mut mode = 0u32;
    // SAFETY: the output is one u32.
    check(unsafe { raw::tty_get(fd, &mut mode) })?;
    Ok(mode)
}

/// Set the mode bits of the tty on `fd`.
pub fn set(fd: u32, mode: u32) -> Result<(), Errno> {
    // SAFETY: integer arguments only.
    check(unsafe { raw::tty_set(fd, mode) })
}

/// (columns, rows) of the tty on `fd`.
pub fn winsize(fd: u32) -> Result<(u16, u16), Errno> {
    let mut w = [0u16; 2];
    // SAFETY: the host writes two u16s.
    check(unsafe { raw::tty_winsize(fd, w.as_mut_ptr()) })?;
    Ok((w[0], w[1]))
}

/// Make `pgid` the tty's foreground process group.
pub fn set_foreground(fd: u32, pgid: i32) -> Result<(), Errno> {
    // SAFETY: integer arguments only.
    check(unsafe { raw::tcsetpgrp(fd, pgid) })
}

/// The tty's foreground process group.
pub fn foreground(fd: u32) -> Result<i32, Errno> {
    let mut pgid = 0;
    // SAFETY: the output is one i32.
    check(unsafe { raw::tcgetpgrp(fd, &mut pgid) })?;
    Ok(pgid)
}
