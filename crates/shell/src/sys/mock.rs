//! A scripted host for unit tests of the executor: in-memory fds, pipes and
//! files, and "programs" that are Rust closures run at spawn time (they see
//! their argv and whatever is already in their stdin pipe, and say what they
//! print and exit with). Every spawn, wait, kill, chdir and tcsetpgrp is
//! recorded so tests can check what the shell asked the kernel to do.

use super::{Errno, SpawnReq, Sys, ECHILD, ENOENT, O_APPEND, O_CREATE, O_TRUNC, O_WRITE};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

type Bytes = Vec<u8>;
pub const STOPPED: i32 = -20;
const EBADF: Errno = 8;
const ENOTTY: Errno = 59;

/// What a canned program does: (argv, stdin) -> (stdout, exit status).
/// A status of `STOPPED` means the program stops (as on Ctrl-Z) instead.
pub type Program = Box<dyn Fn(&[Bytes], &[u8]) -> (Bytes, i32)>;

#[derive(Default)]
struct Pipe {
    data: Bytes,
    writers: usize,
}

#[derive(Clone)]
enum Obj {
    /// Output sink (captured stdout/stderr or an in-memory file opened to write).
    Sink(Rc<RefCell<Bytes>>),
    Read(Rc<RefCell<Pipe>>),
    Write(Rc<RefCell<Pipe>>),
}

/// One recorded spawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spawned {
    pub pid: i32,
    pub path: Bytes,
    pub argv: Vec<Bytes>,
    pub env: Vec<Bytes>,
    pub pgid: i32,
    pub foreground: bool,
    pub stdin: Bytes,
}

/// Everything the shell asked of the host.
#[derive(Default, Debug)]
pub struct Log {
    pub spawns: Vec<Spawned>,
    pub waits: Vec<i32>,
    pub kills: Vec<(i32, u32)>,
    pub chdirs: Vec<Bytes>,
    pub tcsetpgrp: Vec<i32>,
}

pub struct MockSys {
    fds: HashMap<i32, Obj>,
    programs: HashMap<Bytes, Program>,
    files: HashMap<Bytes, Rc<RefCell<Bytes>>>,
    exited: Vec<(i32, i32)>,
    next_pid: i32,
    pub log: Rc<RefCell<Log>>,
}

impl MockSys {
    /// A host whose fds 1 and 2 are the returned buffers; fd 0 is `stdin`.
    pub fn new(stdin: &[u8]) -> (MockSys, Rc<RefCell<Bytes>>, Rc<RefCell<Bytes>>) {
        let out = Rc::new(RefCell::new(Vec::new()));
        let err = Rc::new(RefCell::new(Vec::new()));
        let mut fds = HashMap::new();
        fds.insert(
            0,
            Obj::Read(Rc::new(RefCell::new(Pipe {
                data: stdin.to_vec(),
                writers: 0,
            }))),
        );
        fds.insert(1, Obj::Sink(out.clone()));
        fds.insert(2, Obj::Sink(err.clone()));
        let sys = MockSys {
            fds,
            programs: HashMap::new(),
            files: HashMap::new(),
            exited: Vec::new(),
            next_pid: 1000,
            log: Rc::new(RefCell::new(Log::default())),
        };
        (sys, out, err)
    }

    /// Install a program at an absolute path (found by PATH search there).
    pub fn program(&mut self, path: &str, f: Program) {
        self.programs.insert(path.as_bytes().to_vec(), f);
    }

    fn install(&mut self, fd: i32, o: Obj) {
        if let Obj::Write(p) = &o {
            p.borrow_mut().writers += 1;
        }
        self.drop_fd(fd);
        self.fds.insert(fd, o);
    }

    fn drop_fd(&mut self, fd: i32) {
        if let Some(Obj::Write(p)) = self.fds.remove(&fd) {
            p.borrow_mut().writers -= 1;
        }
    }

    fn lowest_free(&self, min: i32) -> i32 {
        let mut n = min;
        while self.fds.contains_key(&n) {
            n += 1;
        }
        n
    }
}

fn write_obj(o: &Obj, b: &[u8]) {
    match o {
        Obj::Sink(s) => s.borrow_mut().extend_from_slice(b),
        Obj::Write(p) => p.borrow_mut().data.extend_from_slice(b),
        Obj::Read(_) => {}
    }
}

impl Sys for MockSys {
    fn spawn(&mut self, req: &SpawnReq) -> Result<i32, Errno> {
        let parent_of = |child: u32| {
            req.fds
                .iter()
                .find(|(c, _)| *c == child)
                .map(|(_, p)| *p as i32)
        };
        let stdin_obj = parent_of(0).and_then(|p| self.fds.get(&p).cloned());
        let stdin = match &stdin_obj {
            Some(Obj::Read(p)) => std::mem::take(&mut p.borrow_mut().data),
            _ => Vec::new(),
        };
        let pid = self.next_pid;
        self.next_pid += 1;
        self.log.borrow_mut().spawns.push(Spawned {
            pid,
            path: req.path.to_vec(),
            argv: req.argv.to_vec(),
            env: req.env.to_vec(),
            pgid: req.pgid,
            foreground: req.foreground,
            stdin: stdin.clone(),
        });
        let (out, status) = match self.programs.get(req.path) {
            Some(p) => p(req.argv, &stdin),
            // a child shell (subshell, pipeline stage of shell code): not run here
            None if req.argv.get(1).map(|a| a.as_slice()) == Some(b"--sandglass-subshell") => {
                (Vec::new(), 0)
            }
            None => return Err(ENOENT),
        };
        if let Some(o) = parent_of(1).and_then(|p| self.fds.get(&p).cloned()) {
            write_obj(&o, &out);
        }
        let raw = if status == STOPPED {
            0x7f | (20 << 8)
        } else {
            status << 8
        };
        self.exited.push((pid, raw));
        Ok(pid)
    }

