//! `std::fs` for byte paths. Rust's std on WASI refuses any path that is not
//! UTF-8 ("input must be utf-8") before it reaches the host, so a file named
//! with byte 0xff could not be created, read, moved or removed. These
//! functions take the same arguments as their std namesakes; a UTF-8 path
//! (and every path off WASI, where std takes bytes) goes to std unchanged,
//! any other one through wasi-libc, which passes bytes through, or the raw
//! WASI call. The std types (`File`, `Metadata`, ...) are re-exported, so
//! `use coreutils_core::fs;` replaces `use std::fs;`.

use std::io;
use std::path::Path;

pub use std::fs::{
    canonicalize, copy, read_dir, set_permissions, DirEntry, File, FileType, Metadata, Permissions,
    ReadDir,
};

/// Whether std can take `p` as it is.
#[inline]
fn std_can(p: &Path) -> bool {
    cfg!(not(target_os = "wasi")) || p.to_str().is_some()
}

/// `File::open`.
pub fn open(p: impl AsRef<Path>) -> io::Result<File> {
    OpenOptions::new().read(true).open(p)
}

/// `File::create`.
pub fn create(p: impl AsRef<Path>) -> io::Result<File> {
    OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .open(p)
}

/// `std::fs::OpenOptions` for byte paths (the flags utilities use).
#[derive(Clone, Debug, Default)]
pub struct OpenOptions {
    read: bool,
    write: bool,
    append: bool,
    truncate: bool,
    create: bool,
    create_new: bool,
}

impl OpenOptions {
    /// No access and no creation, like std.
    pub fn new() -> Self {
        Self::default()
    }
    /// Open for reading.
    pub fn read(&mut self, v: bool) -> &mut Self {
        self.read = v;
        self
    }
    /// Open for writing.
    pub fn write(&mut self, v: bool) -> &mut Self {
        self.write = v;
        self
    }
    /// Writes go to the end.
    pub fn append(&mut self, v: bool) -> &mut Self {
        self.append = v;
        self
    }
    /// Empty the file on open.
    pub fn truncate(&mut self, v: bool) -> &mut Self {
        self.truncate = v;
        self
    }
    /// Create the file if missing.
    pub fn create(&mut self, v: bool) -> &mut Self {
        self.create = v;
        self
    }
    /// Create the file; fail if it exists.
    pub fn create_new(&mut self, v: bool) -> &mut Self {
        self.create_new = v;
        self
    }

    /// Open `p` with these options.
    pub fn open(&self, p: impl AsRef<Path>) -> io::Result<File> {
        let p = p.as_ref();
        if std_can(p) {
            let mut o = std::fs::OpenOptions::new();
            o.read(self.read)
                .write(self.write)
                .append(self.append)
                .truncate(self.truncate)
                .create(self.create);
            // Only when set: std on WASI clears O_CREAT on create_new(false).
            if self.create_new {
                o.create_new(true);
            }
            return o.open(p);
        }
        raw::open(p, self)
    }
}

/// `std::fs::metadata`.
pub fn metadata(p: impl AsRef<Path>) -> io::Result<Metadata> {
    let p = p.as_ref();
    if std_can(p) {
        return std::fs::metadata(p);
    }
    raw::metadata(p, true)
}

/// `Path::exists` (true for a name whose metadata reads, following links).
pub fn exists(p: impl AsRef<Path>) -> bool {
    metadata(p).is_ok()
}

/// `Path::is_dir`.
pub fn is_dir(p: impl AsRef<Path>) -> bool {
    metadata(p).map(|m| m.is_dir()).unwrap_or(false)
}

/// `Path::is_file`.
pub fn is_file(p: impl AsRef<Path>) -> bool {
    metadata(p).map(|m| m.is_file()).unwrap_or(false)
}

/// `std::fs::symlink_metadata`.
pub fn symlink_metadata(p: impl AsRef<Path>) -> io::Result<Metadata> {
    let p = p.as_ref();
    if std_can(p) {
        return std::fs::symlink_metadata(p);
    }
    raw::metadata(p, false)
}

