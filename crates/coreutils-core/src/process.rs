//! Running other programs, for the `procutils` binary (env, timeout, nice,
//! nohup, find -exec, xargs).
//!
//! On wasm32 this speaks the `sandglass` process imports of docs/abi.md
//! (spawn request in its binary format, wait statuses in POSIX encoding);
//! natively it uses `std::process` so the differential tests can run the
//! same code against the host. Only the `procutils` binary may call these:
//! the plain `coreutils` binary is not granted the imports.

use std::ffi::{OsStr, OsString};
use std::io;
use std::path::{Path, PathBuf};

/// How a child ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Exited with this code.
    Exited(i32),
    /// Killed by this signal number.
    Signaled(i32),
}

impl Status {
    /// The shell-style status: the code, or 128 + signal.
    pub fn code(self) -> i32 {
        match self {
            Status::Exited(c) => c,
            Status::Signaled(s) => 128 + s,
        }
    }
}

/// What to start and how.
#[derive(Debug, Clone, Default)]
pub struct Command {
    /// Program name (searched in `$PATH` when it has no `/`) or path.
    pub program: OsString,
    /// Arguments after argv[0]; argv[0] is `program` as given.
    pub args: Vec<OsString>,
    /// Full environment, passed exactly (the kernel adds no `PWD`, as
    /// `env -i` needs); `None` inherits ours.
    pub env: Option<Vec<(OsString, OsString)>>,
    /// Working directory; `None` inherits ours.
    pub cwd: Option<PathBuf>,
    /// Put the child in a new process group led by itself.
    pub new_group: bool,
    /// Give the child /dev/null as stdin instead of ours.
    pub null_stdin: bool,
}

/// A started child.
#[derive(Debug)]
pub struct Child {
    /// Its process id.
    pub pid: i32,
    #[cfg(not(target_arch = "wasm32"))]
    inner: std::process::Child,
}

/// Signal numbers as Linux numbers them (the kernel uses the same).
pub mod sig {
    /// Hangup.
    pub const HUP: i32 = 1;
    /// Interrupt.
    pub const INT: i32 = 2;
    /// Quit.
    pub const QUIT: i32 = 3;
    /// Kill (cannot be caught).
    pub const KILL: i32 = 9;
    /// User 1.
    pub const USR1: i32 = 10;
    /// User 2.
    pub const USR2: i32 = 12;
    /// Broken pipe.
    pub const PIPE: i32 = 13;
    /// Alarm.
    pub const ALRM: i32 = 14;
    /// Terminate.
    pub const TERM: i32 = 15;
    /// Child status changed.
    pub const CHLD: i32 = 17;
    /// Continue.
    pub const CONT: i32 = 18;
    /// Stop.
    pub const STOP: i32 = 19;

    /// Names without the `SIG` prefix, by number.
    pub const NAMES: &[(&str, i32)] = &[
        ("HUP", HUP),
        ("INT", INT),
        ("QUIT", QUIT),
        ("KILL", KILL),
        ("USR1", USR1),
        ("USR2", USR2),
        ("PIPE", PIPE),
        ("ALRM", ALRM),
        ("TERM", TERM),
        ("CHLD", CHLD),
        ("CONT", CONT),
        ("STOP", STOP),
    ];

    /// Parse `TERM`, `SIGTERM`, `term` or `15`.
    pub fn parse(s: &str) -> Option<i32> {
        if let Ok(n) = s.parse::<i32>() {
            return if (0..=64).contains(&n) { Some(n) } else { None };
        }
        let up = s.to_ascii_uppercase();
        let name = up.strip_prefix("SIG").unwrap_or(&up);
        NAMES.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
    }
}

/// Find `name` in `$PATH` the way execvp does; names with a `/` are taken
/// as they are. Returns the path to run or the errno-style error.
pub fn resolve(name: &OsStr) -> io::Result<PathBuf> {
    let bytes = name.to_string_lossy();
    if name.is_empty() {
        return Err(io::Error::from(io::ErrorKind::NotFound));
    }
    if bytes.contains('/') {
        let p = PathBuf::from(name);
        crate::fs::metadata(&p)?;
        return Ok(p);
    }
    let path = std::env::var_os("PATH").unwrap_or_else(|| OsString::from("/usr/bin:/bin"));
    let mut denied = false;
    // std::env::split_paths panics ("unsupported") on wasi with rustc 1.63.
    for dir in path.to_string_lossy().split(':') {
        let dir = if dir.is_empty() {
            PathBuf::from(".")
        } else {
            PathBuf::from(dir)
        };
        let cand = dir.join(name);
        match crate::fs::metadata(&cand) {
            Ok(m) if m.is_file() => {
                if is_executable(&cand, &m) {
                    return Ok(cand);
                }
                denied = true;
            }
            _ => {}
        }
    }
    if denied {
        Err(io::Error::from(io::ErrorKind::PermissionDenied))
    } else {
        Err(io::Error::from(io::ErrorKind::NotFound))
    }
}

