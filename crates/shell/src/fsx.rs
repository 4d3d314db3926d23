//! File metadata by byte path. Paths are bytes in bash; Rust's std on WASI
//! refuses paths that are not UTF-8, so there this goes through wasi-libc's
//! `stat`/`lstat`, which take any bytes (natively std handles bytes already).

/// What kind of file a path names.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    File,
    Dir,
    Symlink,
    Fifo,
    Socket,
    Block,
    Char,
    Other,
}

/// The metadata the shell's tests use.
#[derive(Clone, Copy, Debug)]
pub struct Meta {
    pub kind: Kind,
    pub size: u64,
    /// Modification time in nanoseconds since the epoch.
    pub mtime_ns: i128,
    /// Access time in nanoseconds since the epoch.
    pub atime_ns: i128,
    pub dev: u64,
    pub ino: u64,
}

impl Meta {
    pub fn is_dir(&self) -> bool {
        self.kind == Kind::Dir
    }
    pub fn is_file(&self) -> bool {
        self.kind == Kind::File
    }
}

/// Metadata of the file a path names, following symlinks.
pub fn stat(path: &[u8]) -> Option<Meta> {
    imp::stat(path, true)
}

/// Metadata of a path itself (a symlink is not followed).
pub fn lstat(path: &[u8]) -> Option<Meta> {
    imp::stat(path, false)
}

/// Permission bits (with setuid, setgid, sticky), owner and group of the
/// file a path names; the shell's `-u`/`-g`/`-k`/`-O`/`-G` tests.
#[derive(Clone, Copy, Debug)]
pub struct Owner {
    pub mode: u32,
    pub uid: u32,
    pub gid: u32,
}

/// Mode bits and owner of the file a path names, following symlinks.
pub fn owner(path: &[u8]) -> Option<Owner> {
    imp::owner(path)
}

/// `access(2)` for the caller's ids: `amode` is 4 read, 2 write, 1 execute.
pub fn access(path: &[u8], amode: u32) -> bool {
    imp::access(path, amode)
}

/// The caller's effective user and group ids.
pub fn effective_ids() -> (u32, u32) {
    imp::effective_ids()
}

#[cfg(target_arch = "wasm32")]
mod imp {
    use super::{Kind, Meta};

    pub fn stat(path: &[u8], follow: bool) -> Option<Meta> {
        // A NUL cannot be part of a path: nothing is named by it.
        let c = std::ffi::CString::new(path).ok()?;
        let mut st = std::mem::MaybeUninit::<libc::stat>::zeroed();
        let r = unsafe {
            if follow {
                libc::stat(c.as_ptr(), st.as_mut_ptr())
            } else {
                libc::lstat(c.as_ptr(), st.as_mut_ptr())
            }
        };
        if r != 0 {
            return None;
        }
        let st = unsafe { st.assume_init() };
        let kind = match st.st_mode & libc::S_IFMT {
            libc::S_IFREG => Kind::File,
            libc::S_IFDIR => Kind::Dir,
            libc::S_IFLNK => Kind::Symlink,
            // wasi-libc gives FIFOs and sockets one mode (S_IFIFO == S_IFSOCK).
            libc::S_IFIFO => Kind::Fifo,
            libc::S_IFBLK => Kind::Block,
            libc::S_IFCHR => Kind::Char,
            _ => Kind::Other,
        };
        Some(Meta {
            kind,
            size: st.st_size as u64,
            mtime_ns: st.st_mtim.tv_sec as i128 * 1_000_000_000 + st.st_mtim.tv_nsec as i128,
            atime_ns: st.st_atim.tv_sec as i128 * 1_000_000_000 + st.st_atim.tv_nsec as i128,
            dev: st.st_dev,
            ino: st.st_ino,
        })
    }

    pub fn owner(path: &[u8]) -> Option<super::Owner> {
        let st = sandglass_sys::meta::stat(path, true).ok()?;
        Some(super::Owner {
            mode: st.mode & 0o7777,
            uid: st.uid,
            gid: st.gid,
        })
    }

    pub fn access(path: &[u8], amode: u32) -> bool {
        sandglass_sys::meta::access(path, amode).is_ok()
    }

    pub fn effective_ids() -> (u32, u32) {
        sandglass_sys::meta::ids().map_or((0, 0), |i| (i.euid, i.egid))
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod imp {
    use super::{Kind, Meta};
    use std::os::unix::fs::{FileTypeExt, MetadataExt};

    pub fn stat(path: &[u8], follow: bool) -> Option<Meta> {
        let p = crate::bytes::path(path);
        let m = if follow {
            std::fs::metadata(p)
        } else {
            std::fs::symlink_metadata(p)
        }
        .ok()?;
        let t = m.file_type();
        let kind = if t.is_file() {
            Kind::File
        } else if t.is_dir() {
            Kind::Dir
        } else if t.is_symlink() {
            Kind::Symlink
        } else if t.is_fifo() {
            Kind::Fifo
        } else if t.is_socket() {
            Kind::Socket
        } else if t.is_block_device() {
            Kind::Block
        } else if t.is_char_device() {
            Kind::Char
        } else {
            Kind::Other
        };
        Some(Meta {
            kind,
            size: m.len(),
            mtime_ns: m.mtime() as i128 * 1_000_000_000 + m.mtime_nsec() as i128,
            atime_ns: m.atime() as i128 * 1_000_000_000 + m.atime_nsec() as i128,
            dev: m.dev(),
            ino: m.ino(),
        })
    }

    pub fn owner(path: &[u8]) -> Option<super::Owner> {
        let m = std::fs::metadata(crate::bytes::path(path)).ok()?;
        Some(super::Owner {
            mode: m.mode() & 0o7777,
            uid: m.uid(),
            gid: m.gid(),
        })
    }

    pub fn access(path: &[u8], amode: u32) -> bool {
        let c = match std::ffi::CString::new(path) {
            Ok(c) => c,
            Err(_) => return false,
        };
        // SAFETY: c is a valid NUL-terminated string.
        unsafe { libc::access(c.as_ptr(), amode as i32) == 0 }
    }

    pub fn effective_ids() -> (u32, u32) {
        // SAFETY: these calls cannot fail.
        unsafe { (libc::geteuid(), libc::getegid()) }
    }
}

/// Up to `n` bytes from the start of the file a path names.
pub fn read_head(path: &[u8], n: u64) -> Option<Vec<u8>> {
    use std::io::Read;
    let mut out = Vec::new();
    std::fs::File::open(crate::bytes::path(path))
        .ok()?
        .take(n)
        .read_to_end(&mut out)
        .ok()?;
    Some(out)
}
