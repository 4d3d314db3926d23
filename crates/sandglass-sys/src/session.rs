//! The shell's sessions: API mode (one command per `next`, answered by
//! `done`), command-line boundaries (`step_begin`/`step_end`, which also
//! carry the shell's state blob) and control requests from the kernel
//! (`ctl_take`: a state to apply).

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

/// `step_end` flag: the kernel holds a control request; fetch it with [`ctl_take`].
pub const CTL_PENDING: u32 = 1;

/// An interactive command line starts (its text as typed).
pub fn step_begin(text: &[u8]) -> Result<(), Errno> {
    // SAFETY: pointer and length describe `text`.
    check(unsafe { raw::step_begin(text.as_ptr(), text.len() as u32) })
}

/// The current command line ended with `status` (in API mode this also
/// completes the session command, like [`done`]); with no command line
/// open it only reports the state. `state` is the shell's state blob (may
/// be empty). Returns the flags ([`CTL_PENDING`]).
pub fn step_end(status: i32, state: &[u8]) -> Result<u32, Errno> {
    let mut flags = 0u32;
    // SAFETY: pointer and length describe `state`; the output is one u32.
    check(unsafe { raw::step_end(status, state.as_ptr(), state.len() as u32, &mut flags) })?;
    Ok(flags)
}

/// Take the kernel's pending control request: a state blob to apply, or
/// empty when there is none.
pub fn ctl_take() -> Result<Vec<u8>, Errno> {
    let (mut h, mut len) = (0u32, 0u32);
    // SAFETY: both outputs are one u32.
    check(unsafe { raw::ctl_take(&mut h, &mut len) })?;
    if len == 0 {
        return Ok(Vec::new());
    }
    handle::read(h, len)
}
