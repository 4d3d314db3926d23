//! POSIX file metadata (modes, owners, permission checks, ids, umask).
//!
//! WASI preview1 has none of these, so on `wasm32` they come from the
//! kernel's `sandglass` file-metadata imports (docs/abi.md); natively they
//! use the host's libc through std (for tests and the differential runner).

use std::io;
use std::path::Path;

pub use sandglass_sys::meta::{ExtStat, Ids, F_OK, R_OK, W_OK, X_OK};

/// File type bits.
pub const S_IFMT: u32 = 0o170000;
/// Directory.
pub const S_IFDIR: u32 = 0o040000;
/// Regular file.
pub const S_IFREG: u32 = 0o100000;
/// Symbolic link.
pub const S_IFLNK: u32 = 0o120000;
/// Character device.
pub const S_IFCHR: u32 = 0o020000;
/// Block device.
pub const S_IFBLK: u32 = 0o060000;
/// FIFO.
pub const S_IFIFO: u32 = 0o010000;
/// Socket.
pub const S_IFSOCK: u32 = 0o140000;

/// `rwxr-xr-x`-style rendering of permission bits (with s/S/t/T), as
/// `ls -l`, `stat -c %A`, `find -ls` and `tar tv` show them.
pub fn perm_string(mode: u32) -> String {
    const BITS: [(u32, char); 9] = [
        (0o400, 'r'),
        (0o200, 'w'),
        (0o100, 'x'),
        (0o040, 'r'),
        (0o020, 'w'),
        (0o010, 'x'),
        (0o004, 'r'),
        (0o002, 'w'),
        (0o001, 'x'),
    ];
    // setuid, setgid and sticky show in the x slots of user, group, other.
    const SPECIAL: [(u32, char); 3] = [(0o4000, 's'), (0o2000, 's'), (0o1000, 't')];
    let mut s = String::with_capacity(9);
    for (i, &(bit, ch)) in BITS.iter().enumerate() {
        let set = mode & bit != 0;
        let c = match SPECIAL.get(i / 3) {
            Some(&(sb, sc)) if i % 3 == 2 && mode & sb != 0 => {
                if set {
                    sc
                } else {
                    sc.to_ascii_uppercase()
                }
            }
            _ if set => ch,
            _ => '-',
        };
        s.push(c);
    }
    s
}

/// The file-type letter `ls -l` shows (`-` for regular files and unknown types).
pub fn type_char(mode: u32) -> char {
    match mode & S_IFMT {
        S_IFDIR => 'd',
        S_IFLNK => 'l',
        S_IFCHR => 'c',
        S_IFBLK => 'b',
        S_IFIFO => 'p',
        S_IFSOCK => 's',
        _ => '-',
    }
}

#[cfg(target_arch = "wasm32")]
mod sys {
    use super::{ExtStat, Ids};
    use std::io;
    use std::path::{Path, PathBuf};

    use sandglass_sys::meta;

    fn check<T>(r: Result<T, sandglass_sys::Errno>) -> io::Result<T> {
        r.map_err(io::Error::from_raw_os_error)
    }

    fn wasi_errno(e: i32) -> io::Result<()> {
        check(if e == 0 { Ok(()) } else { Err(e) })
    }

    /// The kernel resolves relative paths against its own cwd; wasi-libc's
    /// emulated cwd is the one `adopt_pwd` set, so pass absolute paths.
    fn abs(path: &Path) -> io::Result<Vec<u8>> {
        use std::os::wasi::ffi::OsStrExt;
        let p: PathBuf = if path.is_absolute() {
            path.to_path_buf()
        } else {
            std::env::current_dir()?.join(path)
        };
        Ok(p.as_os_str().as_bytes().to_vec())
    }

    pub fn stat_ext(path: &Path, follow: bool) -> io::Result<ExtStat> {
        check(meta::stat(&abs(path)?, follow))
    }

    pub fn fstat_ext(fd: u32) -> io::Result<ExtStat> {
        check(meta::fstat(fd))
    }

    pub fn chmod(path: &Path, mode: u32, follow: bool) -> io::Result<()> {
        check(meta::chmod(&abs(path)?, mode, follow))
    }

    pub fn chown(path: &Path, uid: Option<u32>, gid: Option<u32>, follow: bool) -> io::Result<()> {
        check(meta::chown(&abs(path)?, uid, gid, follow))
    }