/// `std::fs::remove_file`.
pub fn remove_file(p: impl AsRef<Path>) -> io::Result<()> {
    let p = p.as_ref();
    if std_can(p) {
        return std::fs::remove_file(p);
    }
    raw::unlink(p)
}

/// `std::fs::remove_dir`.
pub fn remove_dir(p: impl AsRef<Path>) -> io::Result<()> {
    let p = p.as_ref();
    if std_can(p) {
        return std::fs::remove_dir(p);
    }
    raw::rmdir(p)
}

/// `std::fs::create_dir` (mode 0777 less the umask).
pub fn create_dir(p: impl AsRef<Path>) -> io::Result<()> {
    let p = p.as_ref();
    if std_can(p) {
        return std::fs::create_dir(p);
    }
    raw::mkdir(p)
}

/// `std::fs::create_dir_all`.
pub fn create_dir_all(p: impl AsRef<Path>) -> io::Result<()> {
    let p = p.as_ref();
    if std_can(p) {
        return std::fs::create_dir_all(p);
    }
    if metadata(p).map(|m| m.is_dir()).unwrap_or(false) {
        return Ok(());
    }
    if let Some(parent) = p.parent() {
        if !parent.as_os_str().is_empty() {
            create_dir_all(parent)?;
        }
    }
    match create_dir(p) {
        Err(_) if metadata(p).map(|m| m.is_dir()).unwrap_or(false) => Ok(()),
        r => r,
    }
}

/// `std::fs::remove_dir_all`: the tree under `p`, entries with any names.
pub fn remove_dir_all(p: impl AsRef<Path>) -> io::Result<()> {
    let p = p.as_ref();
    if std_can(p) && cfg!(not(target_os = "wasi")) {
        return std::fs::remove_dir_all(p);
    }
    for e in read_dir(p)? {
        let e = e?;
        let child = e.path();
        if e.file_type()?.is_dir() {
            remove_dir_all(&child)?;
        } else {
            remove_file(&child)?;
        }
    }
    remove_dir(p)
}

/// `std::fs::rename`.
pub fn rename(from: impl AsRef<Path>, to: impl AsRef<Path>) -> io::Result<()> {
    let (from, to) = (from.as_ref(), to.as_ref());
    if std_can(from) && std_can(to) {
        return std::fs::rename(from, to);
    }
    raw::rename(from, to)
}

/// `std::fs::hard_link`.
pub fn hard_link(from: impl AsRef<Path>, to: impl AsRef<Path>) -> io::Result<()> {
    let (from, to) = (from.as_ref(), to.as_ref());
    if std_can(from) && std_can(to) {
        return std::fs::hard_link(from, to);
    }
    raw::link(from, to)
}

/// A symbolic link at `link` whose contents are `target`.
#[allow(deprecated)] // soft_link is the one spelling on both Unix and WASI.
pub fn symlink(target: impl AsRef<Path>, link: impl AsRef<Path>) -> io::Result<()> {
    let (target, link) = (target.as_ref(), link.as_ref());
    if std_can(target) && std_can(link) {
        return std::fs::soft_link(target, link);
    }
    raw::symlink(target, link)
}

/// `std::fs::read_link`.
pub fn read_link(p: impl AsRef<Path>) -> io::Result<std::path::PathBuf> {
    let p = p.as_ref();
    if std_can(p) {
        return std::fs::read_link(p);
    }
    raw::readlink(p)
}

/// `std::fs::read`.
pub fn read(p: impl AsRef<Path>) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let p = p.as_ref();
    if std_can(p) {
        return std::fs::read(p);
    }
    let mut v = Vec::new();
    open(p)?.read_to_end(&mut v)?;
    Ok(v)
}

