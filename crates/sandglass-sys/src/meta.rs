//! File metadata WASI preview1 lacks: modes, owners, access checks, ids,
//! umask. Relative paths resolve against the kernel-side cwd.

use crate::{check, raw, Errno};

/// What `path_stat_ext`/`fd_stat_ext` report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExtStat {
    /// `S_IFMT` type bits plus permission, setuid, setgid and sticky bits.
    pub mode: u32,
    /// Owner.
    pub uid: u32,
    /// Group.
    pub gid: u32,
    /// Hard links.
    pub nlink: u32,
}

impl ExtStat {
    fn from_words(w: [u32; 4]) -> Self {
        ExtStat {
            mode: w[0],
            uid: w[1],
            gid: w[2],
            nlink: w[3],
        }
    }
}

/// The caller's identity.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ids {
    /// Real user id.
    pub uid: u32,
    /// Real group id.
    pub gid: u32,
    /// Effective user id.
    pub euid: u32,
    /// Effective group id.
    pub egid: u32,
}

/// `access` mode bit: read.
pub const R_OK: u32 = 4;
/// `access` mode bit: write.
pub const W_OK: u32 = 2;
/// `access` mode bit: execute/search.
pub const X_OK: u32 = 1;
/// `access` mode: existence only.
pub const F_OK: u32 = 0;

/// Mode, owner and links of `path` (`follow`: through a final symlink).
pub fn stat(path: &[u8], follow: bool) -> Result<ExtStat, Errno> {
    let mut w = [0u32; 4];
    // SAFETY: the pointer is valid for the length; w has room for 4 u32.
    check(unsafe {
        raw::path_stat_ext(
            path.as_ptr(),
            path.len() as u32,
            follow as u32,
            w.as_mut_ptr(),
        )
    })?;
    Ok(ExtStat::from_words(w))
}

/// Mode, owner and links of an open fd.
pub fn fstat(fd: u32) -> Result<ExtStat, Errno> {
    let mut w = [0u32; 4];
    // SAFETY: w has room for 4 u32.
    check(unsafe { raw::fd_stat_ext(fd, w.as_mut_ptr()) })?;
    Ok(ExtStat::from_words(w))
}

/// Change the mode bits of `path`.
pub fn chmod(path: &[u8], mode: u32, follow: bool) -> Result<(), Errno> {
    // SAFETY: the pointer is valid for the length.
    check(unsafe { raw::path_chmod(path.as_ptr(), path.len() as u32, follow as u32, mode) })
}

/// Change owner and/or group of `path` (`None` leaves a field unchanged).
pub fn chown(path: &[u8], uid: Option<u32>, gid: Option<u32>, follow: bool) -> Result<(), Errno> {
    let u = uid.map_or(-1, |v| v as i32);
    let g = gid.map_or(-1, |v| v as i32);
    // SAFETY: the pointer is valid for the length.
    check(unsafe { raw::path_chown(path.as_ptr(), path.len() as u32, follow as u32, u, g) })
}

/// Check `amode` ([`R_OK`] | [`W_OK`] | [`X_OK`], or [`F_OK`]) on `path`.
pub fn access(path: &[u8], amode: u32) -> Result<(), Errno> {
    // SAFETY: the pointer is valid for the length.
    check(unsafe { raw::path_access(path.as_ptr(), path.len() as u32, amode) })
}

/// The caller's user and group ids.
pub fn ids() -> Result<Ids, Errno> {
    let mut w = [0u32; 4];
    // SAFETY: w has room for 4 u32.
    check(unsafe { raw::getuid(w.as_mut_ptr()) })?;
    Ok(Ids {
        uid: w[0],
        gid: w[1],
        euid: w[2],
        egid: w[3],
    })
}

/// Set the umask to `new` (`None`: only ask); returns the previous one.
pub fn umask(new: Option<u32>) -> Result<u32, Errno> {
    let mut old = 0u32;
    // SAFETY: the output is one u32.
    check(unsafe { raw::umask(new.map_or(-1, |m| (m & 0o777) as i32), &mut old) })?;
    Ok(old)
}
