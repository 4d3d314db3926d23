//! Process calls: spawn, wait, signals, process groups, the kernel cwd.

use crate::{check, handle, raw, Errno};

/// `wait` option: return at once (pid 0) when no child is ready.
pub const WNOHANG: u32 = 1;
/// `wait` option: also report children that stopped.
pub const WUNTRACED: u32 = 2;

/// Signal disposition: the default action.
pub const SIG_DEFAULT: u32 = 0;
/// Signal disposition: ignored.
pub const SIG_IGNORE: u32 = 1;
/// Signal disposition: caught (queued; interrupts blocking calls with EINTR).
pub const SIG_CATCH: u32 = 2;

/// Start a child from an encoded spawn request ([`crate::format::SpawnRequest`]);
/// returns its pid.
pub fn spawn(request: &[u8]) -> Result<i32, Errno> {
    let mut pid = 0;
    // SAFETY: the pointer is valid for the length; pid_out is one i32.
    check(unsafe { raw::spawn(request.as_ptr(), request.len() as u32, &mut pid) })?;
    Ok(pid)
}

/// Replace the calling program with the one an encoded spawn request names
/// (its `pgid` is ignored): same pid, parent and group, the fd table the
/// request maps, caught signals back to their default. Returns only on
/// failure, with the errno `spawn` would have given.
pub fn exec(request: &[u8]) -> Errno {
    // SAFETY: the pointer is valid for the length.
    match check(unsafe { raw::exec(request.as_ptr(), request.len() as u32) }) {
        Ok(()) => crate::EIO,
        Err(e) => e,
    }
}

/// Wait for child `pid` (-1 any, `< -1` any in group `-pid`); returns
/// (pid, POSIX wait status), pid 0 under [`WNOHANG`] when none is ready.
pub fn wait(pid: i32, options: u32) -> Result<(i32, i32), Errno> {
    let (mut got, mut status) = (0, 0);
    // SAFETY: both outputs are one i32.
    check(unsafe { raw::wait(pid, options, &mut got, &mut status) })?;
    Ok((got, status))
}

/// Send `sig` to a process (`pid > 0`) or group (`pid < 0`); 0 probes.
pub fn kill(pid: i32, sig: u32) -> Result<(), Errno> {
    // SAFETY: integer arguments only.
    check(unsafe { raw::kill(pid, sig) })
}

/// Own pid and parent pid.
pub fn getpid() -> Result<(i32, i32), Errno> {
    let (mut pid, mut ppid) = (0, 0);
    // SAFETY: both outputs are one i32.
    check(unsafe { raw::getpid(&mut pid, &mut ppid) })?;
    Ok((pid, ppid))
}

/// Put `pid` (0: self) into group `pgid` (0: its own).
pub fn setpgid(pid: i32, pgid: i32) -> Result<(), Errno> {
    // SAFETY: integer arguments only.
    check(unsafe { raw::setpgid(pid, pgid) })
}

/// The process group of `pid` (0: self).
pub fn getpgid(pid: i32) -> Result<i32, Errno> {
    let mut pgid = 0;
    // SAFETY: the output is one i32.
    check(unsafe { raw::getpgid(pid, &mut pgid) })?;
    Ok(pgid)
}

/// Set the disposition of `sig` ([`SIG_DEFAULT`], [`SIG_IGNORE`], [`SIG_CATCH`]).
pub fn sigaction(sig: u32, disposition: u32) -> Result<(), Errno> {
    // SAFETY: integer arguments only.
    check(unsafe { raw::sigaction(sig, disposition) })
}

/// Take the mask of caught signals pending (bit n = signal n) and clear it.
pub fn sigpending() -> Result<u64, Errno> {
    let mut mask = 0u64;
    // SAFETY: the output is one u64.
    check(unsafe { raw::sigpending(&mut mask) })?;
    Ok(mask)
}

/// Set the kernel-side cwd (children's default cwd, `/proc/self/cwd`).
pub fn chdir(path: &[u8]) -> Result<(), Errno> {
    // SAFETY: the pointer is valid for the length.
    check(unsafe { raw::chdir(path.as_ptr(), path.len() as u32) })
}

/// The kernel-side cwd.
pub fn getcwd() -> Result<Vec<u8>, Errno> {
    let (mut h, mut len) = (0u32, 0u32);
    // SAFETY: both outputs are one u32.
    check(unsafe { raw::getcwd(&mut h, &mut len) })?;
    handle::read(h, len)
}
