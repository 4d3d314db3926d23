//! The host interface: process, fd, signal, tty and session operations the shell
//! needs beyond WASI. `wasm.rs` implements it over the `sandglass` imports
//! (docs/abi.md); `native.rs` over libc for development and `cargo test`.
//! Plain file I/O goes through std on both.

#[cfg(all(test, not(target_arch = "wasm32")))]
pub mod mock;
#[cfg(not(target_arch = "wasm32"))]
mod native;
#[cfg(target_arch = "wasm32")]
mod wasm;

pub type Errno = i32;

pub const EINTR: Errno = 27;
pub const ENOENT: Errno = 44;
pub const EISDIR: Errno = 31;
pub const ELOOP: Errno = 32;
pub const EACCES: Errno = 2;
pub const ENOEXEC: Errno = 45;
pub const ENOSYS: Errno = 52;
pub const ENOTSUP: Errno = 58;
#[cfg(not(target_arch = "wasm32"))]
pub const ECHILD: Errno = 12;

/// A child process to start.
pub struct SpawnReq<'a> {
    pub path: &'a [u8],
    pub argv: &'a [Vec<u8>],
    pub env: &'a [Vec<u8>],
    /// (child fd, parent fd)
    pub fds: &'a [(u32, u32)],
    pub pgid: i32,
    pub foreground: bool,
    /// What the child does with SIGINT and SIGQUIT (a background job of a
    /// shell without job control ignores them).
    pub intquit: IntQuit,
}

/// SIGINT and SIGQUIT in a new process.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum IntQuit {
    /// As the parent has them (ignored ones stay ignored).
    #[default]
    Inherit,
    /// Ignored from the start (no window where a signal could land first).
    Ignore,
    /// At their default action.
    Default,
}

pub trait Sys {
    fn spawn(&mut self, req: &SpawnReq) -> Result<i32, Errno>;
    /// Replace this program with `req`'s (same pid; the request's `pgid` and
    /// `foreground` are ignored). Returns only on failure.
    fn exec(&mut self, _req: &SpawnReq) -> Errno {
        ENOSYS
    }
    /// Returns (pid, raw wait status); pid 0 with `nohang` when none is ready.
    fn wait(&mut self, pid: i32, nohang: bool) -> Result<(i32, i32), Errno>;
    /// Blocking wait that also returns when the child stops (WUNTRACED).
    fn wait_untraced(&mut self, pid: i32) -> Result<(i32, i32), Errno> {
        self.wait(pid, false)
    }
    fn kill(&mut self, pid: i32, sig: u32) -> Result<(), Errno>;
    fn pipe(&mut self) -> Result<(i32, i32), Errno>;
    fn dup(&mut self, fd: i32, min: i32) -> Result<i32, Errno>;
    fn dup2(&mut self, old: i32, new: i32) -> Result<(), Errno>;
    fn close(&mut self, fd: i32);
    fn chdir(&mut self, path: &[u8]) -> Result<(), Errno>;
    fn sigaction(&mut self, sig: u32, disp: u32) -> Result<(), Errno>;
    /// Caught signals pending since the last call (bit n = signal n).
    fn sigpending(&mut self) -> u64;
    fn isatty(&mut self, fd: i32) -> bool;
    fn tty_get(&mut self, fd: i32) -> Result<u32, Errno>;
    fn tty_set(&mut self, fd: i32, mode: u32) -> Result<(), Errno>;
    fn winsize(&mut self, fd: i32) -> Option<(u16, u16)>;
    fn tcsetpgrp(&mut self, fd: i32, pgid: i32) -> Result<(), Errno>;
    fn setpgid(&mut self, pid: i32, pgid: i32) -> Result<(), Errno>;
    fn session_next(&mut self) -> Result<Vec<u8>, Errno>;
    fn session_done(&mut self, status: i32) -> Result<(), Errno>;
    /// A command line starts (docs/abi.md `step_begin`). Hosts without a
    /// kernel (native, mock) have no steps.
    fn step_begin(&mut self, _text: &[u8]) -> Result<(), Errno> {
        Err(ENOSYS)
    }
    /// The command line ended (or, with none open, a state report); returns
    /// whether a control request waits for `ctl_take`.
    fn step_end(&mut self, _status: i32, _state: &[u8]) -> Result<bool, Errno> {
        Err(ENOSYS)
    }
    /// The kernel's pending control request (a state blob), empty if none.
    fn ctl_take(&mut self) -> Result<Vec<u8>, Errno> {
        Err(ENOSYS)
    }
    /// (pid, ppid)
    fn getpid(&mut self) -> (i32, i32);
    /// (uid, gid, euid, egid)
    fn ids(&mut self) -> (u32, u32, u32, u32) {
        (0, 0, 0, 0)
    }
    fn umask(&mut self, new: i32) -> i32;
    fn read(&mut self, fd: i32, buf: &mut [u8]) -> Result<usize, Errno>;
    fn write(&mut self, fd: i32, buf: &[u8]) -> Result<usize, Errno>;
    /// flags: bit0 read, bit1 write, bit2 create, bit3 truncate, bit4 append, bit5 exclusive
    fn open(&mut self, path: &[u8], flags: u32) -> Result<i32, Errno>;
    /// Whether a path is executable (for PATH search and 126).
    fn executable(&mut self, path: &[u8]) -> bool;
    /// Whether fd is a regular file, so `read` may take a block and seek back
    /// over what it did not use (one read per line instead of one per byte).
    fn seekable(&mut self, fd: i32) -> bool {
        let f = std::mem::ManuallyDrop::new(unsafe { raw_file(fd) });
        f.metadata().map(|m| m.is_file()).unwrap_or(false)
    }
    /// A read for the `read` builtin on a seekable fd: the host may serve it
    /// from a block it read ahead; what the caller does not use it must hand
    /// back with `unread`.
    fn read_ahead(&mut self, fd: i32, buf: &mut [u8]) -> Result<usize, Errno> {
        self.read(fd, buf)
    }
    /// Wait up to `ms` milliseconds for input (or end of file) on `fd`;
    /// false when the time passed first (`read -t`).
    fn poll_read(&mut self, fd: i32, ms: i32) -> Result<bool, Errno> {
        let mut p = libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one pollfd, valid for the call.
        let r = unsafe { libc::poll(&mut p, 1, ms) };
        if r < 0 {
            return Err(io_errno(&std::io::Error::last_os_error()));
        }
        Ok(r > 0)
    }
    /// Give back the last n bytes `read_ahead` returned on fd.
    fn unread(&mut self, fd: i32, n: usize) -> Result<(), Errno> {
        self.seek_by(fd, -(n as i64))
    }
    /// Put the offset of a read-ahead fd where the shell's reads ended (before
    /// exit, or anything another process could observe it through).
    fn sync(&mut self) {}
    /// Move fd's offset by delta bytes from where it is.
    fn seek_by(&mut self, fd: i32, delta: i64) -> Result<(), Errno> {
        use std::io::{Seek, SeekFrom};
        let mut f = std::mem::ManuallyDrop::new(unsafe { raw_file(fd) });
        f.seek(SeekFrom::Current(delta))
            .map(|_| ())
            .map_err(|e| io_errno(&e))
    }
}