    pub fn access(path: &Path, amode: u32) -> io::Result<()> {
        check(meta::access(&abs(path)?, amode))
    }

    pub fn ids() -> io::Result<Ids> {
        check(meta::ids())
    }

    #[link(wasm_import_module = "wasi_snapshot_preview1")]
    extern "C" {
        fn path_filestat_set_times(
            fd: u32,
            flags: u32,
            path: *const u8,
            len: u32,
            atim: u64,
            mtim: u64,
            fst: u32,
        ) -> i32;
    }

    pub fn set_times(
        path: &Path,
        atime: Option<u64>,
        mtime: Option<u64>,
        follow: bool,
    ) -> io::Result<()> {
        let p = abs(path)?;
        // Relative to the preopened root (fd 3, named "/").
        let rel: &[u8] = if p.len() > 1 { &p[1..] } else { b"." };
        let mut fst = 0;
        if atime.is_some() {
            fst |= 1;
        }
        if mtime.is_some() {
            fst |= 4;
        }
        // SAFETY: pointer valid for len.
        wasi_errno(unsafe {
            path_filestat_set_times(
                3,
                follow as u32,
                rel.as_ptr(),
                rel.len() as u32,
                atime.unwrap_or(0),
                mtime.unwrap_or(0),
                fst,
            )
        })
    }

    #[link(wasm_import_module = "wasi_snapshot_preview1")]
    extern "C" {
        fn path_filestat_get(fd: u32, flags: u32, path: *const u8, len: u32, out: *mut u64) -> i32;
        fn fd_filestat_get(fd: u32, out: *mut u64) -> i32;
    }

    /// Device, inode and change time out of a WASI filestat record.
    fn raw_of(st: &[u64; 8]) -> super::RawStat {
        super::RawStat {
            dev: st[0],
            ino: st[1],
            ctime_ns: st[7],
        }
    }

    pub fn raw(path: &Path, follow: bool) -> io::Result<super::RawStat> {
        Ok(raw_of(&filestat(path, follow)?))
    }

    pub fn fd_raw(fd: u32) -> io::Result<super::RawStat> {
        let mut st = [0u64; 8];
        // SAFETY: st has room for a 64-byte filestat.
        wasi_errno(unsafe { fd_filestat_get(fd, st.as_mut_ptr()) })?;
        Ok(raw_of(&st))
    }

    /// The WASI filestat record of `path`, any bytes.
    pub fn filestat(path: &Path, follow: bool) -> io::Result<[u64; 8]> {
        let p = abs(path)?;
        let rel: &[u8] = if p.len() > 1 { &p[1..] } else { b"." };
        // filestat: dev, ino, filetype(+pad), nlink, size, atim, mtim, ctim.
        let mut st = [0u64; 8];
        // SAFETY: pointer valid for len; st has room for a 64-byte filestat.
        wasi_errno(unsafe {
            path_filestat_get(
                3,
                follow as u32,
                rel.as_ptr(),
                rel.len() as u32,
                st.as_mut_ptr(),
            )
        })?;
        Ok(st)
    }

    pub fn umask(new: Option<u32>) -> io::Result<u32> {
        check(meta::umask(new))
    }

