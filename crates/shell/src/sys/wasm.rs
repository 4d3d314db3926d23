//! `Sys` over the `sandglass` ABI (docs/abi.md), bound by the `sandglass-sys` crate.

use sandglass_sys::{fd, format, meta, process, session, tty};

use super::{io_errno, Errno, SpawnReq, Sys, O_APPEND, O_CREATE, O_EXCL, O_READ, O_TRUNC, O_WRITE};
use std::io::{Read, Seek, SeekFrom, Write};
use std::mem::ManuallyDrop;
use std::os::wasi::io::FromRawFd;

/// The host over the `sandglass` imports. For the `read` builtin on regular
/// files it remembers which fds are seekable (asked once per fd, forgotten
/// when this process reassigns the fd) and reads ahead by blocks, putting the
/// file offset back where the shell's reads ended before anything could see
/// it (a spawn, an fd change, another read or write of that fd, exit): a
/// `while read` loop costs one kernel call per block, not three per line.
#[derive(Default)]
pub struct WasmSys {
    /// fd -> is a regular file, for fds this process has not reassigned since asking.
    seekable: std::collections::HashMap<i32, bool>,
    ahead: Option<Ahead>,
}

/// Bytes read from `fd` beyond what the shell has consumed (from `pos`).
struct Ahead {
    fd: i32,
    buf: Vec<u8>,
    pos: usize,
}

/// Read-ahead block size.
const AHEAD: usize = 8192;

impl WasmSys {
    fn raw_seek(fd: i32, delta: i64) -> Result<(), Errno> {
        let mut f = ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(fd) });
        f.seek(SeekFrom::Current(delta))
            .map(|_| ())
            .map_err(|e| io_errno(&e))
    }

    /// Sync only when the read-ahead fd is the one about to be used.
    fn sync_fd(&mut self, fd: i32) {
        if self.ahead.as_ref().map(|a| a.fd == fd).unwrap_or(false) {
            self.sync();
        }
    }
}

impl Sys for WasmSys {
    fn spawn(&mut self, req: &SpawnReq) -> Result<i32, Errno> {
        self.sync();
        process::spawn(&encode_request(req))
    }

    fn exec(&mut self, req: &SpawnReq) -> Errno {
        self.sync();
        process::exec(&encode_request(req))
    }

    fn wait(&mut self, pid: i32, nohang: bool) -> Result<(i32, i32), Errno> {
        self.sync();
        let options = if nohang { process::WNOHANG } else { 0 };
        process::wait(pid, options)
    }

    fn wait_untraced(&mut self, pid: i32) -> Result<(i32, i32), Errno> {
        self.sync();
        process::wait(pid, process::WUNTRACED)
    }

    fn kill(&mut self, pid: i32, sig: u32) -> Result<(), Errno> {
        process::kill(pid, sig)
    }

    fn pipe(&mut self) -> Result<(i32, i32), Errno> {
        let (r, w) = fd::pipe()?;
        self.seekable.remove(&(r as i32));
        self.seekable.remove(&(w as i32));
        Ok((r as i32, w as i32))
    }

    fn dup(&mut self, fd: i32, min: i32) -> Result<i32, Errno> {
        self.sync();
        let n = fd::dup(fd as u32, min as u32)?;
        self.seekable.remove(&(n as i32));
        Ok(n as i32)
    }

    fn dup2(&mut self, old: i32, new: i32) -> Result<(), Errno> {
        self.sync_fd(old);
        self.sync_fd(new);
        self.seekable.remove(&new);
        fd::dup2(old as u32, new as u32)
    }

    fn close(&mut self, fd: i32) {
        self.sync_fd(fd);
        self.seekable.remove(&fd);
        drop(unsafe { std::fs::File::from_raw_fd(fd) });
    }

    fn chdir(&mut self, path: &[u8]) -> Result<(), Errno> {
        process::chdir(path)
    }

    fn sigaction(&mut self, sig: u32, disp: u32) -> Result<(), Errno> {
        process::sigaction(sig, disp)
    }

    fn sigpending(&mut self) -> u64 {
        process::sigpending().unwrap_or(0)
    }

    fn isatty(&mut self, fd: i32) -> bool {
        fd::isatty(fd as u32)
    }

    fn tty_get(&mut self, fd: i32) -> Result<u32, Errno> {
        tty::get(fd as u32)
    }

    fn tty_set(&mut self, fd: i32, mode: u32) -> Result<(), Errno> {
        tty::set(fd as u32, mode)
    }

    fn winsize(&mut self, fd: i32) -> Option<(u16, u16)> {
        tty::winsize(fd as u32).ok()
    }

    fn tcsetpgrp(&mut self, fd: i32, pgid: i32) -> Result<(), Errno> {
        self.sync();
        tty::set_foreground(fd as u32, pgid)
    }

    fn setpgid(&mut self, pid: i32, pgid: i32) -> Result<(), Errno> {
        process::setpgid(pid, pgid)
    }

    fn session_next(&mut self) -> Result<Vec<u8>, Errno> {
        self.sync();
        session::next()
    }

    fn session_done(&mut self, status: i32) -> Result<(), Errno> {
        self.sync();
        session::done(status)
    }

    fn step_begin(&mut self, text: &[u8]) -> Result<(), Errno> {
        self.sync();
        session::step_begin(text)
    }