    fn wait(&mut self, pid: i32, nohang: bool) -> Result<(i32, i32), Errno> {
        self.log.borrow_mut().waits.push(pid);
        let i = if pid == -1 {
            if self.exited.is_empty() {
                None
            } else {
                Some(0)
            }
        } else {
            self.exited.iter().position(|(p, _)| *p == pid)
        };
        match i {
            Some(i) => Ok(self.exited.remove(i)),
            None if nohang => Ok((0, 0)),
            None => Err(ECHILD),
        }
    }

    fn kill(&mut self, pid: i32, sig: u32) -> Result<(), Errno> {
        self.log.borrow_mut().kills.push((pid, sig));
        Ok(())
    }

    fn pipe(&mut self) -> Result<(i32, i32), Errno> {
        let p = Rc::new(RefCell::new(Pipe::default()));
        let r = self.lowest_free(3);
        self.install(r, Obj::Read(p.clone()));
        let w = self.lowest_free(3);
        self.install(w, Obj::Write(p));
        Ok((r, w))
    }

    fn dup(&mut self, fd: i32, min: i32) -> Result<i32, Errno> {
        let o = self.fds.get(&fd).cloned().ok_or(EBADF)?;
        let n = self.lowest_free(min);
        self.install(n, o);
        Ok(n)
    }

    fn dup2(&mut self, old: i32, new: i32) -> Result<(), Errno> {
        if old == new {
            return Ok(());
        }
        let o = self.fds.get(&old).cloned().ok_or(EBADF)?;
        self.install(new, o);
        Ok(())
    }

    fn close(&mut self, fd: i32) {
        self.drop_fd(fd);
    }

    fn chdir(&mut self, path: &[u8]) -> Result<(), Errno> {
        self.log.borrow_mut().chdirs.push(path.to_vec());
        Ok(())
    }

    fn sigaction(&mut self, _sig: u32, _disp: u32) -> Result<(), Errno> {
        Ok(())
    }

    fn sigpending(&mut self) -> u64 {
        0
    }

    fn isatty(&mut self, _fd: i32) -> bool {
        false
    }

    fn tty_get(&mut self, _fd: i32) -> Result<u32, Errno> {
        Err(ENOTTY)
    }

    fn tty_set(&mut self, _fd: i32, _mode: u32) -> Result<(), Errno> {
        Err(ENOTTY)
    }

    fn winsize(&mut self, _fd: i32) -> Option<(u16, u16)> {
        None
    }

    fn tcsetpgrp(&mut self, _fd: i32, pgid: i32) -> Result<(), Errno> {
        self.log.borrow_mut().tcsetpgrp.push(pgid);
        Ok(())
    }

    fn setpgid(&mut self, _pid: i32, _pgid: i32) -> Result<(), Errno> {
        Ok(())
    }

    fn session_next(&mut self) -> Result<Vec<u8>, Errno> {
        Err(EBADF)
    }

    fn session_done(&mut self, _status: i32) -> Result<(), Errno> {
        Ok(())
    }

    fn getpid(&mut self) -> (i32, i32) {
        (100, 1)
    }

    fn umask(&mut self, _new: i32) -> i32 {
        0o022
    }

    fn read(&mut self, fd: i32, buf: &mut [u8]) -> Result<usize, Errno> {
        match self.fds.get(&fd) {
            Some(Obj::Read(p)) => {
                let mut p = p.borrow_mut();
                let n = buf.len().min(p.data.len());
                buf[..n].copy_from_slice(&p.data[..n]);
                p.data.drain(..n);
                // no writer can add more in a single-threaded mock: empty is EOF
                Ok(n)
            }
            Some(_) => Err(EBADF),
            None => Err(EBADF),
        }
    }

    fn write(&mut self, fd: i32, buf: &[u8]) -> Result<usize, Errno> {
        match self.fds.get(&fd) {
            Some(Obj::Read(_)) | None => Err(EBADF),
            Some(o) => {
                write_obj(o, buf);
                Ok(buf.len())
            }
        }
    }

    fn open(&mut self, path: &[u8], flags: u32) -> Result<i32, Errno> {
        let o = if flags & O_WRITE != 0 {
            if !self.files.contains_key(path) && flags & O_CREATE == 0 {
                return Err(ENOENT);
            }
            let f = self.files.entry(path.to_vec()).or_default().clone();
            if flags & O_TRUNC != 0 && flags & O_APPEND == 0 {
                f.borrow_mut().clear();
            }
            Obj::Sink(f)
        } else {
            let f = self.files.get(path).ok_or(ENOENT)?;
            let data = f.borrow().clone();
            Obj::Read(Rc::new(RefCell::new(Pipe { data, writers: 0 })))
        };
        let n = self.lowest_free(3);
        self.install(n, o);
        Ok(n)
    }

    fn executable(&mut self, path: &[u8]) -> bool {
        self.programs.contains_key(path)
    }

    fn seekable(&mut self, _fd: i32) -> bool {
        // Mock fds are pipes and sinks.
        false
    }

    fn poll_read(&mut self, _fd: i32, _ms: i32) -> Result<bool, Errno> {
        // A mock pipe holds all its input from the start.
        Ok(true)
    }
}