/// `std::fs::read_to_string`.
pub fn read_to_string(p: impl AsRef<Path>) -> io::Result<String> {
    String::from_utf8(read(p)?).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

/// `std::fs::write`.
pub fn write(p: impl AsRef<Path>, data: impl AsRef<[u8]>) -> io::Result<()> {
    use std::io::Write;
    create(p)?.write_all(data.as_ref())
}

#[cfg(target_os = "wasi")]
mod raw {
    use super::{File, Metadata, OpenOptions};
    use std::ffi::CString;
    use std::io;
    use std::os::wasi::ffi::{OsStrExt, OsStringExt};
    use std::os::wasi::io::FromRawFd;
    use std::path::{Path, PathBuf};

    fn c(p: &Path) -> io::Result<CString> {
        CString::new(p.as_os_str().as_bytes())
            .map_err(|_| io::Error::from_raw_os_error(libc::EINVAL))
    }

    fn check(r: libc::c_int) -> io::Result<()> {
        if r < 0 {
            Err(io::Error::last_os_error())
        } else {
            Ok(())
        }
    }

    pub fn open(p: &Path, o: &OpenOptions) -> io::Result<File> {
        let mut flags = match (o.read, o.write || o.append) {
            (true, true) => libc::O_RDWR,
            (false, true) => libc::O_WRONLY,
            _ => libc::O_RDONLY,
        };
        if o.append {
            flags |= libc::O_APPEND;
        }
        if o.truncate {
            flags |= libc::O_TRUNC;
        }
        if o.create_new {
            flags |= libc::O_CREAT | libc::O_EXCL;
        } else if o.create {
            flags |= libc::O_CREAT;
        }
        let path = c(p)?;
        // SAFETY: path is NUL-terminated; the mode is the variadic argument.
        let fd = unsafe { libc::open(path.as_ptr(), flags, 0o666 as libc::c_uint) };
        check(fd)?;
        // SAFETY: fd was just opened and is owned by nobody else.
        Ok(unsafe { File::from_raw_fd(fd) })
    }

    pub fn unlink(p: &Path) -> io::Result<()> {
        let path = c(p)?;
        // SAFETY: NUL-terminated path.
        check(unsafe { libc::unlink(path.as_ptr()) })
    }

    pub fn rmdir(p: &Path) -> io::Result<()> {
        let path = c(p)?;
        // SAFETY: NUL-terminated path.
        check(unsafe { libc::rmdir(path.as_ptr()) })
    }

    pub fn mkdir(p: &Path) -> io::Result<()> {
        let path = c(p)?;
        // SAFETY: NUL-terminated path.
        check(unsafe { libc::mkdir(path.as_ptr(), 0o777) })
    }

    pub fn rename(a: &Path, b: &Path) -> io::Result<()> {
        let (a, b) = (c(a)?, c(b)?);
        // SAFETY: NUL-terminated paths.
        check(unsafe { libc::rename(a.as_ptr(), b.as_ptr()) })
    }

    pub fn link(a: &Path, b: &Path) -> io::Result<()> {
        let (a, b) = (c(a)?, c(b)?);
        // SAFETY: NUL-terminated paths.
        check(unsafe { libc::link(a.as_ptr(), b.as_ptr()) })
    }

    pub fn symlink(target: &Path, link: &Path) -> io::Result<()> {
        let (a, b) = (c(target)?, c(link)?);
        // SAFETY: NUL-terminated paths.
        check(unsafe { libc::symlink(a.as_ptr(), b.as_ptr()) })
    }

    pub fn readlink(p: &Path) -> io::Result<PathBuf> {
        let path = c(p)?;
        let mut buf = vec![0u8; 4096];
        // SAFETY: buf is valid for its length.
        let n = unsafe { libc::readlink(path.as_ptr(), buf.as_mut_ptr().cast(), buf.len()) };
        if n < 0 {
            return Err(io::Error::last_os_error());
        }
        buf.truncate(n as usize);
        Ok(PathBuf::from(std::ffi::OsString::from_vec(buf)))
    }

    /// std's `Metadata` on WASI is the WASI `filestat` (dev, ino, filetype,
    /// nlink, size, atim, mtim, ctim: 64 bytes) and nothing else, but it has
    /// no constructor: the raw call's record becomes one only after a check,
    /// once per process, that such a record of "." reads back as std's own.
    pub fn metadata(p: &Path, follow: bool) -> io::Result<Metadata> {
        if !layout_matches() {
            return Err(io::Error::new(
                io::ErrorKind::Unsupported,
                "input must be utf-8",
            ));
        }
        Ok(as_metadata(crate::meta::raw_filestat(p, follow)?))
    }

    fn as_metadata(st: [u64; 8]) -> Metadata {
        // SAFETY: same size (asserted below) and checked by layout_matches.
        unsafe { std::mem::transmute::<[u64; 8], Metadata>(st) }
    }

    const _: () = assert!(std::mem::size_of::<Metadata>() == 64);

    fn layout_matches() -> bool {
        use std::sync::atomic::{AtomicU8, Ordering};
        static STATE: AtomicU8 = AtomicU8::new(0);
        match STATE.load(Ordering::Relaxed) {
            1 => return true,
            2 => return false,
            _ => {}
        }
        // (std's MetadataExt for WASI is unstable in our rustc: compare
        // what stable accessors read.)
        let here = Path::new(".");
        let ok = match (
            std::fs::metadata(here),
            crate::meta::raw_filestat(here, true),
        ) {
            (Ok(a), Ok(raw)) => {
                let b = as_metadata(raw);
                a.is_dir()
                    && b.is_dir()
                    && a.len() == b.len()
                    && a.modified().ok() == b.modified().ok()
                    && a.accessed().ok() == b.accessed().ok()
            }
            _ => false,
        };
        STATE.store(if ok { 1 } else { 2 }, Ordering::Relaxed);
        ok
    }
}

#[cfg(not(target_os = "wasi"))]
mod raw {
    //! Unreachable off WASI (std takes every path there); kept so the
    //! callers above compile the same everywhere.
    use super::{File, Metadata, OpenOptions};
    use std::io;
    use std::path::{Path, PathBuf};

    fn unsupported<T>() -> io::Result<T> {
        Err(io::Error::from(io::ErrorKind::Unsupported))
    }
    pub fn open(_: &Path, _: &OpenOptions) -> io::Result<File> {
        unsupported()
    }
    pub fn unlink(_: &Path) -> io::Result<()> {
        unsupported()
    }
    pub fn rmdir(_: &Path) -> io::Result<()> {
        unsupported()
    }
    pub fn mkdir(_: &Path) -> io::Result<()> {
        unsupported()
    }
    pub fn rename(_: &Path, _: &Path) -> io::Result<()> {
        unsupported()
    }
    pub fn link(_: &Path, _: &Path) -> io::Result<()> {
        unsupported()
    }
    pub fn symlink(_: &Path, _: &Path) -> io::Result<()> {
        unsupported()
    }
    pub fn readlink(_: &Path) -> io::Result<PathBuf> {
        unsupported()
    }
    pub fn metadata(_: &Path, _: bool) -> io::Result<Metadata> {
        unsupported()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_names_round_trip() {
        let dir = std::env::temp_dir().join(format!("cc-fs-{}", std::process::id()));
        create_dir_all(&dir).unwrap();
        let name = dir.join(crate::bytes::os_str(b"a\xffb"));
        write(&name, b"hi").unwrap();
        assert_eq!(read(&name).unwrap(), b"hi");
        assert_eq!(metadata(&name).unwrap().len(), 2);
        let moved = dir.join(crate::bytes::os_str(b"\xfe"));
        rename(&name, &moved).unwrap();
        assert!(symlink_metadata(&name).is_err());
        remove_file(&moved).unwrap();
        remove_dir_all(&dir).unwrap();
        assert!(metadata(&dir).is_err());
    }
}
