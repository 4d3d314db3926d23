//! The shell's API mode: one command per `next`, answered by `done`.

use crate::{check, handle, raw, Errno};

/// Block until the kernel hands the next command; the bytes are a session
/// request ([`crate::format::SessionRequest`]). fds 0, 1 and 2 already point
/// at this command's streams when it returns.
pub fn next() -> Result<Vec<u8>, Errno> {
    let (mut h, mut len) = (0u32, 0u32);
    // SAFETY: both outputs are one u32.
    check(unsafe { raw::session_next(&mut h, &mut len) })?;
    handle::read(h, len)
}

/// The current command finished with `status`.
pub fn done(status: i32) -> Result<(), Errno> {
    // SAFETY: integer argument only.
    check(unsafe { raw::session_done(status) })
}