    pub fn stat(path: &Path, follow: bool) -> io::Result<super::Stat> {
        let st = filestat(path, follow)?;
        // The glue answers this from the filestat just made (no round trip).
        let ext = stat_ext(path, follow)?;
        Ok(super::Stat {
            dev: st[0],
            ino: st[1],
            mode: ext.mode,
            nlink: ext.nlink,
            uid: ext.uid,
            gid: ext.gid,
            size: st[4],
            blocks: super::page_blocks(ext.mode, st[4]),
            atime_ns: st[5],
            mtime_ns: st[6],
            ctime_ns: st[7],
        })
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod sys {
    use super::{ExtStat, Ids};
    use std::ffi::CString;
    use std::io;
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    use std::path::Path;

    // std already links the C library natively; these are plain POSIX calls.
    extern "C" {
        #[link_name = "chown"]
        fn c_chown(path: *const i8, uid: u32, gid: u32) -> i32;
        #[link_name = "lchown"]
        fn c_lchown(path: *const i8, uid: u32, gid: u32) -> i32;
        #[link_name = "access"]
        fn c_access(path: *const i8, amode: i32) -> i32;
        #[link_name = "getuid"]
        fn c_getuid() -> u32;
        #[link_name = "getgid"]
        fn c_getgid() -> u32;
        #[link_name = "geteuid"]
        fn c_geteuid() -> u32;
        #[link_name = "getegid"]
        fn c_getegid() -> u32;
        #[link_name = "umask"]
        fn c_umask(mask: u32) -> u32;
        #[link_name = "utimensat"]
        fn c_utimensat(dirfd: i32, path: *const i8, times: *const [i64; 2], flags: i32) -> i32;
    }

    pub fn set_times(
        path: &Path,
        atime: Option<u64>,
        mtime: Option<u64>,
        follow: bool,
    ) -> io::Result<()> {
        const UTIME_OMIT: i64 = (1 << 30) - 2;
        let ts = |t: Option<u64>| match t {
            Some(ns) => [(ns / 1_000_000_000) as i64, (ns % 1_000_000_000) as i64],
            None => [0, UTIME_OMIT],
        };
        let times = [ts(atime), ts(mtime)];
        let c = cpath(path)?;
        let flags = if follow { 0 } else { 0x100 };
        // SAFETY: c is NUL-terminated; times has two timespecs (i64 pairs on 64-bit Linux).
        if unsafe { c_utimensat(-100, c.as_ptr(), times.as_ptr(), flags) } == 0 {
            Ok(())
        } else {
            Err(io::Error::last_os_error())
        }
    }

    fn cpath(path: &Path) -> io::Result<CString> {
        CString::new(path.as_os_str().as_bytes())
            .map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))
    }

    fn from_meta(m: &std::fs::Metadata) -> ExtStat {
        ExtStat {
            mode: m.mode(),
            uid: m.uid(),
            gid: m.gid(),
            nlink: m.nlink() as u32,
        }
    }

    pub fn stat_ext(path: &Path, follow: bool) -> io::Result<ExtStat> {
        let m = if follow {
            crate::fs::metadata(path)?
        } else {
            crate::fs::symlink_metadata(path)?
        };
        Ok(from_meta(&m))
    }

    pub fn fstat_ext(fd: u32) -> io::Result<ExtStat> {
        stat_ext(Path::new(&format!("/proc/self/fd/{}", fd)), true)
    }

    pub fn chmod(path: &Path, mode: u32, follow: bool) -> io::Result<()> {
        if !follow && crate::fs::symlink_metadata(path)?.file_type().is_symlink() {
            // Linux cannot change a symlink's own mode.
            return Err(io::Error::from_raw_os_error(95));
        }
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode & 0o7777))
    }

    pub fn chown(path: &Path, uid: Option<u32>, gid: Option<u32>, follow: bool) -> io::Result<()> {
        let c = cpath(path)?;
        let u = uid.unwrap_or(u32::MAX);
        let g = gid.unwrap_or(u32::MAX);
        // SAFETY: c is a valid NUL-terminated string.
        let r = unsafe {
            if follow {
                c_chown(c.as_ptr(), u, g)
            } else {
                c_lchown(c.as_ptr(), u, g)
            }
        };
        if r == 0 {
            Ok(())
        } else {
            Err(io::Error::last_os_error())
        }
    }

    pub fn raw(path: &Path, follow: bool) -> io::Result<super::RawStat> {
        let m = if follow {
            crate::fs::metadata(path)?
        } else {
            crate::fs::symlink_metadata(path)?
        };
        Ok(from_metadata(&m))
    }

    pub fn fd_raw(fd: u32) -> io::Result<super::RawStat> {
        use std::os::unix::io::FromRawFd;
        // Borrowed, never closed: the fd stays the caller's.
        let f = std::mem::ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(fd as i32) });
        Ok(from_metadata(&f.metadata()?))
    }

    pub fn stat(path: &Path, follow: bool) -> io::Result<super::Stat> {
        let m = if follow {
            crate::fs::metadata(path)?
        } else {
            crate::fs::symlink_metadata(path)?
        };
        Ok(super::Stat {
            dev: m.dev(),
            ino: m.ino(),
            mode: m.mode(),
            nlink: m.nlink() as u32,
            uid: m.uid(),
            gid: m.gid(),
            size: m.size(),
            blocks: m.blocks(),
            atime_ns: ns(m.atime(), m.atime_nsec()),
            mtime_ns: ns(m.mtime(), m.mtime_nsec()),
            ctime_ns: ns(m.ctime(), m.ctime_nsec()),
        })
    }

    /// Seconds and nanoseconds (as std gives them) as nanoseconds since the epoch.
    fn ns(s: i64, n: i64) -> u64 {
        (s.max(0) as u64) * 1_000_000_000 + n.max(0) as u64
    }

    fn from_metadata(m: &std::fs::Metadata) -> super::RawStat {
        super::RawStat {
            dev: m.dev(),
            ino: m.ino(),
            ctime_ns: ns(m.ctime(), m.ctime_nsec()),
        }
    }

    pub fn access(path: &Path, amode: u32) -> io::Result<()> {
        let c = cpath(path)?;
        // SAFETY: c is a valid NUL-terminated string.
        if unsafe { c_access(c.as_ptr(), amode as i32) } == 0 {
            Ok(())
        } else {
            Err(io::Error::last_os_error())
        }
    }

    pub fn ids() -> io::Result<Ids> {
        // SAFETY: these calls cannot fail.
        unsafe {
            Ok(Ids {
                uid: c_getuid(),
                gid: c_getgid(),
                euid: c_geteuid(),
                egid: c_getegid(),
            })
        }
    }

    pub fn umask(new: Option<u32>) -> io::Result<u32> {
        // SAFETY: umask cannot fail; querying sets and restores.
        unsafe {
            let old = c_umask(new.unwrap_or(0o022) & 0o777);
            if new.is_none() {
                c_umask(old);
            }
            Ok(old)
        }
    }
}

