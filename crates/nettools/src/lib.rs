//! curl and wget for Sandglass sandboxes. They speak HTTP semantics
//! (method, URL, headers, body) to the sandbox's network gateway through
//! the `sandglass` net syscalls; connections, name lookups, TLS and the
//! network policy are the gateway's (docs/network.md).
//!
//! Everything a program touches outside its own memory comes through
//! [`Env`]: the transport, the standard streams and the clock, so the
//! whole of both programs runs natively under `cargo test` against the
//! scripted transport in [`fake`]. Files (-o, -b, -c, -P ...) are plain
//! `std::fs`, which WASI maps onto the sandbox's filesystem.

pub mod cookies;
pub mod curl;
pub mod decode;
pub mod fake;
pub mod multipart;
pub mod netrc;
pub mod shortopts;
pub mod sys;
pub mod time;
pub mod transport;
pub mod url;
pub mod wget;

use std::io::{Read, Write};
use std::time::Duration;
use transport::Transport;

/// The world a program runs in.
pub struct Env<'a> {
    pub transport: &'a mut dyn Transport,
    pub stdin: &'a mut dyn Read,
    pub stdout: &'a mut dyn Write,
    pub stderr: &'a mut dyn Write,
    pub stdout_tty: bool,
    pub stderr_tty: bool,
    /// The descriptor behind `stdout` when it is the process's own (the
    /// kernel may then write body bytes there directly); None in tests.
    pub stdout_fd: Option<u32>,
    /// Unix seconds (wget's log stamps, cookie expiry).
    pub now: fn() -> i64,
    /// Waits between retries; tests record instead of sleeping.
    pub sleep: &'a mut dyn FnMut(Duration),
}

/// A random 64-bit number (multipart boundaries), from the host's entropy
/// through std's hash keys: no extra dependency for eight bytes.
pub fn random_u64() -> u64 {
    use std::collections::hash_map::RandomState;
    use std::hash::{BuildHasher, Hasher};
    let mut h = RandomState::new().build_hasher();
    h.write_u64(time::now() as u64);
    h.finish()
}

/// Whether a standard stream is a terminal (never off wasm: tests say so
/// through [`Env`]).
pub fn is_tty(fd: u32) -> bool {
    sandglass_sys::fd::isatty(fd)
}

/// A file's descriptor, for the kernel to write to (wasm only).
#[cfg(target_os = "wasi")]
pub fn file_fd(f: &std::fs::File) -> Option<u32> {
    use std::os::wasi::io::AsRawFd;
    Some(f.as_raw_fd() as u32)
}

/// A file's descriptor, for the kernel to write to (wasm only).
#[cfg(not(target_os = "wasi"))]
pub fn file_fd(_f: &std::fs::File) -> Option<u32> {
    None
}

/// curl and wget both ignore SIGPIPE: a write to a closed pipe fails
/// with EPIPE and they exit with their own status (curl 23, wget 3)
/// instead of being killed (141).
#[cfg(target_os = "wasi")]
fn ignore_sigpipe() {
    const SIGPIPE: u32 = 13;
    let _ = sandglass_sys::process::sigaction(SIGPIPE, sandglass_sys::process::SIG_IGNORE);
}

#[cfg(not(target_os = "wasi"))]
fn ignore_sigpipe() {}

/// The process's real environment, for the binaries' `main`.
pub fn run_main(program: fn(&[String], &mut Env) -> i32) -> ! {
    coreutils_core::adopt_pwd();
    ignore_sigpipe();
    let args: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let mut transport = sys::SysTransport;
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let mut sin = stdin.lock();
    let mut sout = std::io::BufWriter::with_capacity(64 * 1024, stdout.lock());
    let mut serr = stderr.lock();
    let mut sleep = std::thread::sleep;
    let code = {
        let mut env = Env {
            transport: &mut transport,
            stdin: &mut sin,
            stdout: &mut sout,
            stderr: &mut serr,
            stdout_tty: is_tty(1),
            stderr_tty: is_tty(2),
            stdout_fd: Some(1),
            now: time::now,
            sleep: &mut sleep,
        };
        program(&args, &mut env)
    };
    let _ = sout.flush();
    drop(sout);
    std::process::exit(code)
}
