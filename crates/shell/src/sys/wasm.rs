//! `Sys` over the `sandglass` wasm imports (docs/abi.md, version 1).

use super::{io_errno, Errno, SpawnReq, Sys, O_APPEND, O_CREATE, O_EXCL, O_READ, O_TRUNC, O_WRITE};
use std::io::{Read, Seek, SeekFrom, Write};
use std::mem::ManuallyDrop;
use std::os::wasi::io::FromRawFd;

#[link(wasm_import_module = "sandglass")]
extern "C" {
    fn spawn(req: *const u8, req_len: u32, pid_out: *mut i32) -> i32;
    fn wait(pid: i32, options: u32, pid_out: *mut i32, status_out: *mut i32) -> i32;
    fn kill(pid: i32, sig: u32) -> i32;
    fn getpid(pid_out: *mut i32, ppid_out: *mut i32) -> i32;
    fn setpgid(pid: i32, pgid: i32) -> i32;
    fn sigaction(sig: u32, disposition: u32) -> i32;
    fn sigpending(mask_out: *mut u64) -> i32;
    fn chdir(path: *const u8, len: u32) -> i32;
    fn pipe(fds_out: *mut u32) -> i32;
    fn dup(fd: u32, min_fd: u32, new_out: *mut u32) -> i32;
    fn dup2(old: u32, new: u32) -> i32;
    fn isatty(fd: u32, out: *mut u32) -> i32;
    fn tty_get(fd: u32, mode_out: *mut u32) -> i32;
    fn tty_set(fd: u32, mode: u32) -> i32;
    fn tty_winsize(fd: u32, out: *mut u16) -> i32;
    fn tcsetpgrp(fd: u32, pgid: i32) -> i32;
    fn session_next(handle_out: *mut u32, len_out: *mut u32) -> i32;
    fn session_done(status: i32) -> i32;
    fn handle_read(handle: u32, buf: *mut u8, len: u32) -> i32;
    fn path_access(path: *const u8, len: u32, amode: u32) -> i32;
    fn umask(new: i32, old_out: *mut u32) -> i32;
}

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

fn put_str(out: &mut Vec<u8>, s: &[u8]) {
    out.extend_from_slice(&(s.len() as u32).to_le_bytes());
    out.extend_from_slice(s);
}

fn ok(e: i32) -> Result<(), Errno> {
    if e == 0 {
        Ok(())
    } else {
        Err(e)
    }
}

impl Sys for WasmSys {
    fn spawn(&mut self, req: &SpawnReq) -> Result<i32, Errno> {
        self.sync();
        let mut b = Vec::with_capacity(256);
        put_str(&mut b, req.path);
        b.extend_from_slice(&(req.argv.len() as u32).to_le_bytes());
        for a in req.argv {
            put_str(&mut b, a);
        }
        b.extend_from_slice(&(req.env.len() as u32).to_le_bytes());
        for e in req.env {
            put_str(&mut b, e);
        }
        put_str(&mut b, b"");
        b.extend_from_slice(&(req.fds.len() as u32).to_le_bytes());
        for (c, p) in req.fds {
            b.extend_from_slice(&c.to_le_bytes());
            b.extend_from_slice(&p.to_le_bytes());
        }
        b.extend_from_slice(&req.pgid.to_le_bytes());
        b.extend_from_slice(&(req.foreground as u32).to_le_bytes());
        let mut pid = 0;
        ok(unsafe { spawn(b.as_ptr(), b.len() as u32, &mut pid) })?;
        Ok(pid)
    }

    fn wait(&mut self, pid: i32, nohang: bool) -> Result<(i32, i32), Errno> {
        self.sync();
        let (mut p, mut st) = (0, 0);
        ok(unsafe { wait(pid, nohang as u32, &mut p, &mut st) })?;
        Ok((p, st))
    }

    fn wait_untraced(&mut self, pid: i32) -> Result<(i32, i32), Errno> {
        self.sync();
        let (mut p, mut st) = (0, 0);
        // options bit 1: WUNTRACED
        ok(unsafe { wait(pid, 2, &mut p, &mut st) })?;
        Ok((p, st))
    }