/// Mode, owner, group and link count of `path` (`follow`: through a final symlink).
pub fn stat_ext(path: &Path, follow: bool) -> io::Result<ExtStat> {
    sys::stat_ext(path, follow)
}

/// [`stat_ext`] for an open file descriptor.
pub fn fstat_ext(fd: u32) -> io::Result<ExtStat> {
    sys::fstat_ext(fd)
}

/// Set permission bits (and setuid/setgid/sticky) of `path`.
pub fn chmod(path: &Path, mode: u32, follow: bool) -> io::Result<()> {
    sys::chmod(path, mode, follow)
}

/// Change owner and/or group (`None` leaves it unchanged).
pub fn chown(path: &Path, uid: Option<u32>, gid: Option<u32>, follow: bool) -> io::Result<()> {
    sys::chown(path, uid, gid, follow)
}

/// Check access (`R_OK | W_OK | X_OK`, or `F_OK`) for the process.
pub fn access(path: &Path, amode: u32) -> io::Result<()> {
    sys::access(path, amode)
}

/// Set access and/or modification time (nanoseconds since the epoch;
/// `None` leaves that time unchanged).
pub fn set_times(
    path: &Path,
    atime: Option<u64>,
    mtime: Option<u64>,
    follow: bool,
) -> io::Result<()> {
    sys::set_times(path, atime, mtime, follow)
}

/// Identity and change time of a file (what std's portable metadata lacks).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct RawStat {
    /// Device id.
    pub dev: u64,
    /// Inode number.
    pub ino: u64,
    /// Status change time, nanoseconds since the epoch.
    pub ctime_ns: u64,
}

/// Everything `stat(2)` tells of a file that the utilities show.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Stat {
    /// Device id.
    pub dev: u64,
    /// Inode number.
    pub ino: u64,
    /// `S_IFMT` type bits plus permission, setuid, setgid and sticky bits.
    pub mode: u32,
    /// Hard links.
    pub nlink: u32,
    /// Owner.
    pub uid: u32,
    /// Group.
    pub gid: u32,
    /// Bytes.
    pub size: u64,
    /// 512-byte blocks (`st_blocks`; see [`blocks`]).
    pub blocks: u64,
    /// Access time, nanoseconds since the epoch.
    pub atime_ns: u64,
    /// Modification time, nanoseconds since the epoch.
    pub mtime_ns: u64,
    /// Status change time, nanoseconds since the epoch.
    pub ctime_ns: u64,
}

impl Stat {
    /// Whether it is a directory.
    pub fn is_dir(&self) -> bool {
        self.mode & S_IFMT == S_IFDIR
    }
    /// Whether it is a symbolic link.
    pub fn is_symlink(&self) -> bool {
        self.mode & S_IFMT == S_IFLNK
    }
    /// Mode, owner, group and link count.
    pub fn ext(&self) -> ExtStat {
        ExtStat {
            mode: self.mode,
            uid: self.uid,
            gid: self.gid,
            nlink: self.nlink,
        }
    }
    /// Device, inode and change time.
    pub fn raw(&self) -> RawStat {
        RawStat {
            dev: self.dev,
            ino: self.ino,
            ctime_ns: self.ctime_ns,
        }
    }
}