/// A std file over an fd the caller keeps owning (wrap it in ManuallyDrop).
unsafe fn raw_file(fd: i32) -> std::fs::File {
    #[cfg(not(target_arch = "wasm32"))]
    use std::os::unix::io::FromRawFd;
    #[cfg(target_arch = "wasm32")]
    use std::os::wasi::io::FromRawFd;
    std::fs::File::from_raw_fd(fd)
}

pub const O_READ: u32 = 1;
pub const O_WRITE: u32 = 2;
pub const O_CREATE: u32 = 4;
pub const O_TRUNC: u32 = 8;
pub const O_APPEND: u32 = 16;
pub const O_EXCL: u32 = 32;

pub fn host() -> Box<dyn Sys> {
    #[cfg(target_arch = "wasm32")]
    {
        Box::new(wasm::WasmSys::default())
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        Box::new(native::NativeSys)
    }
}

/// Message for an errno, as bash prints it (glibc's strerror text).
pub fn strerror(e: Errno) -> &'static str {
    sandglass_sys::errno::strerror(e)
}

/// Map a std I/O error to a WASI errno.
pub fn io_errno(e: &std::io::Error) -> Errno {
    use std::io::ErrorKind::*;
    match e.kind() {
        NotFound => ENOENT,
        PermissionDenied => EACCES,
        AlreadyExists => 20,
        Interrupted => EINTR,
        _ => match e.raw_os_error() {
            #[cfg(not(target_arch = "wasm32"))]
            Some(21) => 31,
            #[cfg(not(target_arch = "wasm32"))]
            Some(20) => 54,
            #[cfg(not(target_arch = "wasm32"))]
            Some(9) => 8,
            #[cfg(target_arch = "wasm32")]
            Some(n) => n,
            _ => 29,
        },
    }
}