    fn kill(&mut self, pid: i32, sig: u32) -> Result<(), Errno> {
        ok(unsafe { kill(pid, sig) })
    }

    fn pipe(&mut self) -> Result<(i32, i32), Errno> {
        let mut f = [0u32; 2];
        ok(unsafe { pipe(f.as_mut_ptr()) })?;
        self.seekable.remove(&(f[0] as i32));
        self.seekable.remove(&(f[1] as i32));
        Ok((f[0] as i32, f[1] as i32))
    }

    fn dup(&mut self, fd: i32, min: i32) -> Result<i32, Errno> {
        self.sync();
        let mut n = 0u32;
        ok(unsafe { dup(fd as u32, min as u32, &mut n) })?;
        self.seekable.remove(&(n as i32));
        Ok(n as i32)
    }

    fn dup2(&mut self, old: i32, new: i32) -> Result<(), Errno> {
        self.sync_fd(old);
        self.sync_fd(new);
        self.seekable.remove(&new);
        ok(unsafe { dup2(old as u32, new as u32) })
    }

    fn close(&mut self, fd: i32) {
        self.sync_fd(fd);
        self.seekable.remove(&fd);
        drop(unsafe { std::fs::File::from_raw_fd(fd) });
    }

    fn chdir(&mut self, path: &[u8]) -> Result<(), Errno> {
        ok(unsafe { chdir(path.as_ptr(), path.len() as u32) })
    }

    fn sigaction(&mut self, sig: u32, disp: u32) -> Result<(), Errno> {
        ok(unsafe { sigaction(sig, disp) })
    }

    fn sigpending(&mut self) -> u64 {
        let mut m = 0u64;
        if unsafe { sigpending(&mut m) } == 0 {
            m
        } else {
            0
        }
    }

    fn isatty(&mut self, fd: i32) -> bool {
        let mut o = 0u32;
        unsafe { isatty(fd as u32, &mut o) == 0 && o == 1 }
    }

    fn tty_get(&mut self, fd: i32) -> Result<u32, Errno> {
        let mut m = 0u32;
        ok(unsafe { tty_get(fd as u32, &mut m) })?;
        Ok(m)
    }

    fn tty_set(&mut self, fd: i32, mode: u32) -> Result<(), Errno> {
        ok(unsafe { tty_set(fd as u32, mode) })
    }

    fn winsize(&mut self, fd: i32) -> Option<(u16, u16)> {
        let mut w = [0u16; 2];
        if unsafe { tty_winsize(fd as u32, w.as_mut_ptr()) } == 0 {
            Some((w[0], w[1]))
        } else {
            None
        }
    }

    fn tcsetpgrp(&mut self, fd: i32, pgid: i32) -> Result<(), Errno> {
        self.sync();
        ok(unsafe { tcsetpgrp(fd as u32, pgid) })
    }

    fn setpgid(&mut self, pid: i32, pgid: i32) -> Result<(), Errno> {
        ok(unsafe { setpgid(pid, pgid) })
    }

    fn session_next(&mut self) -> Result<Vec<u8>, Errno> {
        self.sync();
        let (mut h, mut len) = (0u32, 0u32);
        ok(unsafe { session_next(&mut h, &mut len) })?;
        let mut buf = vec![0u8; len as usize];
        ok(unsafe { handle_read(h, buf.as_mut_ptr(), len) })?;
        Ok(buf)
    }

    fn session_done(&mut self, status: i32) -> Result<(), Errno> {
        self.sync();
        ok(unsafe { session_done(status) })
    }

    fn getpid(&mut self) -> (i32, i32) {
        let (mut p, mut pp) = (0, 0);
        unsafe {
            getpid(&mut p, &mut pp);
        }
        (p, pp)
    }

    fn umask(&mut self, new: i32) -> i32 {
        let mut old = 0u32;
        unsafe {
            umask(new, &mut old);
        }
        old as i32
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
        is_file && unsafe { path_access(path.as_ptr(), path.len() as u32, 1) } == 0
    }
}
