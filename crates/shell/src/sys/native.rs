//! Native (Linux) implementation of `Sys` over libc, used by `cargo test` and for
//! running scripts natively during development. Children are started with
//! posix_spawn and an explicit fd table, as the kernel's `spawn` does.

use super::{io_errno, Errno, SpawnReq, Sys, O_APPEND, O_CREATE, O_EXCL, O_READ, O_TRUNC, O_WRITE};
use std::ffi::CString;

#[derive(Default)]
pub struct NativeSys;

fn errno() -> Errno {
    let e = std::io::Error::last_os_error();
    io_errno(&e)
}

fn cstr(b: &[u8]) -> CString {
    let v: Vec<u8> = b.iter().copied().filter(|&c| c != 0).collect();
    CString::new(v).unwrap_or_default()
}

impl Sys for NativeSys {
    fn spawn(&mut self, req: &SpawnReq) -> Result<i32, Errno> {
        unsafe {
            let mut fa: libc::posix_spawn_file_actions_t = std::mem::zeroed();
            libc::posix_spawn_file_actions_init(&mut fa);
            // stage through high fds so mappings cannot clobber each other
            for (i, (_, parent)) in req.fds.iter().enumerate() {
                libc::posix_spawn_file_actions_adddup2(&mut fa, *parent as i32, 900 + i as i32);
            }
            for fd in 0..3 {
                if !req.fds.iter().any(|(c, _)| *c == fd) {
                    libc::posix_spawn_file_actions_addclose(&mut fa, fd as i32);
                }
            }
            for (i, (child, _)) in req.fds.iter().enumerate() {
                libc::posix_spawn_file_actions_adddup2(&mut fa, 900 + i as i32, *child as i32);
            }
            for i in 0..req.fds.len() {
                libc::posix_spawn_file_actions_addclose(&mut fa, 900 + i as i32);
            }
            let mut attr: libc::posix_spawnattr_t = std::mem::zeroed();
            libc::posix_spawnattr_init(&mut attr);
            // children start with default SIGPIPE (Rust ignores it in the parent)
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, libc::SIGPIPE);
            libc::posix_spawnattr_setsigdefault(&mut attr, &set);
            libc::posix_spawnattr_setflags(&mut attr, libc::POSIX_SPAWN_SETSIGDEF as libc::c_short);
            let path = cstr(req.path);
            let argv: Vec<CString> = req.argv.iter().map(|a| cstr(a)).collect();
            let mut argvp: Vec<*mut libc::c_char> =
                argv.iter().map(|a| a.as_ptr() as *mut _).collect();
            argvp.push(std::ptr::null_mut());
            let env: Vec<CString> = req.env.iter().map(|a| cstr(a)).collect();
            let mut envp: Vec<*mut libc::c_char> =
                env.iter().map(|a| a.as_ptr() as *mut _).collect();
            envp.push(std::ptr::null_mut());
            let mut pid: libc::pid_t = 0;
            let r = libc::posix_spawn(
                &mut pid,
                path.as_ptr(),
                &fa,
                &attr,
                argvp.as_ptr(),
                envp.as_ptr(),
            );
            libc::posix_spawn_file_actions_destroy(&mut fa);
            libc::posix_spawnattr_destroy(&mut attr);
            if r != 0 {
                return Err(match r {
                    libc::ENOENT => super::ENOENT,
                    libc::EACCES => super::EACCES,
                    libc::ENOEXEC => super::ENOEXEC,
                    _ => 29,
                });
            }
            Ok(pid)
        }
    }

    fn wait(&mut self, pid: i32, nohang: bool) -> Result<(i32, i32), Errno> {
        let mut st: libc::c_int = 0;
        loop {
            let r = unsafe { libc::waitpid(pid, &mut st, if nohang { libc::WNOHANG } else { 0 }) };
            if r < 0 {
                let e = std::io::Error::last_os_error();
                if e.raw_os_error() == Some(libc::EINTR) {
                    continue;
                }
                return Err(super::ECHILD);
            }
            return Ok((r, st));
        }
    }

    fn wait_untraced(&mut self, pid: i32) -> Result<(i32, i32), Errno> {
        let mut st: libc::c_int = 0;
        loop {
            let r = unsafe { libc::waitpid(pid, &mut st, libc::WUNTRACED) };
            if r < 0 {
                if std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
                    continue;
                }
                return Err(super::ECHILD);
            }
            return Ok((r, st));
        }
    }

    fn kill(&mut self, pid: i32, sig: u32) -> Result<(), Errno> {
        if unsafe { libc::kill(pid, sig as i32) } < 0 {
            Err(errno())
        } else {
            Ok(())
        }
    }

    fn pipe(&mut self) -> Result<(i32, i32), Errno> {
        let mut fds = [0i32; 2];
        if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } < 0 {
            return Err(errno());
        }
        Ok((fds[0], fds[1]))
    }

    fn dup(&mut self, fd: i32, min: i32) -> Result<i32, Errno> {
        let r = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, min) };
        if r < 0 {
            Err(8)
        } else {
            Ok(r)
        }
    }

    fn dup2(&mut self, old: i32, new: i32) -> Result<(), Errno> {
        if old == new {
            return if unsafe { libc::fcntl(old, libc::F_GETFD) } < 0 {
                Err(8)
            } else {
                Ok(())
            };
        }
        if unsafe { libc::dup2(old, new) } < 0 {
            Err(8)
        } else {
            Ok(())
        }
    }

    fn close(&mut self, fd: i32) {
        unsafe {
            libc::close(fd);
        }
    }

    fn chdir(&mut self, _path: &[u8]) -> Result<(), Errno> {
        // std::env::set_current_dir already changed the real cwd natively
        Ok(())
    }

    fn sigaction(&mut self, _sig: u32, _disp: u32) -> Result<(), Errno> {
        Ok(())
    }

    fn sigpending(&mut self) -> u64 {
        0
    }

    fn isatty(&mut self, fd: i32) -> bool {
        unsafe { libc::isatty(fd) == 1 }
    }

    fn tty_get(&mut self, fd: i32) -> Result<u32, Errno> {
        unsafe {
            let mut t: libc::termios = std::mem::zeroed();
            if libc::tcgetattr(fd, &mut t) < 0 {
                return Err(59);
            }
            let mut m = 0;
            if t.c_lflag & libc::ICANON != 0 {
                m |= 1;
            }
            if t.c_lflag & libc::ECHO != 0 {
                m |= 2;
            }
            if t.c_lflag & libc::ISIG != 0 {
                m |= 4;
            }
            Ok(m)
        }
    }

    fn tty_set(&mut self, fd: i32, mode: u32) -> Result<(), Errno> {
        unsafe {
            let mut t: libc::termios = std::mem::zeroed();
            if libc::tcgetattr(fd, &mut t) < 0 {
                return Err(59);
            }
            let set = |t: &mut libc::termios, flag: libc::tcflag_t, on: bool| {
                if on {
                    t.c_lflag |= flag
                } else {
                    t.c_lflag &= !flag
                }
            };
            set(&mut t, libc::ICANON, mode & 1 != 0);
            set(&mut t, libc::ECHO, mode & 2 != 0);
            set(&mut t, libc::ISIG, mode & 4 != 0);
            libc::tcsetattr(fd, libc::TCSANOW, &t);
            Ok(())
        }
    }

    fn winsize(&mut self, fd: i32) -> Option<(u16, u16)> {
        unsafe {
            let mut w: libc::winsize = std::mem::zeroed();
            if libc::ioctl(fd, libc::TIOCGWINSZ, &mut w) < 0 {
                return None;
            }
            Some((w.ws_col, w.ws_row))
        }
    }

    fn tcsetpgrp(&mut self, _fd: i32, _pgid: i32) -> Result<(), Errno> {
        Ok(())
    }

    fn setpgid(&mut self, _pid: i32, _pgid: i32) -> Result<(), Errno> {
        Ok(())
    }

    fn session_next(&mut self) -> Result<Vec<u8>, Errno> {
        Err(52)
    }

    fn session_done(&mut self, _status: i32) -> Result<(), Errno> {
        Ok(())
    }

    fn getpid(&mut self) -> (i32, i32) {
        unsafe { (libc::getpid(), libc::getppid()) }
    }

    fn ids(&mut self) -> (u32, u32, u32, u32) {
        unsafe {
            (
                libc::getuid(),
                libc::getgid(),
                libc::geteuid(),
                libc::getegid(),
            )
        }
    }

    fn umask(&mut self, new: i32) -> i32 {
        unsafe {
            if new < 0 {
                let old = libc::umask(0o022);
                libc::umask(old);
                old as i32
            } else {
                libc::umask(new as libc::mode_t) as i32
            }
        }
    }

    fn read(&mut self, fd: i32, buf: &mut [u8]) -> Result<usize, Errno> {
        loop {
            let r = unsafe { libc::read(fd, buf.as_mut_ptr() as *mut _, buf.len()) };
            if r < 0 {
                let e = std::io::Error::last_os_error();
                if e.raw_os_error() == Some(libc::EINTR) {
                    continue;
                }
                return Err(io_errno(&e));
            }
            return Ok(r as usize);
        }
    }

    fn write(&mut self, fd: i32, buf: &[u8]) -> Result<usize, Errno> {
        let r = unsafe { libc::write(fd, buf.as_ptr() as *const _, buf.len()) };
        if r < 0 {
            let e = std::io::Error::last_os_error();
            return Err(if e.raw_os_error() == Some(libc::EPIPE) {
                64
            } else {
                io_errno(&e)
            });
        }
        Ok(r as usize)
    }

    fn open(&mut self, path: &[u8], flags: u32) -> Result<i32, Errno> {
        let mut f = libc::O_CLOEXEC;
        f |= match (flags & O_READ != 0, flags & O_WRITE != 0) {
            (true, true) => libc::O_RDWR,
            (false, true) => libc::O_WRONLY,
            _ => libc::O_RDONLY,
        };
        if flags & O_CREATE != 0 {
            f |= libc::O_CREAT;
        }
        if flags & O_TRUNC != 0 {
            f |= libc::O_TRUNC;
        }
        if flags & O_APPEND != 0 {
            f |= libc::O_APPEND;
        }
        if flags & O_EXCL != 0 {
            f |= libc::O_EXCL;
        }
        let p = cstr(path);
        let r = unsafe { libc::open(p.as_ptr(), f, 0o666) };
        if r < 0 {
            let e = std::io::Error::last_os_error();
            return Err(match e.raw_os_error() {
                Some(libc::EISDIR) => 31,
                Some(libc::ENOTDIR) => 54,
                Some(libc::EEXIST) => 20,
                _ => io_errno(&e),
            });
        }
        Ok(r)
    }

    fn executable(&mut self, path: &[u8]) -> bool {
        let p = cstr(path);
        unsafe {
            let mut st: libc::stat = std::mem::zeroed();
            libc::stat(p.as_ptr(), &mut st) == 0
                && (st.st_mode & libc::S_IFMT) == libc::S_IFREG
                && libc::access(p.as_ptr(), libc::X_OK) == 0
        }
    }
}
