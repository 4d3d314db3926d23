//! Commands run through `/bin/sh -c` for awk (`cmd | getline`,
//! `print | cmd`, `close(cmd)`, `system(cmd)`) and sed (`e`, `s///e`):
//! read a command's stdout, write its stdin, or run it and wait.
//!
//! Natively this uses `std::process`; on wasm32 it speaks the `sandglass`
//! process imports (docs/abi.md: `pipe` plus a `spawn` whose fd table puts
//! the pipe's other end at the child's fd 0 or 1), which only the
//! `procutils` binary is granted — that is why awk and sed live there.

use coreutils_core::process::{self, Status};
use std::io::{self, Read, Write};

/// A command's status as awk reports it: the exit code, or 256 + signal
/// (what gawk's `close` and `system` return).
fn awk_status(s: Status) -> i32 {
    match s {
        Status::Exited(c) => c,
        Status::Signaled(sig) => 256 + sig,
    }
}

/// Run `cmd` with our stdin/stdout/stderr and wait for it.
pub fn system(cmd: &[u8]) -> io::Result<i32> {
    let c = process::Command {
        program: "sh".into(),
        args: vec![
            "-c".into(),
            coreutils_core::bytes::os_str(cmd).to_os_string(),
        ],
        ..Default::default()
    };
    process::run(&c).map(awk_status)
}

/// A started command and our end of its pipe.
pub struct Running {
    child: imp::Child,
}

impl Running {
    /// Wait for the command (our pipe end must already be dropped).
    pub fn wait(mut self) -> i32 {
        imp::wait(&mut self.child).map(awk_status).unwrap_or(-1)
    }
}

/// Start `cmd` with its stdout connected to the returned reader.
pub fn open_read(cmd: &[u8]) -> io::Result<(Running, Box<dyn Read>)> {
    let (child, r) = imp::start_read(cmd)?;
    Ok((Running { child }, r))
}

/// Start `cmd` with its stdin connected to the returned writer.
pub fn open_write(cmd: &[u8]) -> io::Result<(Running, Box<dyn Write>)> {
    let (child, w) = imp::start_write(cmd)?;
    Ok((Running { child }, w))
}

#[cfg(not(target_arch = "wasm32"))]
mod imp {
    use super::*;
    use std::process::{Command, Stdio};

    pub type Child = std::process::Child;

    fn sh(cmd: &[u8]) -> Command {
        use std::os::unix::process::CommandExt;
        let mut c = Command::new("/bin/sh");
        // popen's argv[0]: the shell's own messages then say `sh:`.
        c.arg0("sh")
            .arg("-c")
            .arg(coreutils_core::bytes::os_str(cmd));
        c
    }

    pub fn start_read(cmd: &[u8]) -> io::Result<(Child, Box<dyn Read>)> {
        let mut child = sh(cmd).stdout(Stdio::piped()).spawn()?;
        let out = child
            .stdout
            .take()
            .ok_or_else(|| io::Error::from(io::ErrorKind::BrokenPipe))?;
        Ok((child, Box::new(out)))
    }

    pub fn start_write(cmd: &[u8]) -> io::Result<(Child, Box<dyn Write>)> {
        let mut child = sh(cmd).stdin(Stdio::piped()).spawn()?;
        let inp = child
            .stdin
            .take()
            .ok_or_else(|| io::Error::from(io::ErrorKind::BrokenPipe))?;
        Ok((child, Box::new(inp)))
    }

    pub fn wait(child: &mut Child) -> io::Result<Status> {
        use std::os::unix::process::ExitStatusExt;
        let s = child.wait()?;
        Ok(match (s.code(), s.signal()) {
            (Some(c), _) => Status::Exited(c),
            (None, Some(sg)) => Status::Signaled(sg),
            _ => Status::Exited(1),
        })
    }
}

#[cfg(target_arch = "wasm32")]
mod imp {
    use super::*;
    use coreutils_core::fs::File;
    use std::os::wasi::ffi::OsStrExt;
    use std::os::wasi::io::FromRawFd;

    pub type Child = process::Child;

    /// A pipe as (read end, write end).
    fn pipe() -> io::Result<(File, File)> {
        let (r, w) = sandglass_sys::fd::pipe().map_err(io::Error::from_raw_os_error)?;
        // SAFETY: fresh descriptors we now own.
        unsafe { Ok((File::from_raw_fd(r as i32), File::from_raw_fd(w as i32))) }
    }

    /// Spawn `sh -c cmd` with the child's fd `child_fd` mapped to our
    /// `parent_fd`, the others inherited.
    fn spawn(cmd: &[u8], child_fd: u32, parent_fd: u32) -> io::Result<Child> {
        let sh = process::Command {
            program: "sh".into(),
            args: vec!["-c".into(), std::ffi::OsStr::from_bytes(cmd).to_os_string()],
            env: None,
            cwd: None,
            new_group: false,
            null_stdin: false,
        };
        process::spawn_mapped(&sh, &[(child_fd, parent_fd)])
    }

    pub fn start_read(cmd: &[u8]) -> io::Result<(Child, Box<dyn Read>)> {
        use std::os::wasi::io::AsRawFd;
        let (r, w) = pipe()?;
        let child = spawn(cmd, 1, w.as_raw_fd() as u32)?;
        // Our copy of the write end must go, or we never see EOF.
        drop(w);
        Ok((child, Box::new(r)))
    }

    pub fn start_write(cmd: &[u8]) -> io::Result<(Child, Box<dyn Write>)> {
        use std::os::wasi::io::AsRawFd;
        let (r, w) = pipe()?;
        let child = spawn(cmd, 0, r.as_raw_fd() as u32)?;
        drop(r);
        Ok((child, Box::new(w)))
    }

    pub fn wait(child: &mut Child) -> io::Result<Status> {
        process::wait(child)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufRead;

    #[test]
    fn reads_a_commands_output_and_status() {
        let (run, r) = open_read(b"printf 'a\\nb\\n'; exit 3").unwrap();
        let lines: Vec<String> = io::BufReader::new(r).lines().map(|l| l.unwrap()).collect();
        assert_eq!(lines, vec!["a", "b"]);
        assert_eq!(run.wait(), 3);
    }

    #[test]
    fn writes_to_a_command_and_system_reports_status() {
        let dir = std::env::temp_dir().join(format!("uu-pattern-cmd-{}", std::process::id()));
        let file = dir.to_string_lossy().into_owned();
        let (run, mut w) = open_write(format!("cat > '{}'", file).as_bytes()).unwrap();
        w.write_all(b"hello\n").unwrap();
        drop(w);
        assert_eq!(run.wait(), 0);
        assert_eq!(coreutils_core::fs::read(&dir).unwrap(), b"hello\n");
        let _ = coreutils_core::fs::remove_file(&dir);
        assert_eq!(system(b"exit 7").unwrap(), 7);
        assert_eq!(system(b"kill -9 $$").unwrap(), 265);
    }
}