    fn step_end(&mut self, status: i32, state: &[u8]) -> Result<bool, Errno> {
        self.sync();
        session::step_end(status, state).map(|f| f & session::CTL_PENDING != 0)
    }

    fn ctl_take(&mut self) -> Result<Vec<u8>, Errno> {
        session::ctl_take()
    }

    fn getpid(&mut self) -> (i32, i32) {
        process::getpid().unwrap_or((0, 0))
    }

    fn ids(&mut self) -> (u32, u32, u32, u32) {
        meta::ids()
            .map(|i| (i.uid, i.gid, i.euid, i.egid))
            .unwrap_or((0, 0, 0, 0))
    }

    fn umask(&mut self, new: i32) -> i32 {
        let new = if new < 0 { None } else { Some(new as u32) };
        meta::umask(new).unwrap_or(0) as i32
    }

    fn read(&mut self, fd: i32, buf: &mut [u8]) -> Result<usize, Errno> {
        self.sync_fd(fd);
        let mut f = ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(fd) });
        f.read(buf).map_err(|e| io_errno(&e))
    }

    fn write(&mut self, fd: i32, buf: &[u8]) -> Result<usize, Errno> {
        self.sync_fd(fd);
        let mut f = ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(fd) });
        f.write(buf).map_err(|e| io_errno(&e))
    }

    fn open(&mut self, path: &[u8], flags: u32) -> Result<i32, Errno> {
        // wasi-libc's open takes any bytes; std's would refuse non-UTF-8 paths.
        let c = std::ffi::CString::new(path).map_err(|_| super::ENOENT)?;
        let mut o = match (flags & O_READ != 0, flags & O_WRITE != 0) {
            (true, true) => libc::O_RDWR,
            (false, true) => libc::O_WRONLY,
            _ => libc::O_RDONLY,
        };
        if flags & O_APPEND != 0 {
            o |= libc::O_APPEND;
        }
        if flags & O_TRUNC != 0 {
            o |= libc::O_TRUNC;
        }
        if flags & O_EXCL != 0 {
            o |= libc::O_CREAT | libc::O_EXCL;
        } else if flags & O_CREATE != 0 {
            o |= libc::O_CREAT;
        }
        let fd = unsafe { libc::open(c.as_ptr(), o, 0o666) };
        if fd < 0 {
            return Err(std::io::Error::last_os_error().raw_os_error().unwrap_or(29));
        }
        self.seekable.remove(&fd);
        Ok(fd)
    }

    fn read_ahead(&mut self, fd: i32, out: &mut [u8]) -> Result<usize, Errno> {
        match &mut self.ahead {
            Some(a) if a.fd == fd && a.pos < a.buf.len() => {
                let n = out.len().min(a.buf.len() - a.pos);
                out[..n].copy_from_slice(&a.buf[a.pos..a.pos + n]);
                a.pos += n;
                return Ok(n);
            }
            Some(a) if a.fd == fd => {}
            _ => self.sync(),
        }
        let mut buf = match self.ahead.take() {
            Some(a) => a.buf,
            None => Vec::with_capacity(AHEAD),
        };
        buf.resize(AHEAD, 0);
        let mut f = ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(fd) });
        let got = f.read(&mut buf).map_err(|e| io_errno(&e))?;
        buf.truncate(got);
        let n = out.len().min(got);
        out[..n].copy_from_slice(&buf[..n]);
        if n < got {
            self.ahead = Some(Ahead { fd, buf, pos: n });
        }
        Ok(n)
    }

    fn unread(&mut self, fd: i32, n: usize) -> Result<(), Errno> {
        match &mut self.ahead {
            Some(a) if a.fd == fd && a.pos >= n => {
                a.pos -= n;
                Ok(())
            }
            _ => {
                self.sync();
                Self::raw_seek(fd, -(n as i64))
            }
        }
    }

    fn sync(&mut self) {
        if let Some(a) = self.ahead.take() {
            let rest = a.buf.len() - a.pos;
            if rest > 0 {
                let _ = Self::raw_seek(a.fd, -(rest as i64));
            }
        }
    }

    fn seekable(&mut self, fd: i32) -> bool {
        if let Some(&s) = self.seekable.get(&fd) {
            return s;
        }
        let f = ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(fd) });
        match f.metadata() {
            Ok(m) => {
                self.seekable.insert(fd, m.is_file());
                m.is_file()
            }
            // Not open (EBADF): nothing to remember.
            Err(_) => false,
        }
    }

    fn executable(&mut self, path: &[u8]) -> bool {
        let is_file = crate::fsx::stat(path).map(|m| m.is_file()).unwrap_or(false);
        is_file && meta::access(path, meta::X_OK).is_ok()
    }
}

/// A spawn (or exec) request in the ABI's format.
fn encode_request(req: &SpawnReq) -> Vec<u8> {
    let mut flags = if req.foreground {
        format::SPAWN_FOREGROUND
    } else {
        0
    };
    flags |= match req.intquit {
        crate::sys::IntQuit::Inherit => 0,
        crate::sys::IntQuit::Ignore => format::SPAWN_IGNORE_INTQUIT,
        crate::sys::IntQuit::Default => format::SPAWN_DEFAULT_INTQUIT,
    };
    format::SpawnRequest {
        path: req.path,
        argv: req.argv,
        env: req.env,
        cwd: b"",
        fds: req.fds,
        pgid: req.pgid,
        flags,
    }
    .encode()
}