/// The whole [`Stat`] of `path` (`follow`: through a final symlink). In the
/// sandbox this is one kernel round trip: std's metadata plus [`stat_ext`]
/// plus [`raw_stat`] of the same path would be two.
pub fn stat(path: &Path, follow: bool) -> io::Result<Stat> {
    sys::stat(path, follow)
}

/// Device, inode and change time of `path`.
pub fn raw_stat(path: &Path, follow: bool) -> io::Result<RawStat> {
    sys::raw(path, follow)
}

/// The raw WASI filestat of `path` (dev, ino, filetype, nlink, size, atim,
/// mtim, ctim), for `fs` on names std refuses.
#[cfg(target_arch = "wasm32")]
pub(crate) fn raw_filestat(path: &Path, follow: bool) -> io::Result<[u64; 8]> {
    sys::filestat(path, follow)
}

/// Device, inode and change time of the file open on `fd` (`cat`'s
/// "input file is output file" check looks at standard output).
pub fn fd_raw_stat(fd: u32) -> io::Result<RawStat> {
    sys::fd_raw(fd)
}

/// Inode number of `path`.
pub fn inode(path: &Path, follow: bool) -> io::Result<u64> {
    sys::raw(path, follow).map(|r| r.ino)
}

/// Space a file occupies, in 512-byte units (`st_blocks`).
///
/// WASI's filestat has no block count; the VFS keeps file data in memory
/// the way tmpfs does, so count as tmpfs reports: whole 4 KiB pages for a
/// regular file's bytes, nothing for directories and symlinks.
#[cfg(not(target_arch = "wasm32"))]
pub fn blocks(m: &std::fs::Metadata) -> u64 {
    use std::os::unix::fs::MetadataExt;
    m.blocks()
}

/// Space a file occupies, in 512-byte units (see the native version).
#[cfg(target_arch = "wasm32")]
pub fn blocks(m: &std::fs::Metadata) -> u64 {
    page_blocks(if m.is_file() { S_IFREG } else { 0 }, m.len())
}

/// tmpfs's count of 512-byte blocks for `size` bytes of a file of `mode`.
#[cfg(target_arch = "wasm32")]
fn page_blocks(mode: u32, size: u64) -> u64 {
    if mode & S_IFMT == S_IFREG {
        (size + 4095) / 4096 * 8
    } else {
        0
    }
}

/// Whether `a` and `b` name the same existing file (same device and inode,
/// following symlinks), as GNU's "are the same file" checks need.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (sys::raw(a, true), sys::raw(b, true)) {
        (Ok(x), Ok(y)) => x.dev == y.dev && x.ino == y.ino,
        _ => false,
    }
}

/// The process's user and group ids.
pub fn ids() -> io::Result<Ids> {
    sys::ids()
}

/// Set the umask to `new` (or only query with `None`); returns the old mask.
pub fn umask(new: Option<u32>) -> io::Result<u32> {
    sys::umask(new)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mode_strings() {
        assert_eq!(perm_string(0o4755), "rwsr-xr-x");
        assert_eq!(perm_string(0o1777), "rwxrwxrwt");
        assert_eq!(perm_string(0o3644), "rw-r-Sr-T");
        assert_eq!(perm_string(0), "---------");
        assert_eq!(type_char(S_IFDIR | 0o755), 'd');
        assert_eq!(type_char(S_IFREG | 0o644), '-');
        assert_eq!(type_char(S_IFLNK), 'l');
    }

    #[test]
    fn stats_and_chmods_a_file() {
        let dir = std::env::temp_dir().join(format!("meta-test-{}", std::process::id()));
        let _ = crate::fs::create_dir_all(&dir);
        let f = dir.join("f");
        crate::fs::write(&f, b"x").unwrap();
        chmod(&f, 0o640, true).unwrap();
        let st = stat_ext(&f, true).unwrap();
        assert_eq!(st.mode & S_IFMT, S_IFREG);
        assert_eq!(st.mode & 0o7777, 0o640);
        assert_eq!(st.nlink, 1);
        assert!(access(&f, R_OK).is_ok());
        assert!(access(&dir.join("nope"), F_OK).is_err());
        let old = umask(None).unwrap();
        assert_eq!(umask(None).unwrap(), old);
        let _ = crate::fs::remove_dir_all(&dir);
    }
}
