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
            dev: st.st_dev,
            ino: st.st_ino,
        })
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
            dev: m.dev(),
            ino: m.ino(),
        })
    }
}
