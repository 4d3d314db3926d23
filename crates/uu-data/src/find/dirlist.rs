//! Directory listing for the walk. On WASI, std's `read_dir` fetches
//! entries through a 128-byte buffer, so a directory of 20 files costs
//! about ten kernel round trips; this reads it with one large buffer.
//! Elsewhere std is used as is.

use super::Kind;
use std::ffi::OsString;
use std::io;
use std::path::Path;

/// Names and (when the entry says) types of a directory's entries,
/// without `.` and `..`, in the order the file system gives them.
pub(crate) fn list(path: &Path) -> io::Result<Vec<(OsString, Option<Kind>)>> {
    #[cfg(target_os = "wasi")]
    {
        wasi::list(path)
    }
    #[cfg(not(target_os = "wasi"))]
    {
        let mut out = Vec::new();
        for de in std::fs::read_dir(path)? {
            let de = de?;
            let kind = de.file_type().ok().map(|t| Kind(super::type_char(t)));
            out.push((de.file_name(), kind));
        }
        Ok(out)
    }
}

#[cfg(target_os = "wasi")]
mod wasi {
    use super::Kind;
    use std::ffi::OsString;
    use std::io;
    use std::os::wasi::ffi::OsStringExt;
    use std::path::Path;

    #[link(wasm_import_module = "wasi_snapshot_preview1")]
    extern "C" {
        fn path_open(
            fd: u32,
            dirflags: u32,
            path: *const u8,
            path_len: u32,
            oflags: u32,
            rights_base: u64,
            rights_inheriting: u64,
            fdflags: u32,
            out_fd: *mut u32,
        ) -> i32;
        fn fd_readdir(fd: u32, buf: *mut u8, buf_len: u32, cookie: u64, used: *mut u32) -> i32;
        fn fd_close(fd: u32) -> i32;
    }

    const O_DIRECTORY: u32 = 2;
    const LOOKUP_SYMLINK_FOLLOW: u32 = 1;
    /// Every right WASI preview 1 defines.
    const ALL_RIGHTS: u64 = (1 << 29) - 1;
    const HEADER: usize = 24;

    fn err(errno: i32) -> io::Error {
        io::Error::from_raw_os_error(errno)
    }

    /// Closes the descriptor when the listing is done or fails.
    struct Fd(u32);
    impl Drop for Fd {
        fn drop(&mut self) {
            // SAFETY: plain WASI call on a descriptor we own.
            unsafe {
                fd_close(self.0);
            }
        }
    }

    fn kind_of(d_type: u8) -> Option<Kind> {
        match d_type {
            1 => Some(Kind(b'b')),
            2 => Some(Kind(b'c')),
            3 => Some(Kind(b'd')),
            4 => Some(Kind(b'f')),
            5 | 6 => Some(Kind(b's')),
            7 => Some(Kind(b'l')),
            _ => None,
        }
    }

    pub(super) fn list(path: &Path) -> io::Result<Vec<(OsString, Option<Kind>)>> {
        // Paths are resolved from the preopened root (fd 3, named "/").
        let abs = if path.is_absolute() {
            path.to_path_buf()
        } else {
            std::env::current_dir()?.join(path)
        };
        let bytes = abs.into_os_string().into_vec();
        let rel: &[u8] = match bytes.iter().position(|&c| c != b'/') {
            Some(i) => &bytes[i..],
            None => b".",
        };
        let mut fd = 0u32;
        // SAFETY: pointers are valid for the lengths given.
        let r = unsafe {
            path_open(
                3,
                LOOKUP_SYMLINK_FOLLOW,
                rel.as_ptr(),
                rel.len() as u32,
                O_DIRECTORY,
                ALL_RIGHTS,
                ALL_RIGHTS,
                0,
                &mut fd,
            )
        };
        if r != 0 {
            return Err(err(r));
        }
        let fd = Fd(fd);
        let mut out = Vec::new();
        let mut buf = vec![0u8; 64 * 1024];
        let mut cookie = 0u64;
        loop {
            let mut used = 0u32;
            // SAFETY: the buffer is valid for its length.
            let r =
                unsafe { fd_readdir(fd.0, buf.as_mut_ptr(), buf.len() as u32, cookie, &mut used) };
            if r != 0 {
                return Err(err(r));
            }
            let used = (used as usize).min(buf.len());
            let mut at = 0;
            let mut parsed = 0;
            while at + HEADER <= used {
                let h = &buf[at..at + HEADER];
                let mut next = [0u8; 8];
                next.copy_from_slice(&h[0..8]);
                let mut nl = [0u8; 4];
                nl.copy_from_slice(&h[16..20]);
                let namlen = u32::from_le_bytes(nl) as usize;
                if at + HEADER + namlen > used {
                    break; // cut off: read again from this entry's cookie
                }
                let name = &buf[at + HEADER..at + HEADER + namlen];
                if name != b"." && name != b".." {
                    out.push((OsString::from_vec(name.to_vec()), kind_of(h[20])));
                }
                cookie = u64::from_le_bytes(next);
                at += HEADER + namlen;
                parsed += 1;
            }
            if used < buf.len() {
                return Ok(out);
            }
            if parsed == 0 {
                // One entry larger than the buffer: grow and retry.
                let n = buf.len() * 2;
                buf.resize(n, 0);
            }
        }
    }
}