#[cfg(unix)]
fn is_executable(_p: &Path, m: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    m.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn is_executable(_p: &Path, _m: &std::fs::Metadata) -> bool {
    // Plain WASI has no modes; the kernel's spawn reports EACCES itself.
    true
}

#[cfg(not(target_arch = "wasm32"))]
mod imp {
    use super::*;
    use std::os::unix::process::{CommandExt, ExitStatusExt};

    extern "C" {
        #[link_name = "kill"]
        fn libc_kill(pid: i32, sig: i32) -> i32;
        #[link_name = "setpgid"]
        fn libc_setpgid(pid: i32, pgid: i32) -> i32;
    }

    pub fn spawn(cmd: &Command) -> io::Result<Child> {
        let path = resolve(&cmd.program)?;
        let mut c = std::process::Command::new(&path);
        c.arg0(&cmd.program);
        c.args(&cmd.args);
        if let Some(env) = &cmd.env {
            c.env_clear();
            for (k, v) in env {
                c.env(k, v);
            }
        }
        if let Some(d) = &cmd.cwd {
            c.current_dir(d);
        }
        if cmd.new_group {
            // SAFETY: setpgid is async-signal-safe, as pre_exec requires.
            unsafe {
                c.pre_exec(|| {
                    if libc_setpgid(0, 0) == 0 {
                        Ok(())
                    } else {
                        Err(io::Error::last_os_error())
                    }
                });
            }
        }
        if cmd.null_stdin {
            c.stdin(std::process::Stdio::null());
        }
        let inner = c.spawn()?;
        Ok(Child {
            pid: inner.id() as i32,
            inner,
        })
    }

    fn convert(s: std::process::ExitStatus) -> Status {
        match (s.code(), s.signal()) {
            (Some(c), _) => Status::Exited(c),
            (None, Some(sg)) => Status::Signaled(sg),
            _ => Status::Exited(1),
        }
    }

    pub fn wait(child: &mut Child) -> io::Result<Status> {
        child.inner.wait().map(convert)
    }

    pub fn try_wait(child: &mut Child) -> io::Result<Option<Status>> {
        Ok(child.inner.try_wait()?.map(convert))
    }

    pub fn kill(pid: i32, signal: i32) -> io::Result<()> {
        // SAFETY: plain libc call with integer arguments.
        let r = unsafe { libc_kill(pid, signal) };
        if r == 0 {
            Ok(())
        } else {
            Err(io::Error::last_os_error())
        }
    }
}

#[cfg(target_arch = "wasm32")]
mod imp {
    use super::*;
    use std::os::wasi::ffi::OsStrExt;

    use sandglass_sys::{format, process as sys};

    fn errno(e: sandglass_sys::Errno) -> io::Error {
        // WASI errno numbering (wasi-libc's errno values).
        io::Error::from_raw_os_error(e)
    }

    pub fn spawn(cmd: &Command) -> io::Result<Child> {
        spawn_mapped(cmd, &[])
    }

    pub fn spawn_mapped(cmd: &Command, map: &[(u32, u32)]) -> io::Result<Child> {
        let path = resolve(&cmd.program)?;
        let mut argv: Vec<&[u8]> = Vec::with_capacity(cmd.args.len() + 1);
        argv.push(cmd.program.as_bytes());
        argv.extend(cmd.args.iter().map(|a| a.as_bytes()));
        let env: Vec<(OsString, OsString)> = match &cmd.env {
            Some(e) => e.clone(),
            None => std::env::vars_os().collect(),
        };
        let env: Vec<Vec<u8>> = env
            .iter()
            .map(|(k, v)| [k.as_bytes(), b"=", v.as_bytes()].concat())
            .collect();
        let cwd = match &cmd.cwd {
            Some(d) if d.is_absolute() => d.clone(),
            Some(d) => std::env::current_dir()?.join(d),
            None => std::env::current_dir().unwrap_or_default(),
        };
        // Kept open until the spawn call has shared it with the child.
        let null = if cmd.null_stdin {
            Some(crate::fs::open("/dev/null")?)
        } else {
            None
        };
        let null_fd = null
            .as_ref()
            .map(|f| std::os::wasi::io::AsRawFd::as_raw_fd(f) as u32);
        let fds: Vec<(u32, u32)> = (0u32..3)
            .map(|fd| {
                let parent = map
                    .iter()
                    .find(|(child, _)| *child == fd)
                    .map(|(_, ours)| *ours)
                    .or(if fd == 0 { null_fd } else { None })
                    .unwrap_or(fd);
                (fd, parent)
            })
            .collect();
        let request = format::SpawnRequest {
            path: path.as_os_str().as_bytes(),
            argv: &argv,
            env: &env,
            cwd: cwd.as_os_str().as_bytes(),
            fds: &fds,
            pgid: if cmd.new_group {
                format::PGID_NEW
            } else {
                format::PGID_PARENT
            },
            // With an environment of its own (env -i), the child gets exactly it: no PWD added.
            flags: if cmd.env.is_some() {
                format::SPAWN_EXACT_ENV
            } else {
                0
            },
        };
        let pid = sys::spawn(&request.encode()).map_err(errno)?;
        drop(null);
        Ok(Child { pid })
    }

    fn decode(st: i32) -> Status {
        let low = st & 0x7f;
        if low == 0 {
            Status::Exited((st >> 8) & 0xff)
        } else {
            Status::Signaled(low)
        }
    }

    fn wait_opts(child: &mut Child, opts: u32) -> io::Result<Option<Status>> {
        loop {
            let (pid, st) = match sys::wait(child.pid, opts) {
                Ok(r) => r,
                Err(27) => continue, // EINTR: retry
                Err(e) => return Err(errno(e)),
            };
            if pid == 0 {
                return Ok(None);
            }
            return Ok(Some(decode(st)));
        }
    }

    pub fn wait(child: &mut Child) -> io::Result<Status> {
        loop {
            if let Some(s) = wait_opts(child, 0)? {
                return Ok(s);
            }
        }
    }

    pub fn try_wait(child: &mut Child) -> io::Result<Option<Status>> {
        wait_opts(child, 1)
    }

    pub fn kill(pid: i32, signal: i32) -> io::Result<()> {
        sys::kill(pid, signal as u32).map_err(errno)
    }
}

/// Start `cmd`. Errors are `NotFound` / `PermissionDenied` like execvp's.
pub fn spawn(cmd: &Command) -> io::Result<Child> {
    imp::spawn(cmd)
}

/// Start `cmd` with some of its fds 0-2 taken from ours: `(child_fd,
/// our_fd)` pairs (a pipe end as the child's stdin or stdout). The host's
/// own spawn does this; natively, use `std::process` with `Stdio`.
#[cfg(target_arch = "wasm32")]
pub fn spawn_mapped(cmd: &Command, map: &[(u32, u32)]) -> io::Result<Child> {
    imp::spawn_mapped(cmd, map)
}

/// Wait for `child` to end.
pub fn wait(child: &mut Child) -> io::Result<Status> {
    imp::wait(child)
}

/// Check without blocking whether `child` has ended.
pub fn try_wait(child: &mut Child) -> io::Result<Option<Status>> {
    imp::try_wait(child)
}

/// Send `signal` to `pid` (negative: a process group).
pub fn kill(pid: i32, signal: i32) -> io::Result<()> {
    imp::kill(pid, signal)
}

/// Run `cmd` to completion: spawn then wait.
pub fn run(cmd: &Command) -> io::Result<Status> {
    let mut c = spawn(cmd)?;
    wait(&mut c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_signal_names() {
        assert_eq!(sig::parse("TERM"), Some(15));
        assert_eq!(sig::parse("sigkill"), Some(9));
        assert_eq!(sig::parse("2"), Some(2));
        assert_eq!(sig::parse("BOGUS"), None);
    }

    #[test]
    fn runs_a_program_and_reports_status() {
        let c = Command {
            program: "sh".into(),
            args: vec!["-c".into(), "exit 3".into()],
            ..Default::default()
        };
        assert_eq!(run(&c).ok(), Some(Status::Exited(3)));
    }

    #[test]
    fn missing_program_is_not_found() {
        let c = Command {
            program: "no-such-program-xyz".into(),
            ..Default::default()
        };
        let e = spawn(&c).err().map(|e| e.kind());
        assert_eq!(e, Some(io::ErrorKind::NotFound));
    }
}
